import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { AudioFileMessages, ErrorCodes, GAPLESS_FORMAT, TranscodeMessages } from '@tonearm/contract';
import type { BlobStat } from '../../storage/blob-store.js';
import type { MediaSource, MediaSources } from '../../media/media-source.js';
import { AUDIO_CACHE_CONTROL, type BlobHeaders } from '../../media/blob-response.js';
import { FfmpegRefused, type TranscodeJob } from './live-transcode.js';
import type { StreamMeter } from '../../media/media-meters.js';
import { mimeForKey } from '../../media/media.formats.js';
import { readMp4AudioSeconds } from './mp4-length.js';
import { MediaError } from './media-error.js';
import { parseRange } from '../../media/range.js';
import { transcodeName, type TranscodeTarget, type Transcoder } from './transcoder.js';

/** One immutable file to answer GET or HEAD for: a stored blob, or a finished transcode in the cache. */
export interface ServedFile {
  source: MediaSource | { path: string };
  stat: BlobStat;
  mime: string;
  /** A quoted strong entity tag. */
  etag: string;
  cacheControl: string;
  /** The file was not there any more: forget what said it was. */
  onGone: () => void;
}

export type TranscodeResponder = (
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  target: TranscodeTarget,
) => Promise<void>;

export interface TranscodeResponderDeps {
  transcoder: Transcoder;
  sources: MediaSources;
  /** The handler's answer for a finished file (answerBlob semantics, the bytes from a shared open file). */
  answerFile: (request: IncomingMessage, response: ServerResponse, requestId: string, file: ServedFile) => void;
  /** Writes a 200 head with the app's headers. */
  respond: (response: ServerResponse, requestId: string, headers: BlobHeaders) => void;
  /** Told about each live stream of a transcode as it is made (finished ones go through answerFile). */
  streams: StreamMeter;
}

/** Clients wait this long, then try again, when every transcoding slot is taken. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * ffmpeg could not convert the stored audio (it cannot decode it; a file stored before the upload's decode check, or
 * one only ffmpeg refuses): 415, since the client asked for a conversion of a file that cannot have one. Answered
 * before any byte of the conversion; nothing of it is cached, and the original stays as it was.
 */
export class AudioNotConvertible extends MediaError {
  constructor() {
    super(415, ErrorCodes.unsupportedMediaType, AudioFileMessages.notConvertible);
    this.name = 'AudioNotConvertible';
  }
}

/**
 * Answers `?format=` for one audio blob (docs/design.md, "Transcoding"):
 * - finished and cached: like any file (ETag, 304, Range 206/416, HEAD);
 * - HEAD while not cached: 200 with the type and no length, without starting ffmpeg;
 * - no Range, or `bytes=0-`: the transcode as ffmpeg makes it (started now, or joined from its first byte), 200
 *   without Content-Length and not to be stored by caches (`no-store`: the cached file gets the real validators);
 * - any other Range (a later start, a bounded or a suffix range): waits until the transcode is in the cache, then
 *   answers it exactly (206 or 416);
 * - a new transcode while all slots are busy: 503 with Retry-After;
 * - a transcode ffmpeg refuses (it cannot decode the file) before its first byte: AudioNotConvertible (415), which the
 *   caller may answer with the original instead. One that fails later can only be cut off.
 */
export function createTranscodeResponder(deps: TranscodeResponderDeps): TranscodeResponder {
  const { transcoder, sources, answerFile, respond, streams } = deps;

  function answerCached(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    target: TranscodeTarget,
  ) {
    const cached = transcoder.cached(target);
    if (cached === null) return false;
    answerFile(request, response, requestId, {
      source: { path: cached.path },
      stat: cached.stat,
      mime: mimeOf(target),
      etag: `"${transcodeName(target)}"`,
      cacheControl: AUDIO_CACHE_CONTROL,
      onGone: () => {
        transcoder.forget(target);
      },
    });
    return true;
  }

  return async (request, response, requestId, target) => {
    if (answerCached(request, response, requestId, target)) return;
    if (request.method === 'HEAD') {
      respond(response, requestId, liveHeaders(target));
      response.end();
      return;
    }
    const source = sources.byKey('audio', target.key);
    const lengthSeconds = await gaplessLength(target, source);
    const running = transcoder.runningFor(target) ?? transcoder.start(target, inputOf(source), lengthSeconds);
    if (running === null) throw busy();
    if (wantsLiveStream(request.headers)) {
      const stream = { started: false };
      const writeHead = () => {
        respond(response, requestId, liveHeaders(target));
        streams.started();
        stream.started = true;
      };
      try {
        await running.live.follow(response, writeHead, streams);
      } catch (error) {
        throw refusalOr(error);
      } finally {
        if (stream.started) streams.ended();
      }
      return;
    }
    const release = running.live.hold();
    response.once('close', release);
    const finished = await running.finished;
    release();
    if (response.destroyed) return;
    if (finished === null) throw refusalOr(running.live.failure ?? new Error('transcode failed'));
    if (!answerCached(request, response, requestId, target)) throw new Error('transcode failed');
  };
}

/** The gapless stream is FLAC in MP4 (`.gapless` is no file type); the others by their name's suffix. */
function mimeOf(target: TranscodeTarget): string {
  return target.format === GAPLESS_FORMAT ? 'audio/mp4' : mimeForKey(transcodeName(target));
}

const MP4_KEY = /\.(m4a|m4b|mp4)$/;

/**
 * An MP4's real length (its gapless info) for the gapless stream to end on: ffmpeg keeps an AAC track's padding. Only
 * for a file on this disk (a remote store's stream is read once, by ffmpeg); unreadable info means no trim.
 */
async function gaplessLength(target: TranscodeTarget, source: MediaSource): Promise<number | null> {
  const path = target.format === GAPLESS_FORMAT && MP4_KEY.test(target.key) ? source.localPath() : null;
  return path === null ? null : readMp4AudioSeconds(path).catch(() => null);
}

function liveHeaders(target: TranscodeTarget): BlobHeaders {
  return {
    'content-type': mimeOf(target),
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

/** No Range, one from byte 0 to the end, or one this server ignores (malformed, several ranges). */
function wantsLiveStream(headers: IncomingHttpHeaders): boolean {
  const unknownSize = Number.MAX_SAFE_INTEGER;
  const range = parseRange(typeof headers.range === 'string' ? headers.range : undefined, unknownSize);
  return range.kind === 'full' || (range.kind === 'partial' && range.start === 0 && range.end === unknownSize - 1);
}

function inputOf(source: MediaSource): TranscodeJob['input'] {
  const path = source.localPath();
  return path === null ? { stream: source.open() } : { path };
}

/** ffmpeg's refusal of the input as the client's answer; any other failure (the server's) as it is. */
function refusalOr(error: unknown): unknown {
  return error instanceof FfmpegRefused ? new AudioNotConvertible() : error;
}

function busy(): MediaError {
  return new MediaError(503, ErrorCodes.serverBusy, TranscodeMessages.busy, undefined, {
    'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
  });
}
