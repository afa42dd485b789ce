import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENRES } from '@tonearm/contract';
import { discardAll, stageAudio, stageImage } from '../media/staging.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import {
  buildDemoCatalogue,
  DEMO_ALBUMS,
  DEMO_ARTISTS,
  DEMO_SAMPLE_RATE,
  DEMO_SONGS,
  renderDemoAudio,
  type DemoCatalogue,
} from './demo-catalogue.js';
import { renderSong, seededRandom } from './synth.js';
import { encodeWav } from './wav.js';

let catalogue: DemoCatalogue;
let buildMs: number;
let root: string;
let store: LocalBlobStore;

beforeAll(async () => {
  const started = performance.now();
  catalogue = await buildDemoCatalogue();
  buildMs = performance.now() - started;
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-demo-'));
  store = new LocalBlobStore(root);
}, 30_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('buildDemoCatalogue', () => {
  it('has about twelve songs by four or five invented artists, with genres from the contract', () => {
    // Printed so a run shows the cost of seeding a fresh install.
    console.info(`demo catalogue built in ${Math.round(buildMs)} ms`);
    expect(catalogue.songs).toHaveLength(12);
    expect(catalogue.artists.map((artist) => artist.name)).toEqual(DEMO_ARTISTS.map((artist) => artist.name));
    expect(catalogue.artists.length).toBeGreaterThanOrEqual(4);
    expect(catalogue.artists.length).toBeLessThanOrEqual(5);
    const artistNames = new Set(catalogue.artists.map((artist) => artist.name));
    for (const song of catalogue.songs) {
      expect(artistNames.has(song.artistName)).toBe(true);
      expect(GENRES).toContain(song.genre);
    }
    expect(new Set(catalogue.songs.map((song) => song.name)).size).toBe(12);
    for (const name of artistNames) expect(catalogue.songs.some((song) => song.artistName === name)).toBe(true);
  });

  it('is made of albums: every song on one album of its artist, numbered from 1 in order, with the album’s year', () => {
    expect(catalogue.albums.map((album) => album.name)).toEqual(DEMO_ALBUMS.map((album) => album.name));
    for (const album of catalogue.albums) {
      const tracks = catalogue.songs.filter((song) => song.album === album.name);
      expect(tracks.length).toBeGreaterThanOrEqual(2);
      expect(tracks.every((song) => song.artistName === album.artistName && song.year === album.year)).toBe(true);
      expect(tracks.map((song) => song.track)).toEqual(tracks.map((_, index) => index + 1));
      // Its tracks carry its cover, as tagged files carry their album's artwork.
      expect(tracks.every((song) => song.cover.equals(album.cover))).toBe(true);
    }
    const albumNames = new Set(catalogue.albums.map((album) => album.name));
    expect(catalogue.songs.every((song) => albumNames.has(song.album))).toBe(true);
  });

  it('gives every song its own key, tempo and timbre', () => {
    const signatures = DEMO_SONGS.map(
      ({ sound }) => `${sound.tonic}/${sound.mode}/${sound.bpm}/${sound.lead}/${sound.drums}`,
    );
    expect(new Set(signatures).size).toBe(DEMO_SONGS.length);
    expect(new Set(DEMO_SONGS.map(({ sound }) => sound.bpm)).size).toBeGreaterThanOrEqual(10);
  });

  it('renders 25–40 s WAVs that music-metadata reads with the intended duration', async () => {
    for (const [index, song] of catalogue.songs.entries()) {
      const seconds = DEMO_SONGS[index]?.sound.seconds ?? 0;
      expect(seconds).toBeGreaterThanOrEqual(25);
      expect(seconds).toBeLessThanOrEqual(40);
      const { format } = await parseBuffer(song.audio, { mimeType: 'audio/wav' });
      expect(format).toMatchObject({
        container: 'WAVE',
        sampleRate: DEMO_SAMPLE_RATE,
        numberOfChannels: 1,
        bitsPerSample: 16,
      });
      expect(format.duration).toBeCloseTo(seconds, 3);
    }
  });

  it('renders audible, unclipped, distinct audio', () => {
    const hashes = new Set<string>();
    for (const song of catalogue.songs) {
      const samples = new Int16Array(song.audio.buffer, song.audio.byteOffset + 44, (song.audio.length - 44) / 2);
      let sumOfSquares = 0;
      let peak = 0;
      for (const sample of samples) {
        sumOfSquares += sample * sample;
        peak = Math.max(peak, Math.abs(sample));
      }
      const rms = Math.sqrt(sumOfSquares / samples.length) / 32768;
      expect(rms).toBeGreaterThan(0.05);
      expect(peak).toBeLessThan(32767);
      hashes.add(sha256(song.audio));
    }
    expect(hashes.size).toBe(catalogue.songs.length);
  });

  it('passes the upload inspection: every song as WAV with its duration, every picture as an image', async () => {
    for (const [index, song] of catalogue.songs.entries()) {
      const audio = await stageAudio(store, song.audio);
      expect(audio).toMatchObject({
        ext: 'wav',
        mime: 'audio/wav',
        durationMs: (DEMO_SONGS[index]?.sound.seconds ?? 0) * 1000,
      });
      await discardAll([audio]);
    }
    for (const album of catalogue.albums) {
      const cover = await stageImage(store, album.cover);
      expect(cover.mime).toBe('image/jpeg');
      await discardAll([cover]);
    }
    for (const artist of catalogue.artists) {
      const image = await stageImage(store, artist.image);
      expect(image.mime).toBe('image/jpeg');
      await discardAll([image]);
    }
  });

  it('draws a distinct 640×640 cover per album and picture per artist', async () => {
    const pictures = [
      ...catalogue.albums.map((album) => album.cover),
      ...catalogue.artists.map((artist) => artist.image),
    ];
    expect(new Set(pictures.map(sha256)).size).toBe(pictures.length);
    for (const picture of pictures) {
      expect(await sharp(picture).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 640 });
    }
  });

  it('is deterministic: the same song renders to the same bytes', () => {
    const spec = DEMO_SONGS[3];
    if (!spec) throw new Error('missing demo song');
    expect(sha256(renderDemoAudio(spec))).toBe(sha256(catalogue.songs[3]?.audio ?? Buffer.alloc(0)));
  });
});

describe('synth building blocks', () => {
  it('seededRandom repeats its sequence for a seed and stays in [0, 1)', () => {
    const first = seededRandom(42);
    const second = seededRandom(42);
    const values = Array.from({ length: 1000 }, () => first());
    expect(Array.from({ length: 1000 }, () => second())).toEqual(values);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(values[0]);
  });

  it('renderSong makes exactly the requested number of samples, peaking below full scale', () => {
    const samples = renderSong({ ...(DEMO_SONGS[0]?.sound ?? fail()), seconds: 3.5 }, 8000);
    expect(samples.length).toBe(28_000);
    expect(Math.max(...samples.map(Math.abs))).toBeCloseTo(0.89, 5);
  });

  it('encodeWav writes a canonical 16-bit mono header and clips out-of-range samples', () => {
    const wav = encodeWav(new Float32Array([0, 1, -1, 2, -2, 0.5]), 8000);
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.subarray(8, 16).toString('latin1')).toBe('WAVEfmt ');
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1, 1, 8000, 16,
    ]);
    expect(wav.readUInt32LE(40)).toBe(12);
    const samples = [0, 1, 2, 3, 4, 5].map((index) => wav.readInt16LE(44 + index * 2));
    expect(samples).toEqual([0, 32767, -32767, 32767, -32767, 16384]);
  });
});

function fail(): never {
  throw new Error('missing demo song');
}
