import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes, type ErrorBody } from '@tonearm/contract';
import type { BlobKind, BlobStore } from '../../storage/blob-store.js';
import { READ_HIGH_WATER_MARK } from '../../storage/local-blob-store.js';
import { contentRange, parseRange, unsatisfiedContentRange } from './range.js';

/** Audio keys are content hashes, so a key's bytes never change; private because audio needs a session. */
export const AUDIO_CACHE_CONTROL = 'private, max-age=31536000, immutable';
/** Images are public (covers, artist photos) and content-addressed too: any cache or CDN may keep them. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const RANGE_NOT_SATISFIABLE_MESSAGE = 'The requested range is outside the file';

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
};

/**
 * Answers GET or HEAD for one immutable blob: conditional requests (If-None-Match, If-Modified-Since → 304), single
 * byte ranges (206, or 416 with `Content-Range: bytes *\/size`), If-Range (a range only when the validator still
 * matches), and the body streamed straight from disk in 64 KiB reads, never buffered. Fastify destroys the file
 * stream when the client goes away. Returns the reply, so a handler can `return sendBlob(...)`.
 */
export function sendBlob(request: FastifyRequest, reply: FastifyReply, options: SendBlobOptions): FastifyReply {
  const { size, mtimeMs } = options;
  const etag = options.etag ?? `"${options.key}"`;
  const lastModified = new Date(mtimeMs).toUTCString();
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', lastModified)
    .header('cache-control', options.cacheControl)
    // Uploaded bytes are never trusted to be what a browser might sniff them as.
    .header('x-content-type-options', 'nosniff');

  if (isNotModified(request, etag, mtimeMs)) return reply.code(304).send();

  let range = parseRange(singleHeader(request, 'range'), size);
  if (range.kind !== 'full' && !ifRangeHolds(singleHeader(request, 'if-range'), etag, mtimeMs))
    range = { kind: 'full' };

  if (range.kind === 'unsatisfiable') {
    const body: ErrorBody = { error: { code: ErrorCodes.rangeNotSatisfiable, message: RANGE_NOT_SATISFIABLE_MESSAGE } };
    // A cache keys on the URL, not the Range: a 416 must never be stored as the answer for this blob.
    return reply
      .code(416)
      .header('cache-control', 'no-store')
      .header('content-range', unsatisfiedContentRange(size))
      .type('application/json; charset=utf-8')
      .send(body);
  }

  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  reply.header('content-type', options.mime).header('content-length', end - start + 1);
  if (range.kind === 'partial') reply.code(206).header('content-range', contentRange(start, end, size));
  else reply.code(200);

  if (request.method === 'HEAD' || size === 0) return reply.send();
  return reply.send(openBody(options, start, end));
}

function openBody(options: SendBlobOptions, start: number, end: number) {
  if ('path' in options) return createReadStream(options.path, { start, end, highWaterMark: READ_HIGH_WATER_MARK });
  return options.store.openRead(options.kind, options.key, { start, end });
}

/** RFC 9110 §13.1.2/§13.1.3: If-None-Match (weak comparison) wins; If-Modified-Since only when it is absent. */
function isNotModified(request: FastifyRequest, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = singleHeader(request, 'if-none-match');
  if (ifNoneMatch !== undefined) {
    const wanted = opaqueTag(etag);
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaqueTag(tag.trim()) === wanted);
  }
  const ifModifiedSince = singleHeader(request, 'if-modified-since');
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && wholeSeconds(mtimeMs) <= since;
}

/** RFC 9110 §13.1.5: the range applies only if the entity tag matches strongly, or the date equals Last-Modified. */
function ifRangeHolds(ifRange: string | undefined, etag: string, mtimeMs: number): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag && !etag.startsWith('W/');
  return Date.parse(value) === wholeSeconds(mtimeMs);
}

/** A header sent once; Node joins repeated list headers, and a repeated Range is ignored like a malformed one. */
function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** HTTP dates have whole seconds; a file's mtime has fractions. */
function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
