import {
  ErrorCodes,
  TRANSCODE_BITRATE_DEFAULT,
  TRANSCODE_BITRATE_MAX,
  TRANSCODE_BITRATE_MIN,
  TRANSCODE_FORMATS,
  TranscodeMessages,
  type TranscodeFormat,
} from '@tonearm/contract';
import { MediaError } from './media-error.js';

export interface TranscodeWish {
  format: TranscodeFormat;
  /** kbit/s */
  bitrate: number;
  /** Where in the audio the transcode starts, in ms (Subsonic's `timeOffset`); from the start when absent or 0. */
  offsetMs?: number;
}

/**
 * `?format=opus|mp3&bitrate=64..320` of an audio URL: null without `format` (the original file, and `bitrate` alone is
 * ignored, as any unknown parameter always was); a 400 for an unknown format or a bitrate that is not a whole number
 * in range. Each parameter may appear once.
 */
export function parseTranscodeQuery(query: string): TranscodeWish | null {
  if (query === '') return null;
  const params = new URLSearchParams(query);
  const formats = params.getAll('format');
  if (formats.length === 0) return null;
  const format = formats.length === 1 ? TRANSCODE_FORMATS.find((known) => known === formats[0]) : undefined;
  if (format === undefined) throw new MediaError(400, ErrorCodes.validation, TranscodeMessages.badFormat, 'format');
  return { format, bitrate: parseBitrate(params.getAll('bitrate')) };
}

function parseBitrate(values: string[]): number {
  if (values.length === 0) return TRANSCODE_BITRATE_DEFAULT;
  const value = values.length === 1 && /^\d{1,4}$/.test(values[0] ?? '') ? Number(values[0]) : Number.NaN;
  if (!(value >= TRANSCODE_BITRATE_MIN && value <= TRANSCODE_BITRATE_MAX)) {
    throw new MediaError(400, ErrorCodes.validation, TranscodeMessages.badBitrate, 'bitrate');
  }
  return value;
}
