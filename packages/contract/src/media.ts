import { z } from 'zod';

/** What `GET /media/audio/{key}?format=` may ask for (issue 12 §5): Opus in Ogg, or MP3. */
export const TRANSCODE_FORMATS = ['opus', 'mp3'] as const;
export type TranscodeFormat = (typeof TRANSCODE_FORMATS)[number];

/** `?bitrate=` in kbit/s, a whole number in this range; without it a transcode uses the default. */
export const TRANSCODE_BITRATE_MIN = 64;
export const TRANSCODE_BITRATE_MAX = 320;
export const TRANSCODE_BITRATE_DEFAULT = 128;

/** What the web player's "data saver" asks for. */
export const DATA_SAVER_FORMAT: TranscodeFormat = 'opus';
export const DATA_SAVER_BITRATE = 128;

export const TranscodeMessages = {
  badFormat: `Audio format must be one of ${TRANSCODE_FORMATS.join(', ')}`,
  badBitrate: `Bitrate must be a whole number of kbit/s from ${TRANSCODE_BITRATE_MIN} to ${TRANSCODE_BITRATE_MAX}`,
  busy: 'The server is converting as many songs as it can right now. Please try again in a few seconds.',
} as const;

/** `GET /api/media/capabilities`: what the server can do with audio beyond serving the original file. */
export const MediaCapabilities = z.object({
  /** ffmpeg was found at start-up: `?format=` converts; without it `?format=` serves the original file. */
  transcoding: z.boolean(),
  formats: z.array(z.enum(TRANSCODE_FORMATS)),
  bitrateMin: z.number().int(),
  bitrateMax: z.number().int(),
  bitrateDefault: z.number().int(),
});
export type MediaCapabilities = z.infer<typeof MediaCapabilities>;
