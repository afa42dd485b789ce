import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobKind, BlobStore } from '../../storage/blob-store.js';
import { READ_HIGH_WATER_MARK } from '../../storage/local-blob-store.js';
import { answerBlob } from './blob-response.js';
import { meterPipe, type StreamMeter } from './media-meters.js';

export { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL, RANGE_NOT_SATISFIABLE_MESSAGE } from './blob-response.js';

/** Where the bytes come from: a file on this machine, or a blob store (which may be remote). */
export type BlobSource = { path: string } | { store: BlobStore; kind: BlobKind };

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
 * reply, so a handler can `return sendBlob(...)`.
 */
export function sendBlob(request: FastifyRequest, reply: FastifyReply, options: SendBlobOptions): FastifyReply {
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

function openBody(options: SendBlobOptions, start: number, end: number) {
  if ('path' in options) return createReadStream(options.path, { start, end, highWaterMark: READ_HIGH_WATER_MARK });
  return options.store.openRead(options.kind, options.key, { start, end });
}
