import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { libraryOfKey } from '../../media/library-keys.js';
import {
  ErrorCodes,
  MEDIA_AUDIO_PATH,
  MEDIA_IMAGES_PATH,
  ServerMessages,
  THUMBNAIL_WIDTHS,
  type ThumbnailWidth,
} from '@tonearm/contract';
import type { FastifyBaseLogger } from 'fastify';
import { generateRequestId } from '../../logger.js';
import { errorBody } from '../../plugins/error-handler.js';
import type { BlobKind } from '../../storage/blob-store.js';
import type { MediaSource, MediaSources } from '../../media/media-source.js';
import type { RawHandler } from '../../http/server-factory.js';
import { sessionTokenOf } from '../../http/session.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { answerBlob, AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL, type BlobHeaders } from '../../media/blob-response.js';
import { BufferPool, PUMP_CHUNK_BYTES, pumpFile } from './file-pump.js';
import { meterPipe, NO_MEDIA_METERS, type StreamMeter } from '../../media/media-meters.js';
import { OpenFiles } from './open-files.js';
import { ImageMessages, mimeForKey } from '../../media/media.formats.js';
import { accelRedirectHeaders, type NginxOffload } from '../../media/nginx-offload.js';
import { MediaError } from './media-error.js';
import { imageKeyFor } from '../../media/blob-keys.js';
import { parseTranscodeQuery, type TranscodeWish } from './transcode-query.js';
import { AudioNotConvertible, createTranscodeResponder, type ServedFile } from './transcode-response.js';
import type { Transcoder } from './transcoder.js';

export interface MediaHandler {
  handle: RawHandler;
  /**
   * GET or HEAD of one stored audio blob for a caller another entrance already let in (Subsonic's `stream`): exactly
   * what `/media/audio/<key>[?format=&bitrate=]` answers (conditional requests, Range 206/416, the transcoder or the
   * original without one), without the session cookie check. Failures are the app's JSON errors, as /media sends them,
   * except a conversion ffmpeg refuses, which `options.unconvertible` decides. Resolves once the answer has begun
   * (`options.beforeHead` has been called, always exactly once unless it rejects), or when the client went away.
   */
  serveAudio(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    key: string,
    wish: TranscodeWish | null,
    options?: ServeAudioOptions,
  ): Promise<void>;
  /**
   * What `/media` would hand to nginx for a request (MEDIA_OFFLOAD=nginx), decided without a response: the blob's
   * internal URI with its type and caching, or null whenever Tonearm must answer itself (a refusal, an unknown blob, a
   * transcode, another method or path, offload off, shutting down). The offload gate's question (offload-gate.ts).
   */
  handOver: (method: string, url: string, cookie: string | undefined) => HandOver | null | Promise<HandOver | null>;
  /** Closes the files it keeps open (once their readers are done); call when the app closes. */
  close(): void;
}

export interface ServeAudioOptions {
  /**
   * When ffmpeg cannot convert the audio (it cannot decode it) before the first byte: `error` (the default) answers
   * 415 AudioFileMessages.notConvertible as JSON; `original` sends the original file instead (for a client that plays
   * it too and only asked for a smaller stream); `reject` writes nothing and rejects with AudioNotConvertible, for the
   * caller to answer in its own protocol.
   */
  unconvertible?: 'error' | 'original' | 'reject';
  /**
   * Any refusal before the first byte (a MediaError: the blob is not there, every transcoding slot is taken, ffmpeg
   * cannot convert it): `json` (the default) answers it as /media does; `reject` writes nothing and rejects with it, for
   * the caller to answer in its own protocol.
   */
  refusals?: 'json' | 'reject';
  /** Called once, just before anything is written to the response (a Fastify route hijacks its reply there). */
  beforeHead?: () => void;
}

/** A blob nginx may send: its X-Accel-Redirect URI and the headers nginx keeps from the hand-over. */
export interface HandOver {
  uri: string;
  mime: string;
  cacheControl: string;
}

