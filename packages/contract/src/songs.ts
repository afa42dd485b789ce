import { z } from 'zod';
import { UserRating } from './ratings.js';
import { textField } from './text.js';
import { NAME_MAX, SHUFFLE_SEED_MAX, SONG_PAGE_ORDERS, SORT_DIRECTIONS, YEAR_MAX, YEAR_MIN } from './constants.js';
import { CursorQuery, DbIdText, dbIdText, pageOf, Paging } from './common.js';
import { GENRES } from './genres.js';

/** An artist a song names (its artists, album artists, contributors): a link to the artist's page. */
export const SongArtist = z.object({ id: z.number().int(), name: z.string() });
export type SongArtist = z.infer<typeof SongArtist>;

/** The roles a song's tags may credit people with, besides its artists. */
export const CONTRIBUTOR_ROLES = [
  'composer',
  'lyricist',
  'arranger',
  'conductor',
  'performer',
  'producer',
  'remixer',
  'mixer',
  'engineer',
  'djmixer',
] as const;

/** Someone credited on a song in a role (a performer with the instrument or voice as `subRole`). */
export const SongContributor = z.object({
  role: z.string(),
  subRole: z.string().nullable(),
  artistId: z.number().int(),
  artistName: z.string(),
});
export type SongContributor = z.infer<typeof SongContributor>;

/** Song JSON of DESIGN §4; link and imgLink are URLs on this server, likeSong is per requesting user. */
export const Song = z.object({
  id: z.number().int(),
  name: z.string(),
  genre: z.string(),
  link: z.string(),
  imgLink: z.string(),
  artistId: z.number().int().nullable(),
  artistName: z.string(),
  likeSong: z.boolean(),
  durationMs: z.number().int().nullable(),
  playlistIds: z.array(z.number().int()),
  /**
   * Issue 12: the album the song is on, where on it, and its year; null when unknown. Issue 25: this server puts every
   * song on an album (its artist's UNKNOWN_ALBUM placeholder when it has none of its own), so albumId and albumName are
   * always set in its answers; they stay nullable for songs kept from older answers (recent, downloads).
   */
  albumId: z.number().int().nullable(),
  albumName: z.string().nullable(),
  trackNumber: z.number().int().nullable(),
  discNumber: z.number().int().nullable(),
  year: z.number().int().nullable(),
  /** The file's own genre tag ("Shoegaze"), when it named something else than `genre`, the catalogue genre. */
  genreTag: z.string().nullable(),
  /** The codec of the stored audio (mp3, flac, vorbis, opus, aac, alac, wav) when the import read it; null otherwise. */
  audioFormat: z.string().nullable(),
  /** ReplayGain of the track from the file's tags (gain in dB, peak as a fraction of full scale); null when untagged. */
  replayGainDb: z.number().nullable(),
  replayGainPeak: z.number().nullable(),
  /**
   * False while the song's file is missing from its library folder: it has left every list and search, and stays in
   * playlists and liked songs shown as unavailable until the file is back.
   */
  available: z.boolean(),
  /**
   * Every artist of the song, the main one (artistId, artistName) first; empty for "Unknown artist". A song appears
   * under each of them.
   */
  artists: z.array(SongArtist),
  /** The artists as the file displays them ("A feat. B"); artistName when the file says nothing more. */
  displayArtist: z.string(),
  /** Composers, lyricists, performers, producers… as the tags credit them. */
  contributors: z.array(SongContributor),
  /** Issue 26: how many times anyone played the song on this server (the "Plays" column). */
  plays: z.number().int(),
  /** Issue 28: the requesting user's stars on the song (1–5), null when they have not rated it. */
  rating: UserRating,
});
export type Song = z.infer<typeof Song>;

export const SongName = textField().trim().min(1, 'Name is required').max(NAME_MAX);
export const GenreField = z.enum(GENRES, { error: 'Choose a genre from the list' });

