import { LYRICS_MAX_BYTES } from './constants.js';
import { LyricsMessages } from './messages.js';
import { plainText } from './text.js';

/*
 * Lyrics text (issue 27): LRC with line time stamps `[mm:ss.xx]` (several on one line, lines in any order), enhanced
 * LRC word stamps `<mm:ss.xx>`, `[offset:±ms]` and the metadata tags; or plain text, which is unsynced lyrics. Pure and
 * without zod, so the server (scan, import, upload, the song form's PUT) and the web app (the song form, before it
 * sends) read lyrics by one rule.
 *
 * The rules that decide what is wrong:
 * - A line starting with `[digits:` is time stamps, and must be read whole: bad numbers, seconds of 60 or more, or a
 *   fraction of more than 3 digits name the line. Anything else in brackets (`[Chorus]`, `[2x]`) is text.
 * - Once one line has a stamp, the lyrics are synced, and every line of text must have one: a line without is named
 *   (the admin sees which line lost its stamp, instead of lyrics that show it at 0:00 or never).
 * - Blank lines are stanza breaks in plain text and ignored between synced lines; metadata lines are never text.
 */

/** One word of enhanced LRC: when it starts, and its text as written (with the space that follows it). */
export interface LyricsWord {
  startMs: number;
  text: string;
}

/** One line: when it starts (synced lyrics only), its text, and its words when the line has word stamps. */
export interface LyricsLine {
  startMs?: number;
  text: string;
  words?: LyricsWord[];
}

export interface ParsedLyrics {
  synced: boolean;
  /** The language (ISO 639 code, lower case) the text names (`[la:]`), or null. */
  lang: string | null;
  /**
   * `[offset:]` in milliseconds, as LRC means it: positive shows every line sooner. The line times are kept as
   * written; a line is shown at `startMs - offsetMs`.
   */
  offsetMs: number;
  /** Synced: sorted by start time (several stamps on one line give one line each). Plain: in order, '' a break. */
  lines: LyricsLine[];
  /** `[ar:]` and `[ti:]`, when given. */
  artist: string | null;
  title: string | null;
}

/** Why a text is not lyrics: none at all, too long, not text, or a line that is wrong (its number, from 1). */
export interface LyricsProblem {
  kind: 'empty' | 'tooLarge' | 'notText' | 'badLine';
  message: string;
  line?: number;
}

export type LyricsParse = { ok: true; lyrics: ParsedLyrics } | { ok: false; problem: LyricsProblem };

/** The metadata tags of LRC (lower case); any other bracketed word is text. */
const METADATA_KEYS = new Set([
  'ar',
  'al',
  'ti',
  'au',
  'by',
  'length',
  'offset',
  're',
  'tool',
  've',
  'version',
  'la',
  'lang',
  'language',
  '#',
]);

