import { z } from 'zod';
import { textField } from './text.js';
import { CursorQuery, DbId, DbIdText, pageOf } from './common.js';
import { NAME_MAX, YEAR_MAX, YEAR_MIN } from './constants.js';
import { UNKNOWN_ALBUM } from './messages.js';
import { Song } from './songs.js';
import { UserRating } from './ratings.js';

/** Messages of the album routes that the error catalogue does not hold. */
export const AlbumMessages = {
  coverRequired: 'Choose an image for the cover',
  /** Issue 25: the placeholder's name is its own (400 on `name`). */
  nameReserved: `"${UNKNOWN_ALBUM}" is kept for the songs without an album: choose another name`,
  /** Issue 25: a placeholder album is deleted with its last song, not while songs are on it (409). */
  placeholderHoldsSongs: "This album holds the artist's songs without an album: move them to other albums first",
} as const;

/**
 * An album in a list (issue 12): its songs are counted, not listed. Every song is on an album (issue 25): a song
 * without one of its own is on its artist's placeholder album, named UNKNOWN_ALBUM, which has no cover of its own
 * unless an administrator gives it one (it never takes a track's).
 */
export const AlbumSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The album artist; null for "Unknown artist". */
  artistId: z.number().int().nullable(),
  artistName: z.string(),
  year: z.number().int().nullable(),
  /** The cover ('' when it has none). */
  imgLink: z.string(),
  songCount: z.number().int(),
  /** The sum of its songs' lengths (songs of unknown length count 0). */
  durationMs: z.number().int(),
  /** Issue 25: true for an artist's placeholder album (UNKNOWN_ALBUM), false for every other. */
  placeholder: z.boolean(),
});
export type AlbumSummary = z.infer<typeof AlbumSummary>;

/** GET /api/albums/{id}: the album with its songs in disc and track order. */
export const Album = AlbumSummary.omit({ songCount: true }).extend({
  songs: z.array(Song),
  /** Issue 28: the requesting user's stars on the album (1–5), null when they have not rated it. */
  rating: UserRating,
});
export type Album = z.infer<typeof Album>;

/**
 * The orders of GET /api/albums: by name (the default), the most recently added first, or (issue 28) the caller's
 * stars: highest first (ties by id), then the unrated by name.
 */
export const AlbumSort = z.enum(['name', 'recent', 'rating']);
export type AlbumSort = z.infer<typeof AlbumSort>;

/**
 * GET /api/albums: by name (or with `sort=recent` newest first), optionally one album artist's, optionally those whose
 * name has these words. The placeholder albums (issue 25) are listed by name, and left out of the newest first and of
 * a search by name (`q`), where they would be noise.
 */
export const AlbumPageQuery = CursorQuery.extend({
  artistId: DbIdText.optional(),
  q: textField().trim().max(NAME_MAX).optional(),
  sort: AlbumSort.optional(),
});
export type AlbumPageQuery = z.infer<typeof AlbumPageQuery>;

export const AlbumPage = pageOf(AlbumSummary);
export type AlbumPage = z.infer<typeof AlbumPage>;

const Year = z
  .number()
  .int()
  .min(YEAR_MIN, 'Enter a year from 1000 to 9999')
  .max(YEAR_MAX, 'Enter a year from 1000 to 9999');
const AlbumName = textField().trim().min(1, 'Name is required').max(NAME_MAX);

/** POST /api/albums (admins): a new album; no artist is "Unknown artist", no year is an unknown year. */
export const AlbumFields = z.object({
  name: AlbumName,
  artistId: DbId.nullable().optional(),
  year: Year.nullable().optional(),
});
export type AlbumFields = z.infer<typeof AlbumFields>;

/** PUT /api/albums/{id} (admins): the fields sent change, the others stay. */
export const AlbumEditFields = AlbumFields.partial();
export type AlbumEditFields = z.infer<typeof AlbumEditFields>;

const TrackNumber = z.number().int().min(1).max(999);

/**
 * PUT /api/songs/{id}/album (admins): puts the song on an album at a disc and track, or (albumId null) on its artist's
 * placeholder album (issue 25: every song is on one).
 */
export const SongAlbumFields = z.object({
  albumId: DbId.nullable(),
  discNumber: TrackNumber.nullable().optional(),
  trackNumber: TrackNumber.nullable().optional(),
});
export type SongAlbumFields = z.infer<typeof SongAlbumFields>;
