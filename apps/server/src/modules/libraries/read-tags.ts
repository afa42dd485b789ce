import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MAX_BYTES, YEAR_MAX, YEAR_MIN } from '@tonearm/contract';
import { parseFromTokenizer, type IAudioMetadata, type IPicture } from 'music-metadata';
import { embeddedLyricsOf, type FileLyrics } from '../../media/file-lyrics.js';
import { FileWindows, WindowTokenizer } from './file-windows.js';
import { isOggVorbisOrOpus, oggPicture } from './ogg-picture.js';
import type { ReplayGain } from '../songs/song-import.service.js';
import { artistsOf, contributorsOf, DEFAULT_SEPARATORS, type Contributor } from './tag-people.js';
import { isCompilation, musicBrainzIdsOf, originalDateOf, releaseTypesOf, type MusicBrainzIds } from './tag-release.js';
import { cleanText } from './tag-text.js';

export { cleanText, repairMojibake } from './tag-text.js';
export { DEFAULT_SEPARATORS, type Contributor, type ContributorRole } from './tag-people.js';
export type { MusicBrainzIds } from './tag-release.js';

/** What the import takes from a file's tags and stream header; null when a tag is missing or unusable. */
export interface FileTags {
  title: string | null;
  /** The main artist: the first of `artists` (the album artist when no artist is tagged). */
  artist: string | null;
  album: string | null;
  /** The main album artist: the first of `albumArtists` (the artist when no album artist is tagged). */
  albumArtist: string | null;
  /** Every artist of the track, main first: the ARTISTS tag when there is one, else ARTIST split on the separators. */
  artists: string[];
  /** Every album artist, main first (ALBUMARTISTS, else ALBUMARTIST split); the track's artists when neither. */
  albumArtists: string[];
  /** The ARTIST tag as written ("A feat. B"), several values joined with "; "; null when there is none. */
  displayArtist: string | null;
  /** Composers, lyricists, performers (with their instrument as subRole), producers… */
  contributors: Contributor[];
  musicBrainz: MusicBrainzIds;
  /** The original release date as tagged: YYYY, YYYY-MM or YYYY-MM-DD. */
  originalDate: string | null;
  /** MusicBrainz release types, lower-case: ["album"], ["album", "live"]. */
  releaseTypes: string[];
  /** Tagged as a compilation, or by "Various Artists". */
  compilation: boolean;
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
  /** The lyrics its tags carry (USLT, SYLT, LYRICS, UNSYNCEDLYRICS, ©lyr: media/file-lyrics.ts), or none. */
  lyrics: FileLyrics | null;
  /** Why a lyrics tag could not be read (bad LRC), naming the line. */
  lyricsProblems: string[];
}

const NO_GAIN: ReplayGain = { trackDb: null, trackPeak: null, albumDb: null, albumPeak: null };

export const NO_TAGS: FileTags = {
  title: null,
  artist: null,
  album: null,
  albumArtist: null,
  artists: [],
  albumArtists: [],
  displayArtist: null,
  contributors: [],
  musicBrainz: {
    recordingId: null,
    trackId: null,
    releaseId: null,
    releaseGroupId: null,
    artistIds: [],
    albumArtistIds: [],
  },
  originalDate: null,
  releaseTypes: [],
  compilation: false,
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
  lyrics: null,
  lyricsProblems: [],
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

function positive(value: number | null | undefined, max: number): number | null {
  return value !== null && value !== undefined && Number.isInteger(value) && value >= 1 && value <= max ? value : null;
}

function finite(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : null;
}

/** How tag values are read: the separators that split one value into several names. */
export interface ReadTagsOptions {
  /** DEFAULT_SEPARATORS unless given; "/" and "&" never split ("AC/DC", "Simon & Garfunkel"). */
  separators?: readonly string[];
}

function tagsOf(metadata: IAudioMetadata, separators: readonly string[]): FileTags {
  const { common, format } = metadata;
  const title = cleanText(common.title);
  const { artists, albumArtists, displayArtist } = artistsOf(metadata, separators);
  const artist = artists[0] ?? null;
  const album = cleanText(common.album);
  const albumArtist = albumArtists[0] ?? null;
  const genre = cleanText(common.genre?.find((text) => cleanText(text) !== null));
  const year = common.year !== undefined && common.year >= YEAR_MIN && common.year <= YEAR_MAX ? common.year : null;
  const codec = format.codec?.toLowerCase();
  const embedded = embeddedLyricsOf(metadata);
  return {
    title,
    artist,
    album,
    albumArtist,
    artists,
    albumArtists,
    displayArtist,
    contributors: contributorsOf(metadata, separators),
    musicBrainz: musicBrainzIdsOf(common),
    originalDate: originalDateOf(metadata),
    releaseTypes: releaseTypesOf(common),
    compilation: isCompilation(metadata, albumArtist),
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
    untagged: title === null && artist === null && album === null && genre === null,
    lyrics: embedded.lyrics,
    lyricsProblems: embedded.problems.map((problem) => problem.message),
  };
}

/**
 * music-metadata's reading of an open file, through its windows (file-windows.ts): `file` names the format by its
 * extension. Headers only: no audio is decoded, and the duration is what the headers say. An Ogg Vorbis or Opus
 * file's picture is read by ogg-picture.ts, which decodes its base64 natively.
 */
async function parseWindows(windows: FileWindows, file: string): Promise<IAudioMetadata> {
  const ogg = await isOggVorbisOrOpus(windows);
  const metadata = await parseFromTokenizer(new WindowTokenizer(windows, file), { duration: false, skipCovers: ogg });
  if (ogg) {
    const picture = await oggPicture(windows, IMAGE_MAX_BYTES);
    metadata.common.picture = picture === null ? undefined : [picture];
  }
  return metadata;
}

/** Opens `file` (never waiting on a FIFO), parses it and closes it. */
async function parseAudioFile(file: string): Promise<IAudioMetadata> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const { size } = await handle.stat();
    const windows = new FileWindows(handle, size);
    await windows.preload();
    return await parseWindows(windows, file);
  } finally {
    await handle.close();
  }
}

/** The tags of a file, or none when they cannot be read (the upload checks then say what is wrong with the file). */
export async function readTags(file: string, options: ReadTagsOptions = {}): Promise<FileTags> {
  try {
    return tagsOf(await parseAudioFile(file), options.separators ?? DEFAULT_SEPARATORS);
  } catch {
    return NO_TAGS;
  }
}

/** A song's name: its title tag, else its file name (cleaned as a tag is), else "Untitled". */
export function titleOf(tags: FileTags, file: string): string {
  return tags.title ?? cleanText(path.basename(file, path.extname(file))) ?? 'Untitled';
}

/** What a library scan reads of a file: its tags, and its length as its headers give it. */
export interface FileRead {
  tags: FileTags;
  durationMs: number | null;
}

/**
 * The tags of a file the caller opened (a library scan, which fingerprints it from the same windows) and the length
 * its headers give, without decoding any audio; throws when the file cannot be parsed.
 */
export async function readWindowTags(
  windows: FileWindows,
  file: string,
  options: ReadTagsOptions = {},
): Promise<FileRead> {
  return fileReadOf(await parseWindows(windows, file), options);
}

function fileReadOf(metadata: IAudioMetadata, options: ReadTagsOptions): FileRead {
  const seconds = metadata.format.duration;
  const durationMs =
    seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null;
  return { tags: tagsOf(metadata, options.separators ?? DEFAULT_SEPARATORS), durationMs };
}
