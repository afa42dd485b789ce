import {
  ErrorCodes,
  GAPLESS_FORMAT,
  GAPLESS_OFFSET_MAX_MS,
  TRANSCODE_BITRATE_DEFAULT,
  TRANSCODE_BITRATE_MAX,
  TRANSCODE_BITRATE_MIN,
  TRANSCODE_FORMATS,
  TranscodeMessages,
  type StreamFormat,
} from '@tonearm/contract';
import { MediaError } from './media-error.js';

export interface TranscodeWish {
  format: StreamFormat;
  /** kbit/s */
  bitrate: number;
  /** Where in the audio the transcode starts, in ms (Subsonic's `timeOffset`); from the start when absent or 0. */
  offsetMs?: number;
}

/**
 * `?format=opus|mp3&bitrate=64..320`, or `?format=gapless[&offset=ms]`, of an audio URL: null without `format` (the original file, and `bitrate` alone is
 * ignored, as any unknown parameter always was); a 400 for an unknown format or a bitrate that is not a whole number
 * in range. Each parameter may appear once.
 */
export function parseTranscodeQuery(query: string): TranscodeWish | null {
  if (query === '') return null;
  const params = new URLSearchParams(query);
  const formats = params.getAll('format');
  if (formats.length === 0) return null;
  const known: readonly StreamFormat[] = [...TRANSCODE_FORMATS, GAPLESS_FORMAT];
  const format = formats.length === 1 ? known.find((name) => name === formats[0]) : undefined;
  if (format === undefined) throw new MediaError(400, ErrorCodes.validation, TranscodeMessages.badFormat, 'format');
  const offsets = params.getAll('offset');
  if (format !== GAPLESS_FORMAT) {
    if (offsets.length > 0) throw badOffset();
    return { format, bitrate: parseBitrate(params.getAll('bitrate')) };
  }
  // Lossless: one cache entry whatever bitrate was asked for.
  const offsetMs = parseOffset(offsets);
  return { format, bitrate: TRANSCODE_BITRATE_DEFAULT, ...(offsetMs > 0 ? { offsetMs } : {}) };
}

function parseOffset(values: string[]): number {
  if (values.length === 0) return 0;
  const value = values.length === 1 && /^\d{1,9}$/.test(values[0] ?? '') ? Number(values[0]) : Number.NaN;
  if (!(value >= 0 && value <= GAPLESS_OFFSET_MAX_MS)) throw badOffset();
  return value;
}

function badOffset(): MediaError {
  return new MediaError(400, ErrorCodes.validation, TranscodeMessages.badOffset, 'offset');
}

function parseBitrate(values: string[]): number {
  if (values.length === 0) return TRANSCODE_BITRATE_DEFAULT;
  const value = values.length === 1 && /^\d{1,4}$/.test(values[0] ?? '') ? Number(values[0]) : Number.NaN;
  if (!(value >= TRANSCODE_BITRATE_MIN && value <= TRANSCODE_BITRATE_MAX)) {
    throw new MediaError(400, ErrorCodes.validation, TranscodeMessages.badBitrate, 'bitrate');
  }
  return value;
}
