import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Album, Song } from '@tonearm/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AUDIO_FORMATS,
  embedsPicture,
  encodeAudio,
  encodePicture,
  extensionOf,
  latin1Mp3,
  requireFfmpeg,
  type AudioFormat,
} from '../../test/audio-formats.js';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser } from '../../test/factories.js';
import { blobCounts, songCount, testBlobStore } from '../../test/stored.js';
import { AudioMessages } from '../media/media.formats.js';
import { composeCatalogue } from '../catalogue-composition.js';
import type { LocalBlobStore } from '../storage/local-blob-store.js';
import { AudioEndCheck, TRUNCATED } from './audio-check.js';
import { importFolder, type ImportSummary } from './import-folder.js';

const GAIN = { trackDb: -6.5, trackPeak: 0.98, albumDb: -7.25, albumPeak: 0.99 };
/** The formats whose tags ffmpeg writes ReplayGain into (M4A would need freeform atoms; WAV has INFO only). */
const WITH_GAIN = new Set<AudioFormat>(['mp3', 'flac', 'ogg', 'opus']);

/** What each format's stream says: the stored `format` and the sample rate ffmpeg encodes it at. */
const EXPECTED: Record<AudioFormat, { format: string; sampleRateHz: number }> = {
  mp3: { format: 'mp3', sampleRateHz: 44100 },
  flac: { format: 'flac', sampleRateHz: 44100 },
  ogg: { format: 'vorbis', sampleRateHz: 44100 },
  opus: { format: 'opus', sampleRateHz: 48000 },
  aac: { format: 'aac', sampleRateHz: 44100 },
  alac: { format: 'alac', sampleRateHz: 44100 },
  wav: { format: 'wav', sampleRateHz: 44100 },
};

/** The seven formats as one album, in track order, with covers both embedded and beside the files. */
async function writeAlbum(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const embedded = path.join(folder, '..', 'embedded.png');
  await encodePicture(embedded, 64, 'red');
  await encodePicture(path.join(folder, 'cover.png'), 64, 'blue');
  for (const [index, format] of AUDIO_FORMATS.entries()) {
    await encodeAudio(path.join(folder, `${index + 1} ${format}.${extensionOf(format)}`), format, {
      frequency: 300 + index * 50,
      picture: embedded,
      tags: {
        title: `Track ${index + 1} (${format})`,
        artist: 'The Testers',
        album: 'Seven Formats',
        albumArtist: 'The Testers',
        track: `${index + 1}/7`,
        disc: '1/1',
        date: '2011',
        genre: 'Shoegaze',
        ...(WITH_GAIN.has(format) ? { replayGain: GAIN } : {}),
      },
    });
  }
}

/** Files that must each become one clear line of the summary, and never a half row. */
async function writeBadFiles(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'corrupt.flac'), randomBytes(64 * 1024));
  for (const format of ['flac', 'wav', 'mp3'] as const) {
    const file = path.join(folder, `truncated.${format}`);
    await encodeAudio(file, format, { frequency: 900, seconds: 4, tags: { title: 'Cut', genre: 'Rock' } });
    await truncate(file, Math.floor((await stat(file)).size * 0.4));
  }
  await encodeAudio(path.join(folder, 'untagged.mp3'), 'mp3', { frequency: 1000 });
  // A 20 MB picture: a real PNG of noise, stored uncompressed (over the 15 MB image limit).
  const bigPicture = path.join(folder, '..', '..', 'big.png');
  const side = 2650;
  await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toFile(bigPicture);
  await encodeAudio(path.join(folder, 'big picture.mp3'), 'mp3', {
    frequency: 1100,
    picture: bigPicture,
    tags: { title: 'Big Picture', artist: 'Heavy Art', genre: 'Metal' },
  });
  const plain = path.join(folder, '..', '..', 'plain.mp3');
  await encodeAudio(plain, 'mp3', { frequency: 1200 });
  await latin1Mp3(path.join(folder, 'latin1.mp3'), await readFile(plain), 'Café Übermensch', 'Señor Müller');
  await encodeAudio(path.join(folder, 'cjk.flac'), 'flac', {
    frequency: 1300,
    tags: { title: '夜に駆ける', artist: 'YOASOBI 🎵', album: 'テスト 🚀', genre: 'J-Pop' },
  });
  await encodeAudio(path.join(folder, 'emoji.ogg'), 'ogg', {
    frequency: 1400,
    tags: { title: 'Fire 🔥 Dance 💃', artist: 'Emoji Band ✨', genre: 'Dance' },
  });
}

