import path from 'node:path';
import { NAME_MAX, plainText, YEAR_MAX, YEAR_MIN } from '@tonearm/contract';
import { parseFile, type IAudioMetadata, type IPicture } from 'music-metadata';
import type { ReplayGain } from '../songs/song-import.service.js';

/** What the import takes from a file's tags and stream header; null when a tag is missing or unusable. */
export interface FileTags {
  title: string | null;
  artist: string | null;
  album: string | null;
  albumArtist: string | null;
  trackNumber: number | null;
  discNumber: number | null;
  year: number | null;
  genre: string | null;
  picture: IPicture | null;
  replayGain: ReplayGain;
  bitrateKbps: number | null;
  sampleRateHz: number | null;
  /** The codec: mp3, flac, vorbis, opus, aac, alac, wav (or the parser's own name for anything else). */
  format: string | null;
  /** True when the file had no title, artist, album or genre tag at all. */
  untagged: boolean;
}

const NO_GAIN: ReplayGain = { trackDb: null, trackPeak: null, albumDb: null, albumPeak: null };

export const NO_TAGS: FileTags = {
  title: null,
  artist: null,
  album: null,
  albumArtist: null,
  trackNumber: null,
  discNumber: null,
  year: null,
  genre: null,
  picture: null,
  replayGain: NO_GAIN,
  bitrateKbps: null,
  sampleRateHz: null,
  format: null,
  untagged: true,
};

/** Codec names as music-metadata reports them, by the short name Tonearm stores. */
const FORMATS: Readonly<Record<string, string>> = {
  'mpeg 1 layer 3': 'mp3',
  'mpeg 2 layer 3': 'mp3',
  'mpeg 2.5 layer 3': 'mp3',
  flac: 'flac',
  'vorbis i': 'vorbis',
  opus: 'opus',
  'mpeg-4/aac': 'aac',
  aac: 'aac',
  alac: 'alac',
  pcm: 'wav',
};

/**
 * Text that was UTF-8 but read as Latin-1 ("CafÃ©" for "Café"): RIFF INFO chunks and some ID3v1 tags are written in
 * UTF-8 by ffmpeg and others while readers take them as Latin-1. Re-read only when every character is a byte and the
 * bytes are valid UTF-8 that decodes to something shorter; real Latin-1 text ("Café" as E9) is not valid UTF-8.
 */
export function repairMojibake(text: string): string {
  let high = false;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0xff) return text;
    if (code >= 0x80) high = true;
  }
  if (!high) return text;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(text, 'latin1'));
  return decoded.includes('\uFFFD') || decoded.length >= text.length ? text : decoded;
}

/** At most `max` UTF-16 units (as the contract's limits count), never half a surrogate pair. */
function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * A tag's text (or a file name standing in for a title): what the contract's name fields keep (plainText: no control
 * characters, U+FFFE/U+FFFF or bidirectional overrides), trimmed, at most NAME_MAX long; null when nothing is left.
 */
export function cleanText(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const text = plainText(repairMojibake(value)).trim();
  return text === '' ? null : capped(text, NAME_MAX);
}

function positive(value: number | null | undefined, max: number): number | null {
  return value !== null && value !== undefined && Number.isInteger(value) && value >= 1 && value <= max ? value : null;
}

function finite(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : null;
}

function tagsOf({ common, format }: IAudioMetadata): FileTags {
  const title = cleanText(common.title);
  const artist = cleanText(common.artist);
  const album = cleanText(common.album);
  const albumArtist = cleanText(common.albumartist);
  const genre = cleanText(common.genre?.find((text) => cleanText(text) !== null));
  const year = common.year !== undefined && common.year >= YEAR_MIN && common.year <= YEAR_MAX ? common.year : null;
  const codec = format.codec?.toLowerCase();
  return {
    title,
    artist: artist ?? albumArtist,
    album,
    albumArtist: albumArtist ?? artist,
    trackNumber: positive(common.track.no, 9999),
    discNumber: positive(common.disk.no, 999),
    year,
    genre,
    picture: common.picture?.[0] ?? null,
    replayGain: {
      trackDb: finite(common.replaygain_track_gain?.dB),
      trackPeak: finite(common.replaygain_track_peak?.ratio),
      albumDb: finite(common.replaygain_album_gain?.dB),
      albumPeak: finite(common.replaygain_album_peak?.ratio),
    },
    bitrateKbps: format.bitrate === undefined ? null : Math.round(format.bitrate / 1000),
    sampleRateHz: format.sampleRate === undefined ? null : Math.round(format.sampleRate),
    format: codec === undefined ? null : (FORMATS[codec] ?? codec),
    untagged: title === null && artist === null && album === null && albumArtist === null && genre === null,
  };
}

/** The tags of a file, or none when they cannot be read (the upload checks then say what is wrong with the file). */
export async function readTags(file: string): Promise<FileTags> {
  try {
    return tagsOf(await parseFile(file, { duration: false }));
  } catch {
    return NO_TAGS;
  }
}

/** A song's name: its title tag, else its file name (cleaned as a tag is), else "Untitled". */
export function titleOf(tags: FileTags, file: string): string {
  return tags.title ?? cleanText(path.basename(file, path.extname(file))) ?? 'Untitled';
}

/**
 * The tags of a file and the length its headers give, without decoding any audio (a library scan); throws when the
 * file cannot be read or parsed.
 */
export async function readFileTags(file: string): Promise<{ tags: FileTags; durationMs: number | null }> {
  const metadata = await parseFile(file, { duration: false });
  const seconds = metadata.format.duration;
  const durationMs =
    seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null;
  return { tags: tagsOf(metadata), durationMs };
}