/** Messages of the song form's album fields (issue 12), by field. */
export const SongAlbumMessages = {
  album: `Enter an album name of at most ${NAME_MAX} characters`,
  trackNumber: 'Enter a track number from 1 to 999',
  discNumber: 'Enter a disc number from 1 to 999',
  year: `Enter a year from ${YEAR_MIN} to ${YEAR_MAX}`,
  albumForTrack: 'Enter the album the track number belongs to',
} as const;

/** A whole number typed in a form field: '' is none (null), anything but digits is `message`. */
function formNumber(min: number, max: number, message: string) {
  return z
    .string()
    .trim()
    .regex(/^\d*$/, message)
    .transform((text) => (text === '' ? null : Number(text)))
    .pipe(z.number().int().min(min, message).max(max, message).nullable());
}

/**
 * Issue 12: the song form's optional album fields, after SPEC's own. `album` names an album of the song's artist (found,
 * or created with the song's year); '' (or UNKNOWN_ALBUM) is none: the song is then on its artist's placeholder album.
 * Absent from an edit, a field keeps what the song has; '' clears it.
 */
export const SongAlbumFormFields = z.object({
  album: textField()
    .trim()
    .max(NAME_MAX, SongAlbumMessages.album)
    .transform((text) => (text === '' ? null : text))
    .optional(),
  trackNumber: formNumber(1, 999, SongAlbumMessages.trackNumber).optional(),
  discNumber: formNumber(1, 999, SongAlbumMessages.discNumber).optional(),
  year: formNumber(YEAR_MIN, YEAR_MAX, SongAlbumMessages.year).optional(),
});
export type SongAlbumFormFields = z.infer<typeof SongAlbumFormFields>;

/** The text fields of the multipart song form (files travel as songFile and imageFile). */
export const SongFormFields = z
  .object({
    name: SongName,
    genre: GenreField,
    artistId: dbIdText('Choose an artist'),
  })
  .extend(SongAlbumFormFields.shape);
export type SongFormFields = z.infer<typeof SongFormFields>;

export const SongEditFields = SongFormFields.partial().extend({ name: SongName, genre: GenreField });

export const SongListQuery = Paging.extend({
  q: textField().trim().max(200).optional(),
  genre: z.string().max(60).optional(),
  artistId: DbIdText.optional(),
});
export type SongListQuery = z.infer<typeof SongListQuery>;

/** A list of songs (JSON array). */
export const SongList = z.array(Song);

/**
 * GET /api/songs/page: the catalogue (or one artist's or one genre's songs) a page at a time.
 * - `order=shuffle` (the default): a stable server-side shuffle. The same `seed` always gives the same order, so a
 *   list paged from the first song to the last neither repeats nor skips one. Without a seed the server picks one and
 *   answers it in `seed`.
 * - `order=newest`: the most recently added first.
 * - `order=title|artist|album|genre|added|duration` (issue 26): sorted by that column, `direction` asc (the default)
 *   or desc, ties broken by song id (in the same direction), so paging neither repeats nor skips a song. Text sorts
 *   ignore case; a song without an artist, album or duration comes first ascending ('' or -1).
 * - `q`: search hits instead, best match first (exact, then prefix, then one typo); `order` and `seed` do not apply.
 */
export const SongPageQuery = CursorQuery.extend({
  q: textField().trim().max(200).optional(),
  genre: z.string().max(60).optional(),
  artistId: DbIdText.optional(),
  order: z.enum(SONG_PAGE_ORDERS).optional(),
  direction: z.enum(SORT_DIRECTIONS).optional(),
  seed: z.coerce.number().int().min(0).max(SHUFFLE_SEED_MAX).optional(),
});
export type SongPageQuery = z.infer<typeof SongPageQuery>;

/** A page of songs; `seed` is the shuffle's seed (null when the list is not shuffled). */
export const SongPage = pageOf(Song).extend({ seed: z.number().int().nullable() });
export type SongPage = z.infer<typeof SongPage>;
