import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LyricsMessages } from '@tonearm/contract';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_FORMATS, encodeAudio, extensionOf, requireFfmpeg, type AudioFormat } from '../../test/audio-formats.js';
import {
  flacWithComments,
  id3v2Tag,
  mp3WithId3v2,
  oggWithComments,
  syltFrame,
  usltFrame,
  type Comments,
  type Id3Frame,
} from '../../test/tag-writers.js';
import { decodeLyricsFile, embeddedLyricsOf, type EmbeddedLyrics } from './file-lyrics.js';
import { inspectAudio } from './upload-inspect.js';

requireFfmpeg();

const LRC = '[la:en]\n[offset:+200]\n[00:01.00]First line\n[00:02.50]<00:02.50>Second <00:03.00>line';
const SYNCED_LINES = [
  { startMs: 1000, text: 'First line' },
  {
    startMs: 2500,
    text: 'Second line',
    words: [
      { startMs: 2500, text: 'Second ' },
      { startMs: 3000, text: 'line' },
    ],
  },
];

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-lyrics-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function encoded(format: AudioFormat, extra: Record<string, string> = {}): Promise<string> {
  counter += 1;
  const file = path.join(dir, `${String(counter)}.${extensionOf(format)}`);
  await encodeAudio(file, format, { seconds: 1, tags: { title: 'Words', extra } });
  return file;
}

async function lyricsIn(file: string): Promise<EmbeddedLyrics> {
  return embeddedLyricsOf(await parseFile(file, { duration: false, skipCovers: true }));
}

/** A file whose tag part `retag` rewrote (the audio as ffmpeg made it). */
async function retagged(format: AudioFormat, retag: (bytes: Buffer) => Buffer): Promise<string> {
  const file = await encoded(format);
  await writeFile(file, retag(await readFile(file)));
  return file;
}

const id3 = (frames: Id3Frame[]) => retagged('mp3', (mp3) => mp3WithId3v2(mp3, id3v2Tag(4, frames)));
const vorbis = (format: 'flac' | 'ogg' | 'opus', comments: Comments) =>
  retagged(format, (bytes) =>
    format === 'flac' ? flacWithComments(bytes, comments) : oggWithComments(bytes, comments),
  );

/** The formats with a lyrics tag: WAV's RIFF INFO has none (ffmpeg writes nothing; a lyrics file beside it serves). */
const TAGGED_FORMATS = AUDIO_FORMATS.filter((format) => format !== 'wav');

describe('lyrics written by ffmpeg as `-metadata lyrics=…`, in every format with a lyrics tag', () => {
  // MP3: ffmpeg writes TXXX:USLT (it has no USLT writer); FLAC, Ogg, Opus: LYRICS; MP4 (AAC, ALAC): ©lyr.
  it.each(TAGGED_FORMATS)('%s: LRC in the tag reads as synced lyrics, with its language and offset', async (format) => {
    const { lyrics, problems } = await lyricsIn(await encoded(format, { lyrics: LRC }));
    expect(problems).toEqual([]);
    expect(lyrics).toEqual({ source: 'embedded', lang: 'en', synced: true, offsetMs: 200, lines: SYNCED_LINES });
  });

  it.each(['mp3', 'flac', 'aac'] as const)('%s: plain text reads as unsynced lyrics', async (format) => {
    const { lyrics } = await lyricsIn(await encoded(format, { lyrics: 'Verse one\n\nVerse two' }));
    expect(lyrics).toEqual({
      source: 'embedded',
      lang: null,
      synced: false,
      offsetMs: 0,
      lines: [{ text: 'Verse one' }, { text: '' }, { text: 'Verse two' }],
    });
  });

  it('a file without lyrics has none, and WAV carries none', async () => {
    expect(await lyricsIn(await encoded('mp3'))).toEqual({ lyrics: null, problems: [] });
    expect(await lyricsIn(await encoded('wav', { lyrics: LRC }))).toEqual({ lyrics: null, problems: [] });
  });
});

