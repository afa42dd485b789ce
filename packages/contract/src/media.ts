import { z } from 'zod';

/** What `GET /media/audio/{key}?format=` may ask for (issue 12 §5): Opus in Ogg, or MP3. */
export const TRANSCODE_FORMATS = ['opus', 'mp3'] as const;
export type TranscodeFormat = (typeof TRANSCODE_FORMATS)[number];

/**
 * `?format=gapless` (issue 27): the web player's gapless stream, the song decoded by ffmpeg (encoder delay and padding
 * trimmed) and re-encoded as FLAC in fragmented MP4, which Media Source Extensions append back to back with no decoder
 * delay of their own (docs/design.md, "Gapless playback"). Lossless, so `bitrate` does not apply; not a Subsonic format.
 */
export const GAPLESS_FORMAT = 'gapless';
/** The MIME type the web player gives `MediaSource.addSourceBuffer` for a gapless stream. */
export const GAPLESS_MIME = 'audio/mp4; codecs="flac"';
/** What `?format=` of `/media/audio/{key}` takes: the transcode formats and the gapless stream. */
export type StreamFormat = TranscodeFormat | typeof GAPLESS_FORMAT;
/** `?offset=` (ms) of a gapless stream: where in the song it starts (a seek beyond what the player holds). */
export const GAPLESS_OFFSET_MAX_MS = 24 * 3600 * 1000;

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
  badOffset: `Offset must be a whole number of milliseconds from 0 to ${GAPLESS_OFFSET_MAX_MS}, with format=gapless`,
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