const METADATA = /^\[([a-z]+|#):(.*)\]$/i;
/** A line that starts like a time stamp: `[` digits `:`. */
const STAMP_START = /^\[\d+:/;
/** One line stamp at the start of what is left: minutes, seconds, an optional fraction after `.` or `:`. */
const LINE_STAMP = /^\[([^\]]*)\]/;
const TIME = /^(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?$/;
/** A word stamp inside a line: `<` digits `:` … `>` (so that "<3" stays text). */
const WORD_STAMP = /<(\d+:[^>]*)>/g;
const LANGUAGE = /^[a-z]{2,3}$/;
const OFFSET = /^[+-]?\d{1,7}$/;

/** The longest excerpt of a wrong line a message quotes. */
const EXCERPT_MAX = 60;

function excerpt(text: string): string {
  return text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX - 1)}…` : text;
}

function badLine(line: number, text: string, why: string): LyricsParse {
  return { ok: false, problem: { kind: 'badLine', line, message: LyricsMessages.badLine(line, excerpt(text), why) } };
}

/** A stamp's time in ms (`mm:ss`, `mm:ss.x`, `.xx`, `.xxx`), or why it is not one. */
function timeOf(stamp: string): number | string {
  const match = TIME.exec(stamp.trim());
  if (match === null) return LyricsMessages.notAStamp(stamp);
  const [, minutes = '0', seconds = '0', fraction = ''] = match;
  if (Number(seconds) >= 60) return LyricsMessages.secondsTooHigh(stamp);
  const ms = fraction === '' ? 0 : Math.round(Number(fraction) * 10 ** (3 - fraction.length));
  return (Number(minutes) * 60 + Number(seconds)) * 1000 + ms;
}

/** The language a tag names, lower case; null for none, "und" or "xxx" (what taggers write for "unknown"). */
export function languageCode(value: string | null | undefined): string | null {
  const code = value?.trim().toLowerCase() ?? '';
  return LANGUAGE.test(code) && code !== 'und' && code !== 'xxx' ? code : null;
}

/** A line's text as kept: controls and bidi overrides removed (plainText), spaces at the ends trimmed. */
function clean(text: string): string {
  return plainText(text).trim();
}

/**
 * The word stamps of a line's text (the line starting at `lineStart`): its words, text before the first stamp being a
 * word at the line's time; or why a stamp is wrong; null when it has none.
 */
function wordsOf(text: string, lineStart: number): LyricsWord[] | string | null {
  const stamps = [...text.matchAll(WORD_STAMP)];
  if (stamps.length === 0) return null;
  const before = plainText(text.slice(0, stamps[0]?.index ?? 0));
  const words: LyricsWord[] = before.trim() === '' ? [] : [{ startMs: lineStart, text: before }];
  for (const [index, stamp] of stamps.entries()) {
    const time = timeOf(stamp[1] ?? '');
    if (typeof time === 'string') return time;
    const start = stamp.index + stamp[0].length;
    const end = stamps[index + 1]?.index ?? text.length;
    const word = plainText(text.slice(start, end));
    // A stamp with nothing after it marks where the word before it ends.
    if (word.trim() !== '') words.push({ startMs: time, text: word });
  }
  return words;
}

/** What one line of the text is. */
type LineRead =
  | { kind: 'blank' }
  | { kind: 'meta'; key: string; value: string }
  | { kind: 'text'; text: string }
  | { kind: 'timed'; times: number[]; text: string; words: LyricsWord[] | null }
  | { kind: 'wrong'; why: string };

function readLine(raw: string): LineRead {
  const line = raw.trim();
  if (line === '') return { kind: 'blank' };
  const meta = METADATA.exec(line);
  if (meta !== null && METADATA_KEYS.has((meta[1] ?? '').toLowerCase())) {
    return { kind: 'meta', key: (meta[1] ?? '').toLowerCase(), value: (meta[2] ?? '').trim() };
  }
  if (!STAMP_START.test(line)) return { kind: 'text', text: line };
  const times: number[] = [];
  let rest = line;
  for (let stamp = LINE_STAMP.exec(rest); stamp !== null; stamp = LINE_STAMP.exec(rest)) {
    const inside = stamp[1] ?? '';
    // `[00:12.00][Chorus]`: the stamps end where a bracket holds no time.
    if (times.length > 0 && !/^\d+:/.test(inside)) break;
    const time = timeOf(inside);
    if (typeof time === 'string') return { kind: 'wrong', why: time };
    times.push(time);
    rest = rest.slice(stamp[0].length);
  }
  if (times.length === 0) return { kind: 'wrong', why: LyricsMessages.notAStamp(line.split(']')[0] ?? line) };
  const words = wordsOf(rest, times[0] ?? 0);
  if (typeof words === 'string') return { kind: 'wrong', why: words };
  const text = words === null ? clean(rest) : clean(words.map((word) => word.text).join('')).replace(/\s+/g, ' ');
  return { kind: 'timed', times, text, words };
}

/** The length of `text` as UTF-8, in bytes (without TextEncoder, which the contract's types do not know). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Metadata a text named: offset, language, artist and title. */
interface Metadata {
  offsetMs: number;
  lang: string | null;
  artist: string | null;
  title: string | null;
}

/** Applies one metadata line; answers why it is wrong (a bad offset), or null. */
function applyMeta(meta: Metadata, key: string, value: string): string | null {
  if (key === 'offset') {
    if (!OFFSET.test(value)) return LyricsMessages.badOffset;
    meta.offsetMs = Number(value);
  } else if (key === 'la' || key === 'lang' || key === 'language') meta.lang = languageCode(value);
  else if (key === 'ar') meta.artist = clean(value) || null;
  else if (key === 'ti') meta.title = clean(value) || null;
  return null;
}

/** Plain lines: in order, blank lines kept as stanza breaks ('') but never at the ends or two in a row. */
function plainLines(texts: readonly string[]): LyricsLine[] {
  const lines: LyricsLine[] = [];
  for (const text of texts) {
    const kept = clean(text);
    if (kept === '' && (lines.length === 0 || lines[lines.length - 1]?.text === '')) continue;
    lines.push({ text: kept });
  }
  while (lines[lines.length - 1]?.text === '') lines.pop();
  return lines;
}

/** One line per stamp; word times follow each repeat of the line (they are written for its first stamp). */
function timedLines(times: readonly number[], text: string, words: LyricsWord[] | null): LyricsLine[] {
  const first = times[0] ?? 0;
  return times.map((startMs) => {
    if (words === null) return { startMs, text };
    const shift = startMs - first;
    return { startMs, text, words: words.map((word) => ({ startMs: word.startMs + shift, text: word.text })) };
  });
}

/**
 * Reads lyrics text (see the top of this file): the lyrics, or the problem, naming the line that is wrong. A leading
 * byte order mark is dropped; past LYRICS_MAX_BYTES (as UTF-8) nothing is read.
 */
export function parseLyrics(input: string): LyricsParse {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  if (utf8Length(text) > LYRICS_MAX_BYTES) {
    return { ok: false, problem: { kind: 'tooLarge', message: LyricsMessages.tooLarge } };
  }
  const meta: Metadata = { offsetMs: 0, lang: null, artist: null, title: null };
  const texts: { number: number; text: string }[] = [];
  const timed: LyricsLine[] = [];
  const rawLines = text.split(/\r\n|\r|\n/);
  for (const [index, raw] of rawLines.entries()) {
    const number = index + 1;
    const read = readLine(raw);
    if (read.kind === 'wrong') return badLine(number, raw.trim(), read.why);
    if (read.kind === 'meta') {
      const wrong = applyMeta(meta, read.key, read.value);
      if (wrong !== null) return badLine(number, raw.trim(), wrong);
    } else if (read.kind === 'timed') timed.push(...timedLines(read.times, read.text, read.words));
    else texts.push({ number, text: read.kind === 'text' ? read.text : '' });
  }
  if (timed.length > 0) {
    const unstamped = texts.find((line) => clean(line.text) !== '');
    if (unstamped !== undefined) return badLine(unstamped.number, unstamped.text, LyricsMessages.noStamp);
    // A stable sort: lines of one time keep the order they were written in.
    timed.sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
    return { ok: true, lyrics: { synced: true, ...meta, lines: timed } };
  }
  const lines = plainLines(texts.map((line) => line.text));
  if (lines.length === 0) return { ok: false, problem: { kind: 'empty', message: LyricsMessages.empty } };
  return { ok: true, lyrics: { synced: false, ...meta, lines } };
}

/** `mm:ss.xx` of a time in ms (minutes unpadded past 99). */
function stampOf(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const hundredths = Math.floor((ms % 1000) / 10);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(minutes)}:${two(seconds)}.${two(hundredths)}`;
}

/** Lyrics written back as text: LRC for synced lyrics (with `[la:]` and `[offset:]`), the lines for plain ones. */
export function toLrc(lyrics: Pick<ParsedLyrics, 'synced' | 'lang' | 'offsetMs' | 'lines'>): string {
  if (!lyrics.synced) return lyrics.lines.map((line) => line.text).join('\n');
  const head = [
    ...(lyrics.lang === null ? [] : [`[la:${lyrics.lang}]`]),
    ...(lyrics.offsetMs === 0 ? [] : [`[offset:${lyrics.offsetMs > 0 ? '+' : ''}${lyrics.offsetMs}]`]),
  ];
  const body = lyrics.lines.map((line) => {
    const words = line.words?.map((word) => `<${stampOf(word.startMs)}>${word.text}`).join('');
    return `[${stampOf(line.startMs ?? 0)}]${words ?? line.text}`;
  });
  return [...head, ...body].join('\n');
}

/** The lines as plain text (Subsonic's getLyrics), whatever their timing. */
export function lyricsText(lines: readonly LyricsLine[]): string {
  return lines.map((line) => line.text).join('\n');
}
