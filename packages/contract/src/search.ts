import { z } from 'zod';
import { textField } from './text.js';
import { AlbumSummary } from './albums.js';
import { Artist } from './artists.js';
import { DbId, PageCursor } from './common.js';
import { Playlist } from './playlists.js';
import { Song } from './songs.js';

/** The groups of a search answer. */
export const SearchKind = z.enum(['songs', 'artists', 'playlists']);
export type SearchKind = z.infer<typeof SearchKind>;

/**
 * GET /api/search: each group best match first (exact, then prefix, then one typo). Without `kind` the answer holds
 * the first `limit` of every group; with `kind` and a `cursor` from `nextCursors` it holds the next page of that
 * group only (the other groups empty).
 */
export const SearchQuery = z.object({
  q: textField().trim().max(200),
  limit: z.coerce.number().int().min(1).max(50).optional(),
  kind: SearchKind.optional(),
  cursor: PageCursor.optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResponse = z.object({
  songs: z.array(Song),
  artists: z.array(Artist),
  playlists: z.array(Playlist),
  /** Per group, the cursor of its next page (null when the group is done). */
  nextCursors: z.object({
    songs: z.string().nullable(),
    artists: z.string().nullable(),
    playlists: z.string().nullable(),
  }),
  /**
   * Issue 12: albums whose name holds every word of `q`, by name, at most `limit`; only in the answer without `kind`
   * (albums are not paged here: GET /api/albums?q= pages them).
   */
  albums: z.array(AlbumSummary),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const SongsDataResponse = z.object({ songs: z.array(Song), artists: z.array(Artist) });
export type SongsDataResponse = z.infer<typeof SongsDataResponse>;

export const PlayRequest = z.object({ songId: DbId });
