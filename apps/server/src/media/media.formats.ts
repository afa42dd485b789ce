import {
  AUDIO_MAX_BYTES,
  IMAGE_MAX_BYTES,
  LimitMessages,
  THUMBNAIL_WIDTHS,
  type ThumbnailWidth,
} from '@tonearm/contract';

/** How an accepted upload is stored and served: the key suffix and the Content-Type. */
export interface MediaFormat {
  ext: string;
  mime: string;
}

const MP3: MediaFormat = { ext: 'mp3', mime: 'audio/mpeg' };
const FLAC: MediaFormat = { ext: 'flac', mime: 'audio/flac' };
const OGG: MediaFormat = { ext: 'ogg', mime: 'audio/ogg' };
// Opus lives in an Ogg container; `audio/ogg` is the type every browser's <audio> plays it under.
const OPUS: MediaFormat = { ext: 'opus', mime: 'audio/ogg' };
const M4A: MediaFormat = { ext: 'm4a', mime: 'audio/mp4' };
const AAC: MediaFormat = { ext: 'aac', mime: 'audio/aac' };
const WAV: MediaFormat = { ext: 'wav', mime: 'audio/wav' };
const JPEG: MediaFormat = { ext: 'jpg', mime: 'image/jpeg' };
const PNG: MediaFormat = { ext: 'png', mime: 'image/png' };
const WEBP: MediaFormat = { ext: 'webp', mime: 'image/webp' };

/**
 * Accepted audio, by the extension `file-type` detects from the magic bytes. `oga` is FLAC in Ogg, `m4b` AAC with
 * chapters; both play in browsers. A generic `mp4` is accepted only when it holds audio and no video (checked with
 * music-metadata), since phones record voice memos that way.
 */
export const AUDIO_FORMATS: Readonly<Record<string, MediaFormat>> = {
  mp3: MP3,
  flac: FLAC,
  ogg: OGG,
  oga: OGG,
  opus: OPUS,
  m4a: M4A,
  m4b: M4A,
  aac: AAC,
  wav: WAV,
};

/** Accepted images, by detected extension; an animated PNG is still a PNG (sharp reads its first frame). */
export const IMAGE_FORMATS: Readonly<Record<string, MediaFormat>> = {
  jpg: JPEG,
  png: PNG,
  apng: PNG,
  webp: WEBP,
};

/** The container `file-type` reports for ISO-BMFF files with a generic brand (isom, mp42, ...). */
export const GENERIC_MP4_EXT = 'mp4';
export const AUDIO_ONLY_MP4 = M4A;

/**
 * Refuses more pixels than this (the default of IMAGE_MAX_MEGAPIXELS): a 15 MB PNG can otherwise decode to gigabytes
 * (a decompression bomb), and a 100-megapixel photo costs half a second of CPU and 38 MiB per decode. 40 megapixels
 * is more than any phone or cover scan needs (thumbnails are at most 640 px wide).
 */
export const IMAGE_MAX_PIXELS = 40_000_000;

export const AudioMessages = {
  wrongType: 'Audio must be MP3, FLAC, OGG/Opus, M4A/AAC or WAV',
  tooLarge: (maxBytes = AUDIO_MAX_BYTES) => `Audio files can be at most ${formatBytes(maxBytes)}`,
} as const;

export const ImageMessages = {
  wrongType: 'Image must be JPEG, PNG or WebP',
  unreadable: 'The image could not be read. Upload a valid JPEG, PNG or WebP file.',
  tooLarge: (maxBytes = IMAGE_MAX_BYTES) => `Images can be at most ${formatBytes(maxBytes)}`,
  tooManyPixels: (maxPixels = IMAGE_MAX_PIXELS) => LimitMessages.tooManyPixels(maxPixels),
  badWidth: `Image width must be one of ${THUMBNAIL_WIDTHS.join(', ')}`,
} as const;

/** Served when `?w=` is absent: big enough for a cover in the player, small enough for a list. */
export const DEFAULT_IMAGE_WIDTH: ThumbnailWidth = 640;

/** Thumbnails are always WebP: small, and decoded by every browser Tonearm supports. */
export const THUMBNAIL_FORMAT = WEBP;

const MIME_BY_EXT: Readonly<Record<string, string>> = Object.fromEntries(
  [MP3, FLAC, OGG, OPUS, M4A, AAC, WAV, JPEG, PNG, WEBP].map((format) => [format.ext, format.mime]),
);

/** The Content-Type of a stored blob, from its key's suffix; keys are made by this module, so the suffix is trusted. */
export function mimeForKey(key: string): string {
  const dot = key.lastIndexOf('.');
  return (dot >= 0 ? MIME_BY_EXT[key.slice(dot + 1)] : undefined) ?? 'application/octet-stream';
}

/** `200 MB`, `512 KB`, `100 bytes`: the unit a person would write for the limit. */
export function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes >= mib) return `${Number((bytes / mib).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}
