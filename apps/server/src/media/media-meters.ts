import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * What the media code reports about the audio bodies it sends, for the metrics (src/metrics, docs/operations.md).
 * One object made at start-up and called directly: plain sums in memory when metrics are on, nothing when off.
 */
export interface StreamMeter {
  /** An audio body starts; `ended` follows exactly once. */
  started(): void;
  /** `bytes` of an audio body were written to the connection. */
  sent(bytes: number): void;
  /** That body is over: sent whole, failed, or the client went away. */
  ended(): void;
}

/** How a transcode ended: into the cache, with an ffmpeg error, or stopped because nobody wanted it any more. */
export type TranscodeOutcome = 'finished' | 'failed' | 'cancelled';

/** What the transcoder reports, for the metrics. */
export interface TranscodeMeter {
  /** An ffmpeg process started; `ended` follows exactly once. */
  started(): void;
  ended(outcome: TranscodeOutcome): void;
  /** A new transcode was refused because every slot was taken (answered 503). */
  refused(): void;
}

/** What the offload gate (offload-gate.ts) reports: each request nginx asked it about, and where it sent nginx. */
export interface GateMeter {
  /** To the blob in nginx's internal location (nginx sends the bytes), or to `@tonearm`, Tonearm's HTTP server. */
  answered(to: 'file' | 'app'): void;
}

export interface MediaMeters {
  streams: StreamMeter;
  transcodes: TranscodeMeter;
  gate: GateMeter;
}

const ignore = (): void => undefined;

/** The meters when metrics are off. */
export const NO_MEDIA_METERS: MediaMeters = {
  streams: { started: ignore, sent: ignore, ended: ignore },
  transcodes: { started: ignore, ended: ignore, refused: ignore },
  gate: { answered: ignore },
};

/**
 * Meters the audio body that will be piped into `response` (a remote store's stream, a download through Fastify):
 * call before the pipe starts. A pipe reports no write completions, so what counts is what was handed to the response
 * (at most a chunk more than a client that went away got). The body ends with the response's `close`, which comes
 * after a finish and after an abort alike. The chunks are counted from the `pipe` event on, when the pipe's own reader
 * is attached: a reader of ours attached earlier would start the stream before anyone writes it anywhere.
 */
export function meterPipe(meter: StreamMeter, response: ServerResponse): void {
  meter.started();
  response.once('pipe', (source: Readable) => {
    source.on('data', (chunk: Buffer) => {
      meter.sent(chunk.length);
    });
  });
  response.once('close', () => {
    meter.ended();
  });
}
