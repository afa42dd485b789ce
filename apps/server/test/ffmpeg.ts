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
