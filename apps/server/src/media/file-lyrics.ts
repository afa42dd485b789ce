import {
  languageCode,
  LYRICS_MAX_BYTES,
  LyricsMessages,
  parseLyrics,
  plainText,
  type LyricsLine,
  type LyricsProblem,
  type LyricsSource,
  type ParsedLyrics,
} from '@tonearm/contract';
import type { IAudioMetadata, ILyricsTag, ITag } from 'music-metadata';

/*
 * Lyrics an audio file carries (issue 27), read from music-metadata's native tags rather than its `common.lyrics`:
 * that one parses LRC itself (one stamp a line, no offset, bad stamps dropped) and loses the language and which tag
 * the text came from. Every text goes through the contract's parser (lrc.ts), so a file's LRC reads as an upload does.
 *
 *   ID3v2.3/2.4  USLT (text, language), SYLT (times in ms or MPEG frames, language); ffmpeg and some taggers write
 *                TXXX:LYRICS / TXXX:UNSYNCEDLYRICS / TXXX:USLT instead
 *   Vorbis, APE  LYRICS, UNSYNCEDLYRICS (FLAC, Ogg Vorbis, Opus), the language from LANGUAGE
 *   MP4          ©lyr
 *
 * Synced lyrics are preferred to plain ones; among those of one kind, the first the file holds.
 */

/** A song's lyrics as stored: where they came from, their language, timing and lines. */
export interface Lyrics {
  source: LyricsSource;
  lang: string | null;
  synced: boolean;
  /** LRC's `[offset:]` (positive: lines show sooner); line times as written. */
  offsetMs: number;
  lines: LyricsLine[];
}

/** Lyrics read from a file (its tags, or the file beside it). */
export type FileLyrics = Lyrics & { source: 'embedded' | 'sidecar' };

/** What a file's lyrics text gave: lyrics, nothing (no text at all), or why the text is not lyrics. */
export type LyricsRead = { lyrics: FileLyrics } | { problem: LyricsProblem } | null;

/** Lyrics from a text the file holds (`lang`: the tag's own language, which wins over an `[la:]` in the text). */
export function lyricsFromText(text: string, source: FileLyrics['source'], lang: string | null = null): LyricsRead {
  const parsed = parseLyrics(text);
  if (!parsed.ok) return parsed.problem.kind === 'empty' ? null : { problem: parsed.problem };
  return { lyrics: fileLyricsOf(parsed.lyrics, source, lang) };
}

function fileLyricsOf(parsed: ParsedLyrics, source: FileLyrics['source'], lang: string | null): FileLyrics {
  return {
    source,
    lang: languageCode(lang) ?? parsed.lang,
    synced: parsed.synced,
    offsetMs: parsed.offsetMs,
    lines: parsed.lines,
  };
}

/** SYLT's time stamp formats (ID3v2.4 §4.9): MPEG frames, or milliseconds. */
const MPEG_FRAMES = 1;
const MILLISECONDS = 2;
/** SYLT content types that are words to show: other (0), lyrics (1), text transcription (2). */
const WORDS_CONTENT = new Set([0, 1, 2]);
/** Samples in one MPEG audio frame (layer III at 32, 44.1 and 48 kHz; the layer the files Tonearm reads use). */
const SAMPLES_PER_FRAME = 1152;

function isLyricsTag(value: unknown): value is ILyricsTag {
  return typeof value === 'object' && value !== null && 'syncText' in value && Array.isArray(value.syncText);
}

/**
 * SYLT's entries as lines: one entry a line, unless some entries start with a line break, which then starts each line
 * and the entries between are its words (how taggers write syllables).
 */
function syltLines(entries: readonly { text: string; timestamp: number }[]): LyricsLine[] {
  const breaks = entries.some((entry) => /^[\r\n]/.test(entry.text));
  if (!breaks) return entries.map((entry) => ({ startMs: entry.timestamp, text: plainText(entry.text).trim() }));
  const lines: LyricsLine[] = [];
  for (const entry of entries) {
    const word = { startMs: entry.timestamp, text: plainText(entry.text.replace(/^[\r\n]+/, '')) };
    const current = lines[lines.length - 1];
    if (current === undefined || /^[\r\n]/.test(entry.text))
      lines.push({ startMs: entry.timestamp, text: '', words: [word] });
    else current.words?.push(word);
  }
  return lines.map((line) => ({
    ...line,
    text: (line.words ?? [])
      .map((word) => word.text)
      .join('')
      .trim(),
  }));
}

