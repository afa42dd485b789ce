import { PAGE_LIMIT_DEFAULT, type SongPage, type SongPageOrder, type SortDirection } from '@tonearm/contract';
import { api } from './api.js';

/**
 * Where a list of songs comes from on the server (issue 11): lists are paged by cursor, so a list on screen and the
 * player's queue both hold a source and the cursor of the next page, never the whole catalogue.
 */
export type SongSource =
  /** The catalogue, one artist's or one genre's songs: shuffled by seed, newest first, or sorted by a column. */
  | {
      kind: 'catalogue';
      artistId?: number;
      genre?: string;
      order?: SongPageOrder;
      direction?: SortDirection;
      seed?: number;
    }
  /** The caller's liked songs, most recently liked first. */
  | { kind: 'liked' }
  /** A playlist's songs in playlist order. */
  | { kind: 'playlist'; playlistId: number }
  /** Search hits for `q`, best match first. */
  | { kind: 'search'; q: string };

export interface SongPageRequest {
  cursor?: string | null;
  limit?: number;
  signal?: AbortSignal;
}

/** One page of a source: the first page without a cursor, then each answer's `nextCursor`. */
export function fetchSongPage(source: SongSource, request: SongPageRequest = {}): Promise<SongPage> {
  const paging = { limit: request.limit ?? PAGE_LIMIT_DEFAULT, cursor: request.cursor ?? undefined };
  const options = { signal: request.signal };
  switch (source.kind) {
    case 'catalogue': {
      const { artistId, genre, order, direction, seed } = source;
      return api.songs.page({ query: { ...paging, artistId, genre, order, direction, seed } }, options);
    }
    case 'liked':
      return api.likes.page({ query: paging }, options);
    case 'playlist':
      return api.songs.playlistPage({ id: source.playlistId, query: paging }, options);
    case 'search':
      return api.songs.page({ query: { ...paging, q: source.q } }, options);
  }
}
