import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ClientMessages, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type Song } from '@tonearm/contract';
import { songKeys } from '../../lib/query-keys.js';
import { unlessNotFound } from '../../lib/api-client.js';
import { queryRetryOptions, songLoadRetryPolicy } from '../../lib/retry-policy.js';
import { fetchSongPage, type SongSource } from '../../lib/song-sources.js';

/**
 * SPEC §4 song loading: every 5 s until songs arrive, at most 5 failures, then the red alert. A playlist that is not
 * there (404) is not asked again (retry-policy.ts) and raises no alert: its page says it is not found.
 */
const songLoading = {
  ...queryRetryOptions(songLoadRetryPolicy),
  meta: { errorMessage: unlessNotFound(() => ClientMessages.errorFetchingSongs) },
};

/** Every song of a source, a page of PAGE_LIMIT_MAX at a time. */
async function fetchAllSongs(source: SongSource, signal: AbortSignal): Promise<Song[]> {
  const songs: Song[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchSongPage(source, { cursor, limit: PAGE_LIMIT_MAX, signal });
    songs.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return songs;
}

/** The first page of a paged song list: what the first screen needs. */
export const FIRST_PAGE_LIMIT = PAGE_LIMIT_DEFAULT;
/** Each later page, fetched as the list scrolls near its end. */
export const NEXT_PAGE_LIMIT = 250;

export const songQueries = {
  /**
   * A source's songs a page at a time (an infinite query): the first page, then each answer's `nextCursor`. The
   * catalogue, an artist's songs, the liked songs and a playlist all page this way.
   */
  pages: (source: SongSource) =>
    infiniteQueryOptions({
      queryKey: songKeys.pages(source),
      // The first page comes fast; later pages are bigger, so scrolling through a large library asks less often.
      queryFn: ({ pageParam, signal }) =>
        fetchSongPage(source, {
          cursor: pageParam,
          signal,
          limit: pageParam === null ? FIRST_PAGE_LIMIT : NEXT_PAGE_LIMIT,
        }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
      ...songLoading,
    }),
  /** Every song of a playlist, in playlist order, loaded page by page: the playlist editor needs them all. */
  playlist: (playlistId: number) =>
    queryOptions({
      queryKey: songKeys.playlistAll(playlistId),
      queryFn: ({ signal }) => fetchAllSongs({ kind: 'playlist', playlistId }, signal),
      ...songLoading,
    }),
};
