import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { close, fdatasync, open, read, unlink, write } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { StreamFormat } from '@tonearm/contract';
import type { StreamMeter } from '../../media/media-meters.js';

const openFile = promisify(open);
const readFile = promisify(read);
const writeFile = promisify(write);
const syncFile = promisify(fdatasync);
const noop = () => undefined;

/** Bytes a follower reads from the growing file at a time. */
const FOLLOW_CHUNK_BYTES = 64 * 1024;
/** ffmpeg's last words kept for the log when it fails. */
const STDERR_TAIL_BYTES = 2048;

export interface TranscodeJob {
  ffmpegPath: string;
  /** A local file ffmpeg reads itself, or a stream (a remote store's) piped into its stdin. */
  input: { path: string } | { stream: Readable };
  format: StreamFormat;
  /**
   * How long the audio really is, in seconds, when the container says so more exactly than the decoder honours (an
   * MP4's iTunes gapless info or edit list: ffmpeg trims the encoder delay but keeps the padding). Gapless only.
   */
  lengthSeconds?: number | null | undefined;
  /** kbit/s */
  bitrate: number;
  /** Where in the input the output starts, in ms (0: from the start). */
  offsetMs?: number;
  /** Where the output is written while it grows; renamed by the caller once `done` resolves. */
  tempPath: string;
  /** How long a killed ffmpeg gets to exit on SIGTERM before SIGKILL. */
  killGraceMs: number;
}

const CODECS: Readonly<Record<StreamFormat, { codec: string; container: string }>> = {
  opus: { codec: 'libopus', container: 'ogg' },
  mp3: { codec: 'libmp3lame', container: 'mp3' },
  gapless: { codec: 'flac', container: 'mp4' },
};

/**
 * The gapless stream: FLAC (no encoder delay) in fragmented MP4 of about a second per fragment, which Media Source
 * Extensions take as it arrives. ffmpeg calls FLAC in MP4 experimental (`-strict -2`); Chromium plays it.
 */
