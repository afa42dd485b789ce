import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/**
 * Issue 27's gapless measurement: one continuous sine cut into tracks of one album, each pair in one format, played by
 * the real player in Chromium while an AudioWorklet records what its <audio> elements output.
 */
export const RATE = 44_100;
export const FREQUENCY = 1000;
/** Each track's samples: not a whole number of any codec's frames, nor of milliseconds. */
export const TRACK_SAMPLES = 88_211;
export const GAPLESS_ALBUM = 'Gapless Pairs';
export const PAIR_FORMATS = ['mp3', 'm4a', 'flac', 'opus', 'ogg'] as const;
export type PairFormat = (typeof PAIR_FORMATS)[number];

const ENCODERS: Record<PairFormat, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '192k'],
  // An edit list as exact as iTunes' gapless info (ffmpeg's default movie timescale is the millisecond).
  m4a: ['-c:a', 'aac', '-b:a', '192k', '-movie_timescale', String(RATE)],
  flac: ['-c:a', 'flac'],
  opus: ['-c:a', 'libopus', '-b:a', '128k'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '6'],
};

export function trackFile(folder: string, index: number): string {
  const format = PAIR_FORMATS[Math.floor(index / 2)] ?? 'flac';
  return path.join(folder, GAPLESS_ALBUM, `${String(index + 1).padStart(2, '0')} - ${format}.${format}`);
}

/** Writes the album: track k holds samples [k·TRACK_SAMPLES, (k+1)·TRACK_SAMPLES) of one sine, tagged in order. */
export async function writeGaplessAlbum(folder: string): Promise<void> {
  await mkdir(path.join(folder, GAPLESS_ALBUM), { recursive: true });
  const count = PAIR_FORMATS.length * 2;
  for (let index = 0; index < count; index += 1) {
    const format = PAIR_FORMATS[Math.floor(index / 2)] ?? 'flac';
    const start = index * TRACK_SAMPLES;
    const source = `sine=frequency=${FREQUENCY}:sample_rate=${RATE}`;
    const cut = `atrim=start_sample=${start}:end_sample=${start + TRACK_SAMPLES},asetpts=N/SR/TB`;
    const tags = [`title=${format.toUpperCase()} ${index % 2 === 0 ? 'one' : 'two'}`, `album=${GAPLESS_ALBUM}`];
    tags.push('artist=Gapless Band', 'album_artist=Gapless Band', `track=${index + 1}`, 'genre=Classical');
    const metadata = tags.flatMap((tag) => ['-metadata', tag]);
    await run(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-af', cut, '-ac', '2'],
      ...ENCODERS[format],
      ...metadata,
      trackFile(folder, index),
    ]);
  }
}

/** Decodes a file as ffmpeg does (encoder delay and padding trimmed where the file says), mono float samples. */
export async function decodeReference(file: string): Promise<Float32Array> {
  const { stdout } = await run(
    FFMPEG,
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.length / 4);
}

/**
 * The recorder: an AudioWorklet that posts every render quantum of channel 0 to the page. It runs on the audio thread,
 * so a busy page cannot make it miss samples (a ScriptProcessor's main-thread callback can, under load).
 */
const RECORDER_MODULE = `
registerProcessor('e2e-recorder', class extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel) this.port.postMessage(channel.slice(0));
    return true;
  }
});`;

/** Starts recording (before anything plays) what the player's <audio> elements output, mixed, channel 0. */
export async function startRecording(page: Page): Promise<void> {
  // A blob: module: the spec lifts the app's content security policy for it (bypassCSP).
  await page.evaluate(async (module) => {
    const context = new AudioContext();
    await context.audioWorklet.addModule(URL.createObjectURL(new Blob([module], { type: 'text/javascript' })));
    const recorder = new AudioWorkletNode(context, 'e2e-recorder', { numberOfInputs: 1, numberOfOutputs: 1 });
    const chunks: Float32Array[] = [];
    recorder.port.onmessage = (event: MessageEvent<Float32Array>) => {
      chunks.push(event.data);
    };
    for (const element of Array.from(document.querySelectorAll('audio'))) {
      context.createMediaElementSource(element).connect(recorder);
    }
    recorder.connect(context.destination);
    Object.assign(window, { e2eRecording: { chunks, context } });
  }, RECORDER_MODULE);
}

/** The recording so far, without the silence before the first sound and after the last. */
export async function recording(page: Page): Promise<{ samples: Float32Array; rate: number }> {
  const { values, rate } = await page.evaluate(() => {
    const { chunks, context } = (
      window as unknown as { e2eRecording: { chunks: Float32Array[]; context: AudioContext } }
    ).e2eRecording;
    const all: number[] = [];
    for (const chunk of chunks) for (const value of chunk) all.push(value);
    return { values: all, rate: context.sampleRate };
  });
  let first = values.findIndex((value) => Math.abs(value) > SILENCE);
  let last = values.length - 1;
  while (last > first && Math.abs(values[last] ?? 0) <= SILENCE) last -= 1;
  if (first < 0) first = 0;
  return { samples: Float32Array.from(values.slice(first, last + 1)), rate };
}

/** A sample this close to 0 is silence (the sine's amplitude is 1/8; near a zero crossing one sample may pass). */
export const SILENCE = 1e-4;

export interface JoinFigures {
  /** The longest run of silent samples around the join, in ms. */
  silenceMs: number;
  /** The largest step between two samples around the join. */
  jump: number;
}

/** Silence and the largest step in `samples[from, to)`. */
export function figures(samples: Float32Array, from: number, to: number, rate: number): JoinFigures {
  let run = 0;
  let longest = 0;
  let jump = 0;
  for (let index = Math.max(1, from); index < Math.min(samples.length, to); index += 1) {
    const value = samples[index] ?? 0;
    run = Math.abs(value) <= SILENCE ? run + 1 : 0;
    longest = Math.max(longest, run);
    jump = Math.max(jump, Math.abs(value - (samples[index - 1] ?? 0)));
  }
  return { silenceMs: (longest / rate) * 1000, jump };
}
