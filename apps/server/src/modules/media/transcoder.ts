import { unlink } from 'node:fs/promises';
import type { StreamFormat } from '@tonearm/contract';
import type { FastifyBaseLogger } from 'fastify';
import { LiveTranscode, type TranscodeJob } from './live-transcode.js';
import { NO_MEDIA_METERS, type TranscodeMeter } from '../../media/media-meters.js';
import type { CachedTranscode, TranscodeCache } from './transcode-cache.js';

/** One transcode of one stored audio blob: the cache key. */
export interface TranscodeTarget {
  key: string;
  format: StreamFormat;
  /** kbit/s */
  bitrate: number;
  /** Where it starts in the audio, in ms (Subsonic's `timeOffset`); from the start when absent or 0. */
  offsetMs?: number | undefined;
}

/** A transcode under way, and what it becomes: its cache entry, or null when it failed or was killed. */
export interface RunningTranscode {
  readonly live: LiveTranscode;
  readonly finished: Promise<CachedTranscode | null>;
}

export interface TranscoderOptions {
  ffmpegPath: string;
  cache: TranscodeCache;
  /** ffmpeg processes at once. */
  concurrency: number;
  killGraceMs: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Told when a transcode starts, ends or is refused; nothing by default. */
  meter?: TranscodeMeter;
}

/**
 * The cache entry's file name: `<audio key>.<bitrate>k.<format>`, or `<audio key>.<bitrate>k.at<offset>ms.<format>`
 * for one that starts later (audio keys are [a-z0-9._-], safe on any disk).
 */
export function transcodeName(target: TranscodeTarget): string {
  const start = target.offsetMs === undefined || target.offsetMs === 0 ? '' : `.at${String(target.offsetMs)}ms`;
  return `${target.key}.${target.bitrate}k${start}.${target.format}`;
}

/**
 * The transcodes of the process: finished ones from the disk cache, running ones shared by every request for the same
 * target, at most `concurrency` ffmpeg processes at once (start answers null beyond that).
 */
export class Transcoder {
  private readonly running = new Map<string, RunningTranscode>();
  private readonly meter: TranscodeMeter;

  constructor(private readonly options: TranscoderOptions) {
    this.meter = options.meter ?? NO_MEDIA_METERS.transcodes;
  }

  cached(target: TranscodeTarget): CachedTranscode | null {
    return this.options.cache.lookup(transcodeName(target));
  }

  /** Drops a cache entry whose file has gone. */
  forget(target: TranscodeTarget): void {
    this.options.cache.forget(transcodeName(target));
  }

  /** The transcode of `target` under way, if any. */
  runningFor(target: TranscodeTarget): RunningTranscode | null {
    return this.running.get(transcodeName(target)) ?? null;
  }

  /** Starts transcoding `target` from `input`; null when `concurrency` transcodes are already running. */
  start(
    target: TranscodeTarget,
    input: TranscodeJob['input'],
    lengthSeconds: number | null = null,
  ): RunningTranscode | null {
    if (this.running.size >= this.options.concurrency) {
      if ('stream' in input) input.stream.destroy();
      this.meter.refused();
      return null;
    }
    const name = transcodeName(target);
    const { ffmpegPath, cache, killGraceMs } = this.options;
    const tempPath = cache.tempPathFor(name);
    const live = new LiveTranscode({
      ffmpegPath,
      input,
      format: target.format,
      bitrate: target.bitrate,
      offsetMs: target.offsetMs ?? 0,
      lengthSeconds,
      tempPath,
      killGraceMs,
    });
    this.meter.started();
    const entry: RunningTranscode = { live, finished: this.settle(name, live, tempPath) };
    this.running.set(name, entry);
    return entry;
  }

  /** ffmpeg processes running now. */
  get activeCount(): number {
    return this.running.size;
  }

  /** Kills every running ffmpeg (the app is closing). */
  close(): void {
    for (const { live } of this.running.values()) live.kill();
  }

  private async settle(name: string, live: LiveTranscode, tempPath: string): Promise<CachedTranscode | null> {
    try {
      await live.done;
      await this.options.cache.add(name, tempPath);
      this.meter.ended('finished');
      return this.options.cache.lookup(name);
    } catch (error) {
      this.meter.ended(live.wasKilled ? 'cancelled' : 'failed');
      if (!live.wasKilled) this.options.log.warn({ err: error, transcode: name }, 'transcode failed');
      await unlink(tempPath).catch(() => undefined);
      return null;
    } finally {
      this.running.delete(name);
      live.retire();
    }
  }
}