const GAPLESS_OUTPUT = [
  ...['-c:a', 'flac', '-strict', '-2', '-f', 'mp4'],
  ...['-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '1000000'],
];

/** `atrim` to the song's real end (seconds from where the output starts), or nothing when unknown or already past. */
export function trimFilter(lengthSeconds: number | null | undefined, offsetMs: number | undefined): string[] {
  if (lengthSeconds === null || lengthSeconds === undefined) return [];
  const end = lengthSeconds - (offsetMs ?? 0) / 1000;
  return end > 0 ? ['-af', `atrim=end=${end.toFixed(9)}`] : [];
}

/**
 * The ffmpeg command line: the first audio stream only (no cover art, no tags), re-encoded, written to stdout; from
 * `offsetMs` on when it is given (`-ss` before the input: ffmpeg seeks the input, or decodes and drops up to there).
 */
export function ffmpegArgs(
  job: Pick<TranscodeJob, 'input' | 'format' | 'bitrate' | 'offsetMs' | 'lengthSeconds'>,
): string[] {
  const { codec, container } = CODECS[job.format];
  const seek = job.offsetMs === undefined || job.offsetMs === 0 ? [] : ['-ss', (job.offsetMs / 1000).toFixed(3)];
  const input = 'path' in job.input ? ['-nostdin', ...seek, '-i', job.input.path] : [...seek, '-i', 'pipe:0'];
  if (job.format === 'gapless') {
    const trim = trimFilter(job.lengthSeconds, job.offsetMs);
    return [
      '-hide_banner',
      '-loglevel',
      'error',
      ...input,
      '-map',
      '0:a:0',
      '-map_metadata',
      '-1',
      ...trim,
      ...GAPLESS_OUTPUT,
      'pipe:1',
    ];
  }
  return [
    ...['-hide_banner', '-loglevel', 'error', ...input],
    ...['-map', '0:a:0', '-map_metadata', '-1', '-c:a', codec, '-b:a', `${job.bitrate}k`, '-f', container, 'pipe:1'],
  ];
}

type State = 'running' | 'done' | 'failed';

/**
 * ffmpeg stopped by itself with an error (not killed by us, and it could start): it could not read or decode the
 * input. The file's fault, not the server's, so the answer is a refusal rather than a 500.
 */
export class FfmpegRefused extends Error {
  constructor(
    readonly exitCode: number | null,
    stderr: string,
  ) {
    super(`ffmpeg exited with ${exitCode}: ${stderr}`);
    this.name = 'FfmpegRefused';
  }
}

/**
 * One ffmpeg process writing a transcode to a temporary file, and the HTTP responses that follow it as it grows
 * (each reads the file from byte 0 at its own pace, so a late listener gets the whole stream too). Whoever streams or
 * waits `hold`s it; when the last holder lets go before the end, ffmpeg is killed (SIGTERM, then SIGKILL after the
 * grace) and the temporary file removed. `done` resolves once the whole output is on disk (fdatasync'ed), rejects when
 * ffmpeg fails or is killed.
 */
export class LiveTranscode {
  readonly done: Promise<void>;
  private state: State = 'running';
  private written = 0;
  private holders = 0;
  private fd: number | null = null;
  private readonly changes = new EventEmitter();
  private readonly child: ChildProcess;
  /** The exit code; rejects when the binary could not be started. */
  private readonly exit: Promise<number | null>;
  private stderrTail = '';
  private exited = false;
  private retired = false;
  private killed = false;
  private error: Error | null = null;

  constructor(private readonly job: TranscodeJob) {
    this.changes.setMaxListeners(0);
    const stdin = 'stream' in job.input ? 'pipe' : 'ignore';
    this.child = spawn(job.ffmpegPath, ffmpegArgs(job), { stdio: [stdin, 'pipe', 'pipe'], windowsHide: true });
    this.exit = exitOf(this.child);
    this.exit.catch(noop);
    this.child.once('exit', () => {
      this.exited = true;
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.done = this.run();
    this.done.catch(noop);
  }

  /** The ffmpeg process id (tests watch it go away). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Stopped because nobody wanted it any more (not a failure worth logging). */
  get wasKilled(): boolean {
    return this.killed;
  }

  /** Why it failed (a FfmpegRefused when ffmpeg refused the input), once it has; null before, or when it did not. */
  get failure(): Error | null {
    return this.error;
  }

  /** Keeps the transcode alive until the returned function is called (once is enough; more calls do nothing). */
  hold(): () => void {
    this.holders += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.holders -= 1;
      if (this.holders === 0 && this.state === 'running') this.kill();
    };
  }

  /**
   * Streams the whole transcode to `response` as it is made; `meter` counts it. `writeHead` is called once, just before
   * the first byte (or the end of an empty output): a transcode that fails before it leaves the response untouched,
   * and follow rejects with the failure (FfmpegRefused when ffmpeg refused the input) for the caller to answer. A
   * failure after it can only cut the response off.
   */
  async follow(response: ServerResponse, writeHead: () => void, meter?: Pick<StreamMeter, 'sent'>): Promise<void> {
    const release = this.hold();
    response.once('close', release);
    const answer = { started: false };
    const head = () => {
      if (answer.started) return;
      answer.started = true;
      writeHead();
    };
    try {
      await this.copyTo(response, head, meter);
    } catch (error) {
      if (!answer.started) throw error;
      response.destroy(error instanceof Error ? error : undefined);
    } finally {
      release();
      this.closeWhenIdle();
    }
  }

  private async copyTo(
    response: ServerResponse,
    head: () => void,
    meter: Pick<StreamMeter, 'sent'> | undefined,
  ): Promise<void> {
    let position = 0;
    while (!response.destroyed) {
      const fd = this.fd;
      if (fd !== null && position < this.written) {
        const buffer = Buffer.allocUnsafe(Math.min(FOLLOW_CHUNK_BYTES, this.written - position));
        const { bytesRead } = await readFile(fd, buffer, 0, buffer.length, position);
        position += bytesRead;
        head();
        const flowing = response.write(buffer.subarray(0, bytesRead));
        // Handed to the response (a cut-off client may miss the last chunk): the follower has no write callbacks.
        meter?.sent(bytesRead);
        if (!flowing) await drainedOrClosed(response);
      } else if (this.state === 'done') {
        head();
        response.end();
        return;
      } else if (this.state === 'failed') {
        throw this.error ?? new Error('transcode failed');
      } else {
        await this.nextChange(response);
      }
    }
  }

  private nextChange(response: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
      const settle = () => {
        this.changes.off('change', settle);
        response.off('close', settle);
        resolve();
      };
      this.changes.once('change', settle);
      response.once('close', settle);
    });
  }

  private async run(): Promise<void> {
    try {
      this.fd = await openFile(this.job.tempPath, 'wx+');
      const input = this.job.input;
      if ('stream' in input && this.child.stdin) pipeline(input.stream, this.child.stdin).catch(noop);
      if (!this.child.stdout) throw new Error('ffmpeg has no stdout');
      const [, code] = await Promise.all([pipeline(this.child.stdout, this.sink(this.fd)), this.exit]);
      if (code !== 0 && this.killed) throw new Error(`ffmpeg exited with ${code}: ${this.stderrTail.trim()}`);
      if (code !== 0) throw new FfmpegRefused(code, this.stderrTail.trim());
      await syncFile(this.fd);
      this.settle('done');
    } catch (error) {
      this.error = error instanceof Error ? error : new Error(String(error));
      this.settle('failed');
      this.child.stdout?.destroy();
      if (!this.exited) this.kill();
      await unlinkQuietly(this.job.tempPath);
      throw error;
    }
  }

  /** Appends ffmpeg's output to the file, and tells the followers after each write. */
  private sink(fd: number): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        writeFile(fd, chunk, 0, chunk.length, this.written).then(() => {
          this.written += chunk.length;
          this.changes.emit('change');
          callback();
        }, callback);
      },
    });
  }

  private settle(state: State): void {
    this.state = state;
    this.changes.emit('change');
  }

  /** Stops ffmpeg now (the app is closing, or nobody wants the transcode any more). */
  kill(): void {
    if (this.exited) return;
    this.killed = true;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), this.job.killGraceMs);
    timer.unref();
    this.child.once('exit', () => clearTimeout(timer));
  }

  /**
   * Says no new follower will come (the transcode is in the cache now, or failed, and its owner forgot it): the file
   * is closed once the last follower is done.
   */
  retire(): void {
    this.retired = true;
    this.closeWhenIdle();
  }

  private closeWhenIdle(): void {
    if (!this.retired || this.state === 'running' || this.holders > 0 || this.fd === null) return;
    close(this.fd, noop);
    this.fd = null;
  }
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve();
    };
    response.once('drain', settle);
    response.once('close', settle);
  });
}

function unlinkQuietly(file: string): Promise<void> {
  return new Promise((resolve) => {
    unlink(file, () => resolve());
  });
}
