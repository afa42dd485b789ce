import {
  DATA_SAVER_BITRATE,
  DATA_SAVER_FORMAT,
  TRANSCODE_BITRATE_MAX,
  type TranscodeFormat,
  isAudioUrl,
} from '@tonearm/contract';

/** What `<audio>.canPlayType` is asked for each stored audio key suffix (the server's types for them). */
const MIME_BY_SUFFIX: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg; codecs=opus',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
};

/**
 * What `canPlayType` is asked when the import read the codec: the container alone does not say it (an `.m4a` holds AAC,
 * which every browser plays, or ALAC, which Chromium does not).
 */
export const MIME_BY_CODEC: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  vorbis: 'audio/ogg; codecs=vorbis',
  opus: 'audio/ogg; codecs=opus',
  aac: 'audio/mp4; codecs=mp4a.40.2',
  alac: 'audio/mp4; codecs=alac',
  wav: 'audio/wav',
};

/** What `canPlayType` is asked for each transcode format, in the order the player prefers them. */
const TRANSCODE_TYPES: readonly (readonly [TranscodeFormat, string])[] = [
  ['opus', 'audio/ogg; codecs=opus'],
  ['mp3', 'audio/mpeg'],
];

/** A file the browser cannot play is converted at a bitrate that keeps its quality. */
export const COMPATIBLE_BITRATE = Math.min(192, TRANSCODE_BITRATE_MAX);

export interface StreamChoice {
  /** The profile's "data saver": always a small stream. */
  dataSaver: boolean;
  /** Whether this browser plays a MIME type (`HTMLAudioElement.canPlayType` said "maybe" or "probably"). */
  canPlay: (mime: string) => boolean;
}

/**
 * The MIME type of a song's audio, with its codec when known (`codec`: Song.audioFormat), else by its key suffix; null
 * for a link that is not stored audio.
 */
export function audioMimeOf(link: string, codec: string | null = null): string | null {
  if (!isAudioUrl(link) || link.includes('?')) return null;
  const suffix = link.slice(link.lastIndexOf('.') + 1).toLowerCase();
  return (codec === null ? undefined : MIME_BY_CODEC[codec]) ?? MIME_BY_SUFFIX[suffix] ?? null;
}

/**
 * The URL the player streams a song from: the original file, unless data saver is on (Opus at 128 kbit/s, or MP3
 * where Opus does not play) or the browser cannot play the original (a FLAC or ALAC file, say: converted at
 * COMPATIBLE_BITRATE). A conversion the browser could not play either is never asked for. A server without ffmpeg
 * answers `?format=` with the original (docs/design.md, "Transcoding").
 */
export function streamLink(link: string, choice: StreamChoice, codec: string | null = null): string {
  const mime = audioMimeOf(link, codec);
  if (mime === null) return link;
  const playable = TRANSCODE_TYPES.filter(([, type]) => choice.canPlay(type)).map(([format]) => format);
  if (choice.dataSaver) {
    const format = playable.includes(DATA_SAVER_FORMAT) ? DATA_SAVER_FORMAT : playable[0];
    return format === undefined ? link : withFormat(link, format, DATA_SAVER_BITRATE);
  }
  if (choice.canPlay(mime) || playable[0] === undefined) return link;
  return withFormat(link, playable[0], COMPATIBLE_BITRATE);
}

function withFormat(link: string, format: TranscodeFormat, bitrate: number): string {
  return `${link}?format=${format}&bitrate=${bitrate}`;
}