describe('ID3v2 USLT and SYLT frames', () => {
  it('USLT: the text with the frame’s language', async () => {
    const { lyrics } = await lyricsIn(await id3([usltFrame('deu', 'Eins\nZwei')]));
    expect(lyrics).toMatchObject({ lang: 'deu', synced: false, lines: [{ text: 'Eins' }, { text: 'Zwei' }] });
  });

  it('USLT holding LRC reads synced; a language of "XXX" is none, so the text’s [la:] answers', async () => {
    const { lyrics } = await lyricsIn(await id3([usltFrame('XXX', LRC)]));
    expect(lyrics).toMatchObject({ lang: 'en', synced: true, offsetMs: 200, lines: SYNCED_LINES });
  });

  it('SYLT in milliseconds: one entry a line, sorted, with the language', async () => {
    const frame = syltFrame('fra', 2, [
      ['Deux', 2000],
      ['Un', 1000],
    ]);
    const { lyrics } = await lyricsIn(await id3([frame]));
    expect(lyrics).toEqual({
      source: 'embedded',
      lang: 'fra',
      synced: true,
      offsetMs: 0,
      lines: [
        { startMs: 1000, text: 'Un' },
        { startMs: 2000, text: 'Deux' },
      ],
    });
  });

  it('SYLT syllables: an entry starting with a line break starts a line, the others are its words', async () => {
    const frame = syltFrame('eng', 2, [
      ['\nHel', 1000],
      ['lo ', 1200],
      ['there', 1500],
      ['\nBye', 3000],
    ]);
    const { lyrics } = await lyricsIn(await id3([frame]));
    expect(lyrics?.lines).toEqual([
      {
        startMs: 1000,
        text: 'Hello there',
        words: [
          { startMs: 1000, text: 'Hel' },
          { startMs: 1200, text: 'lo ' },
          { startMs: 1500, text: 'there' },
        ],
      },
      { startMs: 3000, text: 'Bye', words: [{ startMs: 3000, text: 'Bye' }] },
    ]);
  });

  it('SYLT in MPEG frames: converted with the file’s sample rate (1152 samples a frame)', async () => {
    const file = await id3([syltFrame('eng', 1, [['At frame 100', 100]])]);
    const { format } = await parseFile(file, { duration: false });
    const { lyrics } = await lyricsIn(file);
    expect(lyrics?.lines).toEqual([
      { startMs: Math.round((100 * 1152 * 1000) / (format.sampleRate ?? 0)), text: 'At frame 100' },
    ]);
  });

  it('prefers synced lyrics (SYLT) to plain ones (USLT) in the same file', async () => {
    const { lyrics } = await lyricsIn(await id3([usltFrame('eng', 'Plain'), syltFrame('eng', 2, [['Timed', 500]])]));
    expect(lyrics).toMatchObject({ synced: true, lines: [{ startMs: 500, text: 'Timed' }] });
  });
});

describe('Vorbis comments (FLAC, Ogg Vorbis, Opus)', () => {
  it.each(['flac', 'ogg', 'opus'] as const)('%s: UNSYNCEDLYRICS with LANGUAGE', async (format) => {
    const { lyrics } = await lyricsIn(
      await vorbis(format, [
        ['TITLE', 'Words'],
        ['LANGUAGE', 'spa'],
        ['UNSYNCEDLYRICS', 'Hola'],
      ]),
    );
    expect(lyrics).toMatchObject({ lang: 'spa', synced: false, lines: [{ text: 'Hola' }] });
  });

  it('prefers LYRICS holding LRC to UNSYNCEDLYRICS', async () => {
    const { lyrics } = await lyricsIn(
      await vorbis('flac', [
        ['UNSYNCEDLYRICS', 'Plain'],
        ['LYRICS', '[00:04.00]Timed'],
      ]),
    );
    expect(lyrics).toMatchObject({ synced: true, lines: [{ startMs: 4000, text: 'Timed' }] });
  });

  it('reports bad LRC in a tag (naming the line) and reads the other tag', async () => {
    const { lyrics, problems } = await lyricsIn(
      await vorbis('ogg', [
        ['LYRICS', '[00:01.00]Fine\n[00:61.00]Wrong'],
        ['UNSYNCEDLYRICS', 'Plain'],
      ]),
    );
    expect(lyrics).toMatchObject({ synced: false, lines: [{ text: 'Plain' }] });
    expect(problems).toEqual([
      {
        kind: 'badLine',
        line: 2,
        message: LyricsMessages.badLine(2, '[00:61.00]Wrong', LyricsMessages.secondsTooHigh('00:61.00')),
      },
    ]);
  });
});

describe('an upload’s lyrics (inspectAudio, the song form and the import)', () => {
  it('come with the format and duration of the staged file', async () => {
    const inspected = await inspectAudio(await encoded('flac', { lyrics: LRC }), 'songFile', 'wrong type');
    expect(inspected.format.ext).toBe('flac');
    expect(inspected.lyrics).toMatchObject({ source: 'embedded', synced: true, lines: SYNCED_LINES });
  });
});

describe('decodeLyricsFile', () => {
  const lrc = '[00:01.00]Café';
  it('reads UTF-8 with and without a byte order mark', () => {
    expect(decodeLyricsFile(Buffer.from(lrc))).toEqual({ text: lrc });
    expect(decodeLyricsFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lrc)]))).toEqual({ text: lrc });
  });

  it('reads UTF-16 (either byte order) by its byte order mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lrc, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    expect(decodeLyricsFile(le)).toEqual({ text: lrc });
    expect(decodeLyricsFile(be)).toEqual({ text: lrc });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, and refuses NUL bytes and too many bytes', () => {
    expect(decodeLyricsFile(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]))).toEqual({ text: 'Café €' });
    expect(decodeLyricsFile(Buffer.from([0x41, 0, 0x42]))).toEqual({
      problem: { kind: 'notText', message: LyricsMessages.notText },
    });
    expect(decodeLyricsFile(Buffer.alloc(300 * 1024, 0x41))).toEqual({
      problem: { kind: 'tooLarge', message: LyricsMessages.tooLarge },
    });
  });
});
