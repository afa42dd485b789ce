import { execFile } from 'node:child_process';

/** A broken or hanging binary must not hold start-up for long. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Runs `<ffmpegPath> -version` once and answers its first line ("ffmpeg version 5.1.6-0+deb12u1 ..."), or null when
 * the binary is missing, fails or does not call itself ffmpeg. Never rejects: no ffmpeg only means no transcoding.
 */
export function probeFfmpeg(ffmpegPath: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(ffmpegPath, ['-version'], { timeout: PROBE_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      const firstLine = stdout.split('\n', 1)[0]?.trim() ?? '';
      resolve(error === null && firstLine.startsWith('ffmpeg version') ? firstLine : null);
    });
  });
}
