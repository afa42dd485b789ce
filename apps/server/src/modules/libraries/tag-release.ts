import { YEAR_MAX, YEAR_MIN } from '@tonearm/contract';
import type { IAudioMetadata, ICommonTagsResult } from 'music-metadata';
import { tagTexts } from './tag-fields.js';
import { cleanText } from './tag-text.js';

/** The MusicBrainz ids a file is tagged with (Picard's tags), lower-case; null or [] when missing or not a UUID. */
export interface MusicBrainzIds {
  recordingId: string | null;
  /** The track on the release (MUSICBRAINZ_RELEASETRACKID), not the recording. */
  trackId: string | null;
  releaseId: string | null;
  releaseGroupId: string | null;
  artistIds: string[];
  albumArtistIds: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The UUIDs in some values, each value split on ";", "," "/" or spaces (as taggers and ffmpeg join lists), once each. */
function uuids(values: string | readonly string[] | undefined): string[] {
  const pieces = [values ?? []].flat().flatMap((value) => value.toLowerCase().split(/[\s;,/]+/));
  return [...new Set(pieces.filter((piece) => UUID.test(piece)))];
}

export function musicBrainzIdsOf(common: ICommonTagsResult): MusicBrainzIds {
  return {
    recordingId: uuids(common.musicbrainz_recordingid)[0] ?? null,
    trackId: uuids(common.musicbrainz_trackid)[0] ?? null,
    releaseId: uuids(common.musicbrainz_albumid)[0] ?? null,
    releaseGroupId: uuids(common.musicbrainz_releasegroupid)[0] ?? null,
    artistIds: uuids(common.musicbrainz_artistid),
    albumArtistIds: uuids(common.musicbrainz_albumartistid),
  };
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T\d{2}(?::\d{2}(?::\d{2})?)?)?$/;

/**
 * A date as tagged when it is one: YYYY, YYYY-MM or YYYY-MM-DD (an ID3v2.4 time after it is dropped), with a year the
 * catalogue takes and a month and day that exist; null otherwise.
 */
export function validDate(text: string): string | null {
  const match = DATE.exec(text.trim());
  if (match === null) return null;
  const [, year = '', month, day] = match;
  if (Number(year) < YEAR_MIN || Number(year) > YEAR_MAX) return null;
  if (month === undefined) return year;
  if (Number(month) < 1 || Number(month) > 12) return null;
  if (day === undefined) return `${year}-${month}`;
  const lastDay = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return Number(day) >= 1 && Number(day) <= lastDay ? `${year}-${month}-${day}` : null;
}

/** The original release date (TDOR, ORIGINALDATE…), else the original year (TORY, ORIGINALYEAR) alone. */
export function originalDateOf(metadata: IAudioMetadata): string | null {
  for (const text of tagTexts(metadata, 'originaldate')) {
    const date = validDate(text);
    if (date !== null) return date;
  }
  const year = metadata.common.originalyear;
  return year === undefined ? null : validDate(String(year));
}

/** MusicBrainz release types ("album", "live"…), lower-case, once each; a value may hold several joined by ; / or ,. */
export function releaseTypesOf(common: ICommonTagsResult): string[] {
  const pieces = (common.releasetype ?? []).flatMap((value) => value.split(/[;/,]/));
  const types = pieces.flatMap((piece) => cleanText(piece.toLowerCase()) ?? []);
  return [...new Set(types)];
}

/**
 * Whether the release is a compilation: the flag (TCMP, COMPILATION=1, cpil, or the TXXX frame ffmpeg writes it to in
 * ID3) or an album artist of "Various Artists".
 */
export function isCompilation(metadata: IAudioMetadata, albumArtist: string | null): boolean {
  if (metadata.common.compilation === true) return true;
  if (tagTexts(metadata, 'compilation').some((text) => text.trim() === '1')) return true;
  return albumArtist !== null && albumArtist.toLowerCase() === 'various artists';
}
