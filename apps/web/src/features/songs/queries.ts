import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ClientMessages, PAGE_LIMIT_MAX, type Song } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';
import { queryRetryOptions, songLoadRetryPolicy } from '../../lib/retry-policy.js';
import { fetchSongPage, type SongSource } from '../../lib/song-sources.js';

/** Song picker page size. */
export const FIND_SONGS_LIMIT = 20;

/** SPEC §4 song loading: every 5 s until songs arrive, at most 5 failures, then the red alert. */
const songLoading = {
  ...queryRetryOptions(songLoadRetryPolicy),
  meta: { errorMessage: ClientMessages.errorFetchingSongs },
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

export const songQueries = {
  /**
   * A source's songs a page at a time (an infinite query): the first page, then each answer's `nextCursor`. The
   * catalogue, an artist's songs, the liked songs and a playlist all page this way.
   */
  pages: (source: SongSource) =>
    infiniteQueryOptions({
      queryKey: songKeys.pages(source),
      queryFn: ({ pageParam, signal }) => fetchSongPage(source, { cursor: pageParam, signal }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
      ...songLoading,
    }),
  /** A page of songs in the server's order (no shuffle): the playlist editor's song picker. */
  find: (q: string) =>
    queryOptions({
      queryKey: songKeys.find(q),
      queryFn: ({ signal }) =>
        api.songs.list({ query: { q: q === '' ? undefined : q, limit: FIND_SONGS_LIMIT } }, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** Every song of a playlist, in playlist order, loaded page by page: the playlist editor needs them all. */
  playlist: (playlistId: number) =>
    queryOptions({
      queryKey: songKeys.playlistAll(playlistId),
      queryFn: ({ signal }) => fetchAllSongs({ kind: 'playlist', playlistId }, signal),
      ...songLoading,
    }),
};
