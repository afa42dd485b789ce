import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MediaSource } from './media-source.js';
import { READ_HIGH_WATER_MARK } from '../storage/local-blob-store.js';
import { answerBlob } from './blob-response.js';
import { accelRedirectHeaders, type NginxOffload } from './nginx-offload.js';
import { meterPipe, type StreamMeter } from './media-meters.js';

export { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL, RANGE_NOT_SATISFIABLE_MESSAGE } from './blob-response.js';

/**
 * How the bytes are sent: from a file on this machine, from their media source (a blob store, which may be remote), or
 * by nginx, which sends the file at an internal URI (MEDIA_OFFLOAD=nginx, nginx-offload.ts).
 */
export type BlobSource = { path: string } | { source: MediaSource } | { accelRedirect: string };

/**
 * How a media source's bytes are sent: by nginx when the offload is on (stored blobs, and library files once `stat`
 * found them), else from its local file.
 */
export function sendingOf(source: MediaSource, offload: NginxOffload | null): BlobSource {
  const accelRedirect = offload?.uriOf(source) ?? null;
  if (accelRedirect !== null) return { accelRedirect };
  const path = source.localPath();
  return path === null ? { source } : { path };
}

export type SendBlobOptions = BlobSource & {
  /** The blob key; the default strong ETag is derived from it (keys are content hashes). */
  key: string;
  size: number;
  mtimeMs: number;
  mime: string;
  /** A quoted strong entity tag; defaults to `"<key>"`. */
  etag?: string;
  cacheControl: string;
  /** Told about the body when one is sent (audio downloads); none for images. */
  meter?: StreamMeter;
};

/**
 * Answers GET or HEAD for one immutable blob from a Fastify route (the download route; `/media` is served by the lean
 * handler in media-handler.ts), with the semantics of answerBlob: 304, 206/416, If-Range, HEAD. The body is streamed
 * from disk in 64 KiB reads, never buffered; Fastify destroys the file stream when the client goes away. Returns the
 * reply, so a handler can `return sendBlob(...)`. With an `accelRedirect` source the answer is empty and nginx sends
 * the file, Range and conditional requests included (headers set earlier, like Content-Disposition, are kept).
 */
export function sendBlob(request: FastifyRequest, reply: FastifyReply, options: SendBlobOptions): FastifyReply {
  if ('accelRedirect' in options) {
    return reply
      .code(200)
      .headers(accelRedirectHeaders(options.accelRedirect, options.mime, options.cacheControl))
      .send();
  }
  const answer = answerBlob(request.method, request.headers, {
    size: options.size,
    mtimeMs: options.mtimeMs,
    mime: options.mime,
    etag: options.etag ?? `"${options.key}"`,
    cacheControl: options.cacheControl,
  });
  reply.code(answer.status).headers(answer.headers);
  if (answer.body === null) return reply.send();
  if ('json' in answer.body) return reply.type('application/json; charset=utf-8').send(answer.body.json);
  if (options.meter !== undefined) meterPipe(options.meter, reply.raw);
  return reply.send(openBody(options, answer.body.start, answer.body.end));
}

/** The bytes of a blob Tonearm sends itself (any source but nginx's). */
function openBody(options: Exclude<SendBlobOptions, { accelRedirect: string }>, start: number, end: number) {
  if ('path' in options) return createReadStream(options.path, { start, end, highWaterMark: READ_HIGH_WATER_MARK });
  return options.source.open({ start, end });
}