export interface MediaHandlerOptions {
  /** Where the bytes a /media URL names are (today every one a blob of the store). */
  sources: MediaSources;
  /** The app's session store: the same cache, so a logout in this process takes effect here at once. */
  sessions: Pick<SessionStore, 'resolveUserId' | 'cachedUserId'>;
  /** Headers every response of the app carries (helmet's, see plugins/security.ts). */
  securityHeaders: Readonly<Record<string, string>>;
  log: FastifyBaseLogger;
  /** While the app shuts down, requests are left to Fastify, which answers 503. */
  isClosing?: () => boolean;
  /** How long an open blob file is reused (OpenFiles); 10 s by default. */
  openFileTtlMs?: number;
  /** Answers `?format=` on audio; without it (no ffmpeg) such requests get the original file. */
  transcoder?: Transcoder | null;
  /** MEDIA_OFFLOAD=nginx: stored blobs and library files are handed to nginx by X-Accel-Redirect once access is checked. */
  offload?: NginxOffload | null;
  /** Told about every audio body sent (originals and transcodes, not images); nothing by default. */
  streams?: StreamMeter;
  /** S3_PRESIGN: a GET of original audio is answered 302 to a presigned URL when the store has them. */
  presign?: boolean;
  /** Who sees which library: a library file hidden from the user answers 404, like one that does not exist. */
  libraryAccess?: { userSees(userId: number, libraryId: number): Promise<boolean> } | null;
}

interface MediaRequest {
  kind: BlobKind;
  /** The URL segment after the prefix, still percent-encoded. */
  segment: string;
  query: string;
}

const AUDIO_PREFIX = MEDIA_AUDIO_PATH;
const IMAGE_PREFIX = MEDIA_IMAGES_PATH;
/** Free read buffers kept between requests (at most 16 MiB); more concurrent streams allocate and drop their own. */
const POOLED_BUFFERS = 64;
/** Blob files kept open at once (see OpenFiles). */
const OPEN_FILES_MAX = 256;
/** How long a presigned URL works: enough to start and seek through a long track, short if it leaks. */
export const PRESIGN_SECONDS = 15 * 60;

/**
 * `GET|HEAD /media/audio/:key` (session required) and `GET|HEAD /media/images/:key?w=64|300|640` (public), answered
 * straight on node:http before Fastify's router (DESIGN §6: audio bytes are the hot path). Per request: the session
 * cookie and the cached session check (audio only), the cached stat of the blob, answerBlob (the semantics the
 * download route shares: ETag, 304, If-Range, 206/416, HEAD), then the bytes from a shared open file through pooled
 * 256 KiB buffers (open-files.ts, file-pump.ts), stopping as soon as the client goes away. Errors are the app's JSON
 * errors: 401 without a session (before the key is looked at), 404 for an unknown or invalid key, 400 for a bad `w`.
 * Audio with `?format=` goes to the transcoder when there is one (transcode-response.ts; 400 for a bad format or
 * bitrate, after the session check), else gets the original. With MEDIA_OFFLOAD=nginx a stored blob or a library file
 * that passed these checks is answered with an empty X-Accel-Redirect instead, and nginx sends it (nginx-offload.ts); transcodes are
 * still sent from here. Anything else (other paths, other methods) is left to Fastify. Successful requests are logged
 * at debug level only: at info, two log lines per range request cost measurable throughput; failures are logged as
 * errors.
 */
