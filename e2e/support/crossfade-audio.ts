import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/**
 * Issue 27's crossfade measurement: steady tones of two frequencies and levels, so what the player outputs can be
 * split back into each song's share, window by window. 400 Hz and 1000 Hz make whole cycles in 10 ms at 44.1 kHz, so
 * over any window of a multiple of 441 samples the two are exactly orthogonal.
 */
export const RATE = 44_100;
export const LOW = { frequency: 400, amplitude: 0.3 } as const;
export const HIGH = { frequency: 1000, amplitude: 0.15 } as const;
export type Tone = typeof LOW | typeof HIGH;

interface ToneSong {
  title: string;
  album: string;
  artist: string;
  track: number;
  tone: Tone;
  seconds: number;
}

/** Two singles of one artist (not consecutive album tracks: crossfaded) and two tracks of one album (gapless). */
export const SINGLES_ARTIST = 'Crossfade Singles';
export const ALBUM_ARTIST = 'Crossfade Album Band';
export const CONSECUTIVE_ALBUM = 'Crossfade In Order';
export const TONE_SONGS: readonly ToneSong[] = [
  { title: 'Low Single', album: 'Low Single', artist: SINGLES_ARTIST, track: 1, tone: LOW, seconds: 5 },
  { title: 'High Single', album: 'High Single', artist: SINGLES_ARTIST, track: 1, tone: HIGH, seconds: 5 },
  { title: 'Low Track', album: CONSECUTIVE_ALBUM, artist: ALBUM_ARTIST, track: 1, tone: LOW, seconds: 4 },
  { title: 'High Track', album: CONSECUTIVE_ALBUM, artist: ALBUM_ARTIST, track: 2, tone: HIGH, seconds: 4 },
];

export function toneOf(title: string): Tone {
  const song = TONE_SONGS.find((entry) => entry.title === title);
  if (song === undefined) throw new Error(`no tone song ${title}`);
  return song.tone;
}

/** Writes the songs as FLAC (lossless: the levels are exact), each in its album's folder. */
export async function writeToneSongs(folder: string): Promise<void> {
  for (const song of TONE_SONGS) {
    const dir = path.join(folder, song.album);
    await mkdir(dir, { recursive: true });
    const { frequency, amplitude } = song.tone;
    const source = `aevalsrc=${String(amplitude)}*sin(2*PI*${String(frequency)}*t):s=${String(RATE)}:d=${String(song.seconds)}`;
    const tags = [`title=${song.title}`, `album=${song.album}`, `artist=${song.artist}`, `album_artist=${song.artist}`];
    tags.push(`track=${String(song.track)}`, 'genre=Ambient');
    await run(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-ac', '2', '-c:a', 'flac'],
      ...tags.flatMap((tag) => ['-metadata', tag]),
      path.join(dir, `${String(song.track).padStart(2, '0')} - ${song.title}.flac`),
    ]);
  }
}

/** The amplitude of `frequency` in samples[from, from + length): 2/N · |Σ x·e^(-iωn)|. */
export function toneAmplitude(samples: Float32Array, from: number, length: number, frequency: number): number {
  const step = (2 * Math.PI * frequency) / RATE;
  let re = 0;
  let im = 0;
  for (let index = 0; index < length; index += 1) {
    const value = samples[from + index] ?? 0;
    re += value * Math.cos(step * index);
    im -= value * Math.sin(step * index);
  }
  return (2 / length) * Math.hypot(re, im);
}

/** Each tone's amplitude in consecutive windows of `length` samples. */
export function toneTrack(samples: Float32Array, length: number, tone: Tone): number[] {
  const amplitudes: number[] = [];
  for (let from = 0; from + length <= samples.length; from += length) {
    amplitudes.push(toneAmplitude(samples, from, length, tone.frequency));
  }
  return amplitudes;
}

/** The middle value (a steady level, unmoved by the odd window at an edge). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** An equal-power fade's gains, averaged over a window [t, t + width) (seconds), starting at `start`, `length` long. */
export function predictedGains(t: number, width: number, start: number, length: number): { out: number; in: number } {
  const steps = 20;
  let out = 0;
  let incoming = 0;
  for (let step = 0; step < steps; step += 1) {
    const progress = Math.min(1, Math.max(0, (t + ((step + 0.5) * width) / steps - start) / length));
    out += Math.cos((progress * Math.PI) / 2);
    incoming += Math.sin((progress * Math.PI) / 2);
  }
  return { out: out / steps, in: incoming / steps };
}
