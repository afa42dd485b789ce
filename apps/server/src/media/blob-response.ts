import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCodes, type ErrorBody } from '@tonearm/contract';
import { contentRange, parseRange, unsatisfiedContentRange } from './range.js';

/** Audio keys are content hashes, so a key's bytes never change; private because audio needs a session. */
export const AUDIO_CACHE_CONTROL = 'private, max-age=31536000, immutable';
/** Images are public (covers, artist photos) and content-addressed too: any cache or CDN may keep them. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const RANGE_NOT_SATISFIABLE_MESSAGE = 'The requested range is outside the file';

/** One immutable blob as HTTP describes it. */
export interface BlobRepresentation {
  size: number;
  mtimeMs: number;
  mime: string;
  /** A quoted strong entity tag, e.g. `"<key>"`. */
  etag: string;
  cacheControl: string;
}

export type BlobHeaders = Record<string, string | number>;

/**
 * What to answer: the status and headers, and either no body (304, HEAD, an empty file), a JSON error (416), or the
 * inclusive byte range to stream.
 */
export type BlobAnswer =
  | { status: 200 | 206 | 304; headers: BlobHeaders; body: null }
  | { status: 416; headers: BlobHeaders; body: { json: ErrorBody } }
  | { status: 200 | 206; headers: BlobHeaders; body: { start: number; end: number } };

/**
 * The answer to GET or HEAD for one immutable blob, independent of the HTTP framework (the Fastify download route
 * and the lean media handler both use it, so they cannot drift apart): conditional requests (If-None-Match, else
 * If-Modified-Since → 304), single byte ranges (206, or 416 with `Content-Range: bytes *\/size`), If-Range (a range
 * only while the validator still matches).
 */
export function answerBlob(method: string, headers: IncomingHttpHeaders, blob: BlobRepresentation): BlobAnswer {
  const { size, mtimeMs, etag } = blob;
  const common: BlobHeaders = {
    'accept-ranges': 'bytes',
    etag,
    'last-modified': new Date(mtimeMs).toUTCString(),
    'cache-control': blob.cacheControl,
    // Uploaded bytes are never trusted to be what a browser might sniff them as.
    'x-content-type-options': 'nosniff',
  };

  if (isNotModified(headers, etag, mtimeMs)) return { status: 304, headers: common, body: null };

  let range = parseRange(singleHeader(headers, 'range'), size);
  if (range.kind !== 'full' && !ifRangeHolds(singleHeader(headers, 'if-range'), etag, mtimeMs)) {
    range = { kind: 'full' };
  }

  if (range.kind === 'unsatisfiable') {
    const json: ErrorBody = { error: { code: ErrorCodes.rangeNotSatisfiable, message: RANGE_NOT_SATISFIABLE_MESSAGE } };
    return {
      status: 416,
      // A cache keys on the URL, not the Range: a 416 must never be stored as the answer for this blob.
      headers: { ...common, 'cache-control': 'no-store', 'content-range': unsatisfiedContentRange(size) },
      body: { json },
    };
  }

  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  const status = range.kind === 'partial' ? 206 : 200;
  const answerHeaders: BlobHeaders = { ...common, 'content-type': blob.mime, 'content-length': end - start + 1 };
  if (status === 206) answerHeaders['content-range'] = contentRange(start, end, size);
  if (method === 'HEAD' || size === 0) return { status, headers: answerHeaders, body: null };
  return { status, headers: answerHeaders, body: { start, end } };
}

/** RFC 9110 §13.1.2/§13.1.3: If-None-Match (weak comparison) wins; If-Modified-Since only when it is absent. */
function isNotModified(headers: IncomingHttpHeaders, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = singleHeader(headers, 'if-none-match');
  if (ifNoneMatch !== undefined) {
    const wanted = opaqueTag(etag);
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaqueTag(tag.trim()) === wanted);
  }
  const ifModifiedSince = singleHeader(headers, 'if-modified-since');
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
function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** HTTP dates have whole seconds; a file's mtime has fractions. */
function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
