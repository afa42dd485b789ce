import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { encodeWav } from '../demo/wav.js';
import { tagWav, type AudioTags } from './tagged-wav.js';

/** Genre tags as taggers write them: catalogue names in other spellings, which the import maps. */
export const CORPUS_GENRE_TAGS = ['Hip-Hop', 'rock', 'Electronic', 'R&B', 'lo-fi', 'Classical', 'Disco', 'k-pop'];

export interface CorpusOptions {
  /** Length of each track; default 5 s. */
  seconds?: number;
  sampleRate?: number;
  artists?: number;
}

export interface CorpusFile {
  file: string;
  tags: AudioTags;
}

/** Distinct real audio per index: a two-note figure whose pitches and rhythm follow from the index. */
function trackSamples(index: number, seconds: number, sampleRate: number): Float32Array {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  const low = 110 * 2 ** ((index % 24) / 12);
  const high = low * 1.5;
  const beat = Math.round(sampleRate / (2 + (index % 5)));
  for (let i = 0; i < samples.length; i++) {
    const frequency = Math.floor(i / beat) % 2 === 0 ? low : high;
    const envelope = 1 - (i % beat) / beat;
    samples[i] = 0.3 * envelope * Math.sin((2 * Math.PI * frequency * i) / sampleRate) + index * 1e-6;
  }
  return samples;
}

async function coverFor(index: number): Promise<Buffer> {
  const hue = (index * 47) % 360;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">` +
    `<rect width="300" height="300" fill="hsl(${hue},60%,45%)"/>` +
    `<circle cx="${60 + (index % 7) * 30}" cy="150" r="${40 + (index % 5) * 12}" fill="hsl(${(hue + 180) % 360},70%,60%)"/>` +
    '</svg>';
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/**
 * Writes `count` tagged WAV files (title, artist, genre, embedded JPEG cover) into `folder`, spread over a few
 * artists and sub-folders, as a realistic import corpus: every file passes the upload checks and differs from the
 * others.
 */
export async function writeImportCorpus(
  folder: string,
  count: number,
  options: CorpusOptions = {},
): Promise<CorpusFile[]> {
  const seconds = options.seconds ?? 5;
  const sampleRate = options.sampleRate ?? 22_050;
  const artists = options.artists ?? 10;
  const written: CorpusFile[] = [];
  for (let index = 0; index < count; index++) {
    const artist = `Corpus Artist ${(index % artists) + 1}`;
    const tags: AudioTags = {
      title: `Track ${String(index + 1).padStart(3, '0')}`,
      artist,
      genre: CORPUS_GENRE_TAGS[index % CORPUS_GENRE_TAGS.length] ?? 'Pop',
      cover: { mime: 'image/jpeg', data: await coverFor(index) },
    };
    const dir = path.join(folder, artist);
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${String(index + 1).padStart(3, '0')}.wav`);
    await writeFile(file, tagWav(encodeWav(trackSamples(index, seconds, sampleRate), sampleRate), tags));
    written.push({ file, tags });
  }
  return written;
}
