import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import { ANALYSIS_SAMPLE_RATE } from './audio-features.js';

/** The nice value of the analysis's ffmpeg: below listeners' requests and transcodes, like the import's default. */
export const ANALYSIS_NICE = 10;
/** ffmpeg's last words kept as the failure's reason. */
const STDERR_TAIL = 300;

export interface DecodeRequest {
  ffmpegPath: string;
  /** A local file ffmpeg reads itself, or a stream (a remote store's) piped into its stdin. */
  input: { path: string } | { stream: Readable };
  /** Where the excerpt starts and how long it is, in seconds. */
  startSeconds: number;
  seconds: number;
  signal?: AbortSignal;
}

/** ffmpeg ran and could not decode the file: the file's fault (a `failed` row), not the server's. */
export class DecodeFailed extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DecodeFailed';
  }
}

/**
 * Where the analysed excerpt lies: `seconds` from the middle of a song of `durationMs` (the whole song when shorter);
 * from the start when the length is unknown.
 */
export function excerptOf(durationMs: number | null, seconds: number): { startSeconds: number; seconds: number } {
  if (durationMs === null || durationMs <= 0) return { startSeconds: 0, seconds };
  const length = durationMs / 1000;
  return { startSeconds: Math.max(0, (length - seconds) / 2), seconds };
}

/** ffmpeg's arguments: the first audio stream of the excerpt, mono float samples at ANALYSIS_SAMPLE_RATE on stdout. */
export function decodeArgs(request: Pick<DecodeRequest, 'input' | 'startSeconds' | 'seconds'>): string[] {
  const seek = request.startSeconds > 0 ? ['-ss', request.startSeconds.toFixed(3)] : [];
  const input = 'path' in request.input ? request.input.path : 'pipe:0';
  return [
    ...['-hide_banner', '-loglevel', 'error', ...('path' in request.input ? ['-nostdin'] : [])],
    ...[...seek, '-t', request.seconds.toFixed(3), '-i', input],
    ...['-map', '0:a:0', '-ac', '1', '-ar', String(ANALYSIS_SAMPLE_RATE), '-f', 'f32le', 'pipe:1'],
  ];
}

/**
 * Decodes the excerpt with ffmpeg at a low priority (nice ANALYSIS_NICE) into mono float samples. Rejects with
 * DecodeFailed when ffmpeg cannot read the file, with the spawn error when ffmpeg cannot be started at all, and with an
 * AbortError when `signal` aborts (ffmpeg is killed).
 */
export function decodePcm(request: DecodeRequest): Promise<Float32Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const stdin = 'stream' in request.input ? 'pipe' : 'ignore';
    const child = spawn(request.ffmpegPath, decodeArgs(request), {
      stdio: [stdin, 'pipe', 'pipe'],
      windowsHide: true,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, ANALYSIS_NICE);
      } catch {
        // Not allowed here: ffmpeg runs at the server's priority.
      }
    }
    if ('stream' in request.input && child.stdin !== null) {
      const source = request.input.stream;
      // ffmpeg stops reading once it has the excerpt: the rest of the stream is not its problem.
      child.stdin.on('error', () => undefined);
      source.on('error', () => child.stdin?.destroy());
      source.pipe(child.stdin);
      child.on('close', () => source.destroy());
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (request.signal?.aborted === true) return;
      if (code !== 0) {
        reject(new DecodeFailed(stderr.trim() === '' ? `ffmpeg exited with ${String(code)}` : stderr.trim()));
        return;
      }
      resolve(samplesOf(chunks, bytes));
    });
  });
}

/** The little-endian float32 bytes as samples (aligned in a fresh buffer; a torn last sample is dropped). */
function samplesOf(chunks: readonly Buffer[], bytes: number): Float32Array<ArrayBuffer> {
  const samples = new Float32Array(Math.floor(bytes / 4));
  const view = new Uint8Array(samples.buffer);
  let at = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.length, view.length - at);
    view.set(chunk.subarray(0, take), at);
    at += take;
  }
  return samples;
}
