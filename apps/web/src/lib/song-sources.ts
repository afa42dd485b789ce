import {
  PAGE_LIMIT_DEFAULT,
  RADIO_BATCH_MAX,
  RADIO_HISTORY_MAX,
  RADIO_SEED_MAX,
  type SongPage,
  type SongPageOrder,
  type SortDirection,
} from '@tonearm/contract';
import { z } from 'zod';
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
  | { kind: 'search'; q: string }
  /** Issue 28: song radio from these songs, endless; each page's cursor carries what it queued so far. */
  | { kind: 'radio'; seedIds: readonly number[] };

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
    case 'radio':
      return radioPage(source.seedIds, request);
  }
}

/** What a radio page's cursor carries: the songs it queued so far, the newest RADIO_HISTORY_MAX. */
const RadioCursor = z.array(z.number().int().positive());

/**
 * A page of song radio: the next songs after those the cursor names (none twice in 50, at most 3 in a row by one
 * artist: the server's rules), and a cursor naming them too, so the queue goes on for as long as the radio finds songs.
 */
async function radioPage(seedIds: readonly number[], request: SongPageRequest): Promise<SongPage> {
  const parsed = request.cursor ? RadioCursor.safeParse(JSON.parse(request.cursor)) : null;
  const history = parsed?.success ? parsed.data : [];
  const count = Math.min(RADIO_BATCH_MAX, request.limit ?? 20);
  const body = { seedIds: seedIds.slice(0, RADIO_SEED_MAX), historyIds: history, count };
  const answer = await api.radio.next({ body }, { signal: request.signal });
  const queued = [...history, ...answer.songIds].slice(-RADIO_HISTORY_MAX);
  return {
    items: answer.songs,
    nextCursor: answer.songs.length === 0 ? null : JSON.stringify(queued),
    total: history.length + answer.songs.length,
    seed: null,
  };
}