describeEachDialect('importing every format, and bad files (%s)', (t) => {
  let root: string;
  let store: LocalBlobStore;
  let summary: ImportSummary;

  beforeAll(async () => {
    requireFfmpeg();
    root = await mkdtemp(path.join(tmpdir(), 'tonearm-formats-'));
    await writeAlbum(path.join(root, 'music', 'Seven Formats'));
    await writeBadFiles(path.join(root, 'music', 'Bad'));
    store = testBlobStore(t.dataDir);
    summary = await importFolder(
      composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
      store,
      path.join(root, 'music'),
      {
        endCheck: new AudioEndCheck('ffmpeg'),
      },
    );
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const songsByName = async () => {
    const listener = await makeUser(t);
    const songs = await t.as(listener).json('/api/songs', z.array(Song));
    return { listener, songs: new Map(songs.map((song) => [song.name, song])) };
  };

  it('imports each of the seven formats with its tags, stream facts and loudness', async () => {
    const { songs } = await songsByName();
    for (const [index, format] of AUDIO_FORMATS.entries()) {
      const name = `Track ${index + 1} (${format})`;
      const song = songs.get(name);
      expect(song, name).toMatchObject({
        artistName: 'The Testers',
        albumName: 'Seven Formats',
        trackNumber: index + 1,
        // WAV's tags are RIFF INFO, which has no disc number.
        discNumber: format === 'wav' ? null : 1,
        year: 2011,
        genre: 'Alternative Rock',
        genreTag: 'Shoegaze',
      });
      expect(Math.abs((song?.durationMs ?? 0) - 2000), name).toBeLessThan(120);
      const row = await t.db
        .selectFrom('songs')
        .selectAll()
        .where('id', '=', song?.id ?? 0)
        .executeTakeFirstOrThrow();
      expect(row, name).toMatchObject({ format: EXPECTED[format].format, genre_tag: 'Shoegaze' });
      expect(row.sample_rate_hz, name).toBe(EXPECTED[format].sampleRateHz);
      expect(row.bitrate_kbps, name).toBeGreaterThan(16);
      if (WITH_GAIN.has(format)) {
        expect(row.replay_gain_track_db, name).toBeCloseTo(GAIN.trackDb, 2);
        expect(row.replay_gain_track_peak, name).toBeCloseTo(GAIN.trackPeak, 4);
        expect(row.replay_gain_album_db, name).toBeCloseTo(GAIN.albumDb, 2);
        expect(row.replay_gain_album_peak, name).toBeCloseTo(GAIN.albumPeak, 4);
        expect(song?.replayGainDb, name).toBeCloseTo(GAIN.trackDb, 2);
        expect(song?.replayGainPeak, name).toBeCloseTo(GAIN.trackPeak, 4);
      } else {
        expect(row.replay_gain_track_db, name).toBeNull();
      }
    }
  });

  it('makes one album of them, its tracks in order, with a year and a cover from the files', async () => {
    const { listener, songs } = await songsByName();
    const albumId = songs.get('Track 1 (mp3)')?.albumId ?? 0;
    const album = await t.as(listener).json(`/api/albums/${albumId}`, Album);
    expect(album).toMatchObject({ name: 'Seven Formats', artistName: 'The Testers', year: 2011 });
    expect(album.songs.map((song) => song.trackNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const cover = await t.as(listener).get(album.imgLink);
    expect(cover.statusCode).toBe(200);
  });

  it('takes the embedded picture, else the folder cover', async () => {
    const { songs } = await songsByName();
    const coverOf = (format: AudioFormat) => {
      const index = AUDIO_FORMATS.indexOf(format);
      return songs.get(`Track ${index + 1} (${format})`)?.imgLink;
    };
    const embedded = AUDIO_FORMATS.filter(embedsPicture).map(coverOf);
    const fromFolder = AUDIO_FORMATS.filter((format) => !embedsPicture(format)).map(coverOf);
    expect(new Set(embedded).size).toBe(1);
    expect(new Set(fromFolder).size).toBe(1);
    expect(embedded[0]).not.toBe(fromFolder[0]);
  });

  it('turns each bad file into one clear line, and writes no half row', async () => {
    const lines = summary.notAdded.map((outcome) => [path.basename(outcome.file), outcome.status, outcome.reason]);
    expect(lines).toEqual([
      ['corrupt.flac', 'failed', AudioMessages.wrongType],
      ['truncated.flac', 'failed', TRUNCATED],
      ['truncated.mp3', 'failed', TRUNCATED],
      ['truncated.wav', 'failed', TRUNCATED],
      ['untagged.mp3', 'skipped', 'no tags at all (pass --genre to import it anyway)'],
    ]);
    expect(summary.warnings.map((outcome) => [path.basename(outcome.file), outcome.reason])).toEqual([
      ['big picture.mp3', 'embedded picture not used: 20.1 MB is over the 15.0 MB limit'],
    ]);
    expect(summary).toMatchObject({ added: 11, updated: 0, skipped: 1, failed: 4 });
    expect(await songCount(t.db)).toBe(11);
    expect((await blobCounts(t.dataDir)).tmp).toBe(0);
  });

  it('reads Latin-1, CJK and emoji text as written', async () => {
    const { songs } = await songsByName();
    expect(songs.get('Café Übermensch')).toMatchObject({ artistName: 'Señor Müller', genre: 'Rock' });
    expect(songs.get('夜に駆ける')).toMatchObject({ artistName: 'YOASOBI 🎵', albumName: 'テスト 🚀', genre: 'J-pop' });
    expect(songs.get('Fire 🔥 Dance 💃')).toMatchObject({ artistName: 'Emoji Band ✨', genre: 'Electronic / EDM' });
    expect(songs.get('Big Picture')).toMatchObject({ artistName: 'Heavy Art', genre: 'Metal', genreTag: null });
  });
});
