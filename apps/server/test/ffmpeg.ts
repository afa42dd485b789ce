/**
 * ffmpeg for the transcoding tests: they need the real binary (Debian's `ffmpeg` package) and fail, never skip, when
 * it is missing, so a CI machine without it cannot pass them silently.
 */
import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/** Throws a message saying what to install when ffmpeg does not run. */
export async function requireFfmpeg(): Promise<void> {
  try {
    await run(FFMPEG, ['-version']);
  } catch (error) {
    throw new Error(
      `The transcoding tests need ffmpeg (${FFMPEG}): install it (apt-get install ffmpeg) or set FFMPEG_PATH.`,
      { cause: error },
    );
  }
}

/** A stereo sine tone of `seconds` encoded by ffmpeg to `ext` (flac, mp3, wav, m4a ...), as bytes. */
export async function ffmpegTone(dir: string, seconds: number, ext: string, frequency = 440): Promise<Buffer> {
  const file = path.join(dir, `tone-${frequency}-${seconds}.${ext}`);
  const source = `sine=frequency=${frequency}:duration=${seconds}:sample_rate=44100`;
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-ac', '2', file]);
  return readFile(file);
}

/**
 * A wrapper that runs ffmpeg reading its input at real-time speed (`-re`), so a transcode stays running long enough
 * for a test to watch it (join it, leave it, see it killed). `exec` keeps the process id ffmpeg's own.
 */
export async function realTimeFfmpeg(dir: string): Promise<string> {
  const script = path.join(dir, 'ffmpeg-real-time');
  await writeFile(script, `#!/bin/sh\nexec ${FFMPEG} -re "$@"\n`);
  await chmod(script, 0o755);
  return script;
}

/** Tones one after the other (`[frequency, seconds]` each), mono at 44.1 kHz, encoded by ffmpeg to `ext`, as bytes. */
export async function ffmpegTones(dir: string, tones: readonly [number, number][], ext: string): Promise<Buffer> {
  const file = path.join(dir, `tones-${tones.map(([f, s]) => `${f}x${s}`).join('-')}.${ext}`);
  const sources = tones.map(
    ([frequency, seconds], index) => `sine=frequency=${frequency}:duration=${seconds}:sample_rate=44100[t${index}]`,
  );
  const inputs = tones.map((_, index) => `[t${index}]`).join('');
  const graph = `${sources.join(';')};${inputs}concat=n=${tones.length}:v=0:a=1`;
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-filter_complex', graph, file]);
  return readFile(file);
}

/** Samples per second of decodePcm's output. */
export const PCM_RATE = 8000;

/** Any audio ffmpeg reads, decoded to mono 16-bit samples at PCM_RATE. */
export async function decodePcm(bytes: Buffer): Promise<Int16Array> {
  const child = execFile(
    FFMPEG,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      'pipe:0',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      String(PCM_RATE),
      'pipe:1',
    ],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const output = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg could not decode the audio (exit ${String(code)})`));
    });
  });
  child.stdin?.end(bytes);
  const pcm = await output;
  return new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
}

/** The frequency of a tone in `pcm` (PCM_RATE), from its zero crossings between `fromSeconds` and `toSeconds`. */
export function toneFrequency(pcm: Int16Array, fromSeconds: number, toSeconds: number): number {
  const from = Math.floor(fromSeconds * PCM_RATE);
  const to = Math.min(pcm.length, Math.floor(toSeconds * PCM_RATE));
  let crossings = 0;
  for (let index = from + 1; index < to; index += 1) {
    if ((pcm[index - 1] ?? 0) < 0 !== (pcm[index] ?? 0) < 0) crossings += 1;
  }
  return crossings / 2 / ((to - from) / PCM_RATE);
}