export function createMediaHandler(options: MediaHandlerOptions): MediaHandler {
  const { sources, sessions, securityHeaders, log } = options;
  const buffers = new BufferPool(PUMP_CHUNK_BYTES, POOLED_BUFFERS);
  const files = new OpenFiles(OPEN_FILES_MAX, options.openFileTtlMs);
  const transcoder = options.transcoder ?? null;
  const offload = options.offload ?? null;
  const streams = options.streams ?? NO_MEDIA_METERS.streams;
  const presigning = options.presign === true;
  /** serveAudio's `beforeHead`, by response, until it is called. */
  const headHooks = new WeakMap<ServerResponse, () => void>();

  /** Runs the response's `beforeHead` hook, if it has one not yet run. Call before anything is written to it. */
  function beforeHead(response: ServerResponse): void {
    const hook = headHooks.get(response);
    if (hook === undefined) return;
    headHooks.delete(response);
    hook();
  }

  function respond(response: ServerResponse, requestId: string, status: number, headers: BlobHeaders): void {
    beforeHead(response);
    response.writeHead(status, { ...securityHeaders, ...headers, 'x-request-id': requestId });
  }

  function sendError(response: ServerResponse, requestId: string, error: MediaError): void {
    const body = JSON.stringify(errorBody(error.code, error.message, error.field));
    respond(response, requestId, error.status, {
      ...error.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  }

  function fail(request: IncomingMessage, response: ServerResponse, requestId: string, error: unknown): void {
    if (error instanceof MediaError) {
      sendError(response, requestId, error);
      return;
    }
    log.error({ err: error, reqId: requestId, url: request.url }, 'media request failed');
    beforeHead(response);
    if (response.headersSent) response.destroy();
    else sendError(response, requestId, new MediaError(500, ErrorCodes.internal, ServerMessages.internalError));
  }

  async function serve(request: IncomingMessage, response: ServerResponse, media: MediaRequest, requestId: string) {
    const blobKey = media.kind === 'audio' ? await audioKeyOf(request.headers.cookie, media) : imageKeyOf(media);
    const wish = media.kind === 'audio' ? parseTranscodeQuery(media.query) : null;
    await serveBlob(request, response, requestId, { kind: media.kind, key: blobKey, wish });
  }

  /**
   * One blob (a transcode of it when `wish` says so and there is a transcoder; the original instead, with
   * `orOriginal`, when ffmpeg cannot convert it); 404 when it is not stored.
   */
  async function serveBlob(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    blob: { kind: BlobKind; key: string | null; wish: TranscodeWish | null; orOriginal?: boolean },
  ) {
    const { kind, key: blobKey, wish } = blob;
    const source = blobKey === null ? null : sources.byKey(kind, blobKey);
    const stat = source === null ? null : await source.statCached();
    if (blobKey === null || source === null || stat === null) {
      throw new MediaError(404, ErrorCodes.notFound, ServerMessages.notFound);
    }
    if (wish !== null && transcodes !== null) {
      try {
        await transcodes(request, response, requestId, { key: blobKey, ...wish });
        return;
      } catch (error) {
        if (!(error instanceof AudioNotConvertible && blob.orOriginal === true && !response.headersSent)) throw error;
        log.warn({ reqId: requestId, key: blobKey, format: wish.format }, 'not convertible: sending the original');
      }
      if (response.destroyed) return;
    }
    const cacheControl = cacheControlOf(kind);
    // nginx answers Range and conditional requests from the file itself, so the request goes to it untouched.
    const accel = offload?.uriOf(source) ?? null;
    if (accel !== null) {
      // Without the security headers: nginx adds them to what it sends (accelRedirectHeaders).
      beforeHead(response);
      response.writeHead(200, {
        ...accelRedirectHeaders(accel, mimeForKey(blobKey), cacheControl),
        'x-request-id': requestId,
      });
      response.end();
      return;
    }
    // Audio only: images are small, public and cached as they are, where a redirect would cost a round trip each time.
    if (presigning && source.presign !== undefined && kind === 'audio' && request.method === 'GET') {
      await redirectToPresigned(response, requestId, blobKey, source.presign);
      return;
    }
    answerFile(request, response, requestId, {
      source,
      stat,
      mime: mimeForKey(blobKey),
      etag: `"${blobKey}"`,
      cacheControl,
      onGone: () => {
        source.forget();
      },
    });
  }

  /** 302 to a signed URL of the bucket, which then answers GET and Range itself (HEAD stays here: URLs sign one method). */
  async function redirectToPresigned(
    response: ServerResponse,
    requestId: string,
    key: string,
    signed: NonNullable<MediaSource['presign']>,
  ) {
    const url = await signed({
      expiresInSeconds: PRESIGN_SECONDS,
      contentType: mimeForKey(key),
      cacheControl: AUDIO_CACHE_CONTROL,
    });
    // The redirect itself must not be cached: the URL it names stops working.
    respond(response, requestId, 302, { location: url, 'cache-control': 'no-store', 'content-length': 0 });
    response.end();
  }

  /** GET or HEAD of one immutable file, with the semantics of answerBlob (304, 206/416, If-Range). */
  function answerFile(request: IncomingMessage, response: ServerResponse, requestId: string, file: ServedFile): void {
    const answer = answerBlob(request.method ?? 'GET', request.headers, {
      size: file.stat.size,
      mtimeMs: file.stat.mtimeMs,
      mime: file.mime,
      etag: file.etag,
      cacheControl: file.cacheControl,
    });
    if (answer.body === null) {
      respond(response, requestId, answer.status, answer.headers);
      response.end();
    } else if ('json' in answer.body) {
      const body = JSON.stringify(answer.body.json);
      respond(response, requestId, answer.status, {
        ...answer.headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    } else {
      streamFile(request, response, requestId, { ...file, range: answer.body }, () => {
        respond(response, requestId, answer.status, answer.headers);
      });
    }
  }

  async function audioKeyOf(cookie: string | undefined, media: MediaRequest): Promise<string | null> {
    const token = sessionTokenOf(cookie);
    const userId = token === undefined ? null : await sessions.resolveUserId(token);
    if (userId === null) throw new MediaError(401, ErrorCodes.unauthorized, ServerMessages.notAuthenticated);
    const key = decodeSegment(media.segment);
    const libraryId = key === null ? null : libraryOfKey(key);
    if (libraryId === null || !options.libraryAccess) return key;
    return (await options.libraryAccess.userSees(userId, libraryId)) ? key : null;
  }

  /**
   * Opens the file (or reuses it, see OpenFiles) before the status line is written, so a blob deleted by another
   * process since it was cached is still an honest 404 (and is forgotten), not a 200 that breaks off.
   */
  function streamFile(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    file: ServedFile & { range: { start: number; end: number } },
    writeHead: () => void,
  ): void {
    const { source, range } = file;
    const path = 'path' in source ? source.path : source.localPath();
    if (path !== null) {
      pumpLocal(request, response, requestId, { ...file, path }, writeHead);
    } else if ('kind' in source) {
      if (source.kind === 'audio') meterPipe(streams, response);
      sendRemote(request, response, requestId, { ...file, body: source.open(range) }, writeHead);
    }
  }

  /** Audio bodies are metered, images not: a source by path is a finished transcode, so audio too. */
  function isAudio(source: ServedFile['source']): boolean {
    return !('kind' in source) || source.kind === 'audio';
  }

  function pumpLocal(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    file: ServedFile & { range: { start: number; end: number }; path: string },
    writeHead: () => void,
  ): void {
    files.acquire(
      file.path,
      file.stat,
      (opened) => {
        writeHead();
        const meter = isAudio(file.source) ? streams : NO_MEDIA_METERS.streams;
        meter.started();
        pumpFile(opened.fd, response, file.range, buffers, meter, (error) => {
          meter.ended();
          files.release(opened);
          if (error) streamFailed(request, response, requestId, error);
        });
      },
      (error) => {
        if (error.code === 'ENOENT') file.onGone();
        fail(request, response, requestId, notFoundOr(error));
      },
    );
  }

  /** The headers are out: all that can be done is to log and cut the response off, so the client sees it broke. */
  function streamFailed(request: IncomingMessage, response: ServerResponse, requestId: string, error: Error): void {
    log.error({ err: error, reqId: requestId, url: request.url }, 'media stream failed');
    response.destroy(error);
  }

  /**
   * A remote store's stream: the status line waits for its first bytes, so a blob deleted elsewhere since it was
   * cached is an honest 404 (and is forgotten); then piped, closed when the client goes away, cut off when it fails.
   */
  function sendRemote(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    file: ServedFile & { body: Readable },
    writeHead: () => void,
  ): void {
    const { body } = file;
    let started = false;
    body.on('error', (error: NodeJS.ErrnoException) => {
      if (started) {
        streamFailed(request, response, requestId, error);
        return;
      }
      if (error.code === 'ENOENT') file.onGone();
      fail(request, response, requestId, notFoundOr(error));
    });
    response.once('close', () => body.destroy());
    body.once('readable', () => {
      started = true;
      writeHead();
      body.pipe(response);
    });
  }

  const transcodes =
    transcoder === null
      ? null
      : createTranscodeResponder({ transcoder, sources, answerFile, respond: respondLive, streams });

  function respondLive(response: ServerResponse, requestId: string, headers: BlobHeaders): void {
    respond(response, requestId, 200, headers);
  }

  function handOver(
    method: string,
    url: string,
    cookie: string | undefined,
  ): HandOver | null | Promise<HandOver | null> {
    if (offload === null || (method !== 'GET' && method !== 'HEAD') || options.isClosing?.() === true) return null;
    const media = matchMediaUrl(url);
    if (media === null) return null;
    try {
      const key = media.kind === 'audio' ? decodeSegment(media.segment) : imageKeyOf(media);
      const transcode = media.kind === 'audio' && transcoder !== null && parseTranscodeQuery(media.query) !== null;
      const token = media.kind === 'audio' ? sessionTokenOf(cookie) : null;
      if (key === null || transcode || token === undefined) return null;
      // From memory when it can: after a stream's first request, its Range requests find the session and blob there.
      const userId = token === null ? 0 : sessions.cachedUserId(token);
      const source = sources.byKey(media.kind, key);
      // A blob of the store is sent by its key; a library file only once its stat found it, which nothing remembers.
      const stat = source.rememberedStat();
      // A library file is handed over only once its library is known to be seen by the user (lookedUp asks).
      const library = media.kind === 'audio' ? libraryOfKey(key) : null;
      if (userId !== undefined && stat !== undefined && library === null) return handOverOf(offload, source, userId);
      return lookedUp(offload, source, token);
    } catch (error) {
      // A refusal (400 for a bad width or format): Tonearm answers it, with its JSON error.
      if (error instanceof MediaError) return null;
      throw error;
    }
  }

  /** handOver once the database and the disk have answered what memory did not know. */
  async function lookedUp(to: NginxOffload, source: MediaSource, token: string | null) {
    const userId = token === null ? 0 : await sessions.resolveUserId(token);
    const library = source.kind === 'audio' ? libraryOfKey(source.key) : null;
    // A library hidden from the user: Tonearm answers it (404), nothing is handed to nginx.
    if (userId !== null && library !== null && options.libraryAccess) {
      if (!(await options.libraryAccess.userSees(userId, library))) return null;
    }
    const stat = userId === null ? null : await source.statCached();
    return stat === null ? null : handOverOf(to, source, userId);
  }

  /**
   * The hand-over of a stored blob or a found library file to a caller who may have it (a user id, or 0 for public
   * images); null for none.
   */
  function handOverOf(to: NginxOffload, source: MediaSource, userId: number | null): HandOver | null {
    const uri = userId === null ? null : to.uriOf(source);
    return uri === null ? null : { uri, mime: mimeForKey(source.key), cacheControl: cacheControlOf(source.kind) };
  }

  const handle: RawHandler = (request, response) => {
    const url = request.url;
    if (!url?.startsWith('/media/')) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const media = matchMediaUrl(url);
    if (media === null || options.isClosing?.() === true) return false;
    const requestId = generateRequestId();
    const started = log.level === 'debug' || log.level === 'trace' ? performance.now() : 0;
    if (started !== 0) {
      response.once('finish', () => {
        log.debug(
          { reqId: requestId, method: request.method, url, statusCode: response.statusCode },
          `media request completed in ${(performance.now() - started).toFixed(1)} ms`,
        );
      });
    }
    serve(request, response, media, requestId).catch((error: unknown) => {
      fail(request, response, requestId, error);
    });
    return true;
  };
  return {
    handle,
    serveAudio: (request, response, requestId, key, wish, audioOptions = {}) => {
      const { unconvertible = 'error', refusals = 'json', beforeHead: hook } = audioOptions;
      return new Promise<void>((resolve, reject) => {
        headHooks.set(response, () => {
          hook?.();
          resolve();
        });
        const blob = { kind: 'audio' as const, key, wish, orOriginal: unconvertible === 'original' };
        serveBlob(request, response, requestId, blob).then(
          () => {
            // Ended without a word (the client went away first): the hook still runs, once.
            beforeHead(response);
          },
          (error: unknown) => {
            const refused =
              error instanceof MediaError &&
              (refusals === 'reject' || (unconvertible === 'reject' && error instanceof AudioNotConvertible));
            if (refused && !response.headersSent) {
              headHooks.delete(response);
              reject(error);
              return;
            }
            fail(request, response, requestId, error);
          },
        );
      });
    },
    handOver,
    close: () => {
      files.closeAll();
      transcoder?.close();
    },
  };
}

function cacheControlOf(kind: BlobKind): string {
  return kind === 'audio' ? AUDIO_CACHE_CONTROL : IMAGE_CACHE_CONTROL;
}

/** `/media/audio/<key>` or `/media/images/<key>`, optionally with a trailing slash (Fastify's ignoreTrailingSlash). */
function matchMediaUrl(url: string): MediaRequest | null {
  const kind: BlobKind | null = url.startsWith(AUDIO_PREFIX) ? 'audio' : url.startsWith(IMAGE_PREFIX) ? 'image' : null;
  if (kind === null) return null;
  const rest = url.slice(kind === 'audio' ? AUDIO_PREFIX.length : IMAGE_PREFIX.length);
  const queryAt = rest.indexOf('?');
  let segment = queryAt === -1 ? rest : rest.slice(0, queryAt);
  if (segment.endsWith('/')) segment = segment.slice(0, -1);
  if (segment === '' || segment.includes('/')) return null;
  return { kind, segment, query: queryAt === -1 ? '' : rest.slice(queryAt + 1) };
}

/** The key as the router would decode it; a malformed escape names no blob. */
function decodeSegment(segment: string): string | null {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The thumbnail's blob key for `?w=` (one of the thumbnail widths; none means the default), or null. */
function imageKeyOf(media: MediaRequest): string | null {
  const width = parseWidth(media.query);
  const key = decodeSegment(media.segment);
  return key === null ? null : imageKeyFor(key, width);
}

function parseWidth(query: string): ThumbnailWidth | undefined {
  if (query === '') return undefined;
  const values = new URLSearchParams(query).getAll('w');
  if (values.length === 0) return undefined;
  const width = values.length === 1 ? THUMBNAIL_WIDTHS.find((candidate) => String(candidate) === values[0]) : undefined;
  if (width === undefined) throw new MediaError(400, ErrorCodes.validation, ImageMessages.badWidth, 'w');
  return width;
}

function notFoundOr(error: NodeJS.ErrnoException): Error {
  return error.code === 'ENOENT' ? new MediaError(404, ErrorCodes.notFound, ServerMessages.notFound) : error;
}