/** A SYLT frame's lyrics: times in ms (MPEG frames converted by the sample rate), sorted; null when unusable. */
function syltLyrics(tag: ILyricsTag, sampleRate: number | undefined): FileLyrics | null {
  if (!WORDS_CONTENT.has(tag.contentType)) return null;
  const scale =
    tag.timeStampFormat === MILLISECONDS
      ? 1
      : tag.timeStampFormat === MPEG_FRAMES && sampleRate !== undefined && sampleRate > 0
        ? (SAMPLES_PER_FRAME * 1000) / sampleRate
        : null;
  if (scale === null) return null;
  const entries = tag.syncText
    .filter((entry) => entry.timestamp !== undefined)
    .map((entry) => ({ text: entry.text, timestamp: Math.round((entry.timestamp ?? 0) * scale) }))
    .sort((a, b) => a.timestamp - b.timestamp);
  const lines = syltLines(entries).filter((line) => line.text !== '' || line.words === undefined);
  if (lines.every((line) => line.text === '')) return null;
  return { source: 'embedded', lang: languageCode(tag.language), synced: true, offsetMs: 0, lines };
}

/** One text a tag holds, with the language the tag names. */
interface TaggedText {
  text: string;
  lang: string | null;
}

const ID3_TEXT_IDS = new Set(['TXXX:LYRICS', 'TXXX:UNSYNCEDLYRICS', 'TXXX:USLT']);
const KEY_IDS = new Set(['LYRICS', 'UNSYNCEDLYRICS']);

/** The lyrics texts of one tag type's list, in the order tagged. */
function textsOf(type: string, tags: readonly ITag[]): TaggedText[] {
  const upper = (tag: ITag) => tag.id.toUpperCase();
  if (type.startsWith('ID3v2')) {
    return tags.flatMap((tag) => {
      if (tag.id === 'USLT' && typeof tag.value === 'object' && tag.value !== null && 'text' in tag.value) {
        const value = tag.value as { text?: unknown; language?: unknown };
        const lang = typeof value.language === 'string' ? value.language : null;
        return typeof value.text === 'string' ? [{ text: value.text, lang }] : [];
      }
      return ID3_TEXT_IDS.has(upper(tag)) && typeof tag.value === 'string' ? [{ text: tag.value, lang: null }] : [];
    });
  }
  if (type === 'vorbis' || type === 'APEv2') {
    const language = tags.find((tag) => upper(tag) === 'LANGUAGE')?.value;
    const lang = typeof language === 'string' ? language : null;
    return tags.flatMap((tag) =>
      KEY_IDS.has(upper(tag)) && typeof tag.value === 'string' ? [{ text: tag.value, lang }] : [],
    );
  }
  if (type === 'iTunes') {
    return tags.flatMap((tag) =>
      tag.id === '©lyr' && typeof tag.value === 'string' ? [{ text: tag.value, lang: null }] : [],
    );
  }
  return [];
}

/** What a file's tags hold of lyrics: the lyrics chosen, and the problems of the texts that were not lyrics. */
export interface EmbeddedLyrics {
  lyrics: FileLyrics | null;
  problems: LyricsProblem[];
}

/** The lyrics embedded in a file (see the top of this file). */
export function embeddedLyricsOf(metadata: IAudioMetadata): EmbeddedLyrics {
  const found: FileLyrics[] = [];
  const problems: LyricsProblem[] = [];
  for (const [type, tags] of Object.entries(metadata.native)) {
    for (const tag of tags) {
      if (tag.id === 'SYLT' && isLyricsTag(tag.value)) {
        const lyrics = syltLyrics(tag.value, metadata.format.sampleRate);
        if (lyrics !== null) found.push(lyrics);
      }
    }
    for (const { text, lang } of textsOf(type, tags)) {
      const read = lyricsFromText(text, 'embedded', lang);
      if (read === null) continue;
      if ('problem' in read) problems.push(read.problem);
      else found.push(read.lyrics);
    }
  }
  return { lyrics: found.find((lyrics) => lyrics.synced) ?? found[0] ?? null, problems };
}

/**
 * The text of a lyrics file's bytes: UTF-8 (a byte order mark dropped), UTF-16 when a byte order mark says so, and
 * Windows-1252 for bytes that are not UTF-8 (what older lyrics files and Windows editors wrote). A file with NUL bytes
 * and no UTF-16 mark is not text; one past LYRICS_MAX_BYTES is not read.
 */
export function decodeLyricsFile(bytes: Uint8Array): { text: string } | { problem: LyricsProblem } {
  if (bytes.length > LYRICS_MAX_BYTES) return { problem: { kind: 'tooLarge', message: LyricsMessages.tooLarge } };
  const [first, second] = bytes;
  if (first === 0xff && second === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes) };
  if (first === 0xfe && second === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes) };
  if (bytes.includes(0)) return { problem: { kind: 'notText', message: LyricsMessages.notText } };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { text: windows1252(bytes) };
  }
}

/** Windows-1252's characters for 0x80–0x9F (0 where it has none); every other byte is its Latin-1 character. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** Windows-1252 text (Node's TextDecoder reads that label as Latin-1, so the table is here). */
function windows1252(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) {
    const high = byte >= 0x80 && byte <= 0x9f ? (CP1252_HIGH[byte - 0x80] ?? 0) : 0;
    text += String.fromCharCode(high === 0 ? byte : high);
  }
  return text;
}
