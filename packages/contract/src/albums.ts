import { z } from 'zod';
import { CursorQuery, DbIdText, pageOf } from './common.js';
import { NAME_MAX } from './constants.js';
import { Song } from './songs.js';

/** The earliest and latest year an album or a song may carry. */
export const YEAR_MIN = 1000;
export const YEAR_MAX = 9999;

/** An album in a list (issue 12): its songs are counted, not listed. */
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
});
export type AlbumSummary = z.infer<typeof AlbumSummary>;

/** GET /api/albums/{id}: the album with its songs in disc and track order. */
export const Album = AlbumSummary.omit({ songCount: true }).extend({ songs: z.array(Song) });
export type Album = z.infer<typeof Album>;

/** GET /api/albums: by name, optionally one album artist's, optionally those whose name has these words. */
export const AlbumPageQuery = CursorQuery.extend({
  artistId: DbIdText.optional(),
  q: z.string().trim().max(NAME_MAX).optional(),
});
export type AlbumPageQuery = z.infer<typeof AlbumPageQuery>;

export const AlbumPage = pageOf(AlbumSummary);
export type AlbumPage = z.infer<typeof AlbumPage>;
