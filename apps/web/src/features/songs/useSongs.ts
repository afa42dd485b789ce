import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { PREMIUM_PRELOAD_DELAY_MS, type Song, type SongPage, type User } from '@tonearm/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SongSource } from '../../lib/song-sources.js';
import { hasSongDataAccess } from '../../shell/auth/useAuth.js';
import { artistQueries } from '../artists/queries.js';
import { catalogueSource } from './catalogue.js';
import { songQueries } from './queries.js';
import type { SongListPaging } from './SongList.js';

function ignore(): void {
  // The query cache reports the failure.
}

/**
 * SPEC §6: premium users and administrators trigger the song data load 2 s after the user check. At library scale
 * that is the first page of the catalogue (in this session's shuffle) and the artists, never the whole catalogue.
 * Mounted once in the dashboard shell, which renders only after the check, so the delay starts there. It is a
 * background load (issue 26): no list waits for it, each asks for its own first page at once, and a page already
 * there is not asked for again. Regular users load a list when it opens.
 */
export function useSongDataPreload(user: User): void {
  const eligible = hasSongDataAccess(user);
  const queryClient = useQueryClient();
  const [startedFor, setStartedFor] = useState<number | null>(null);
  useEffect(() => {
    if (!eligible) return;
    const timer = setTimeout(() => {
      setStartedFor(user.id);
      // Failures end in the queries' red alerts (after the song retries); nothing waits on this promise.
      queryClient.query(artistQueries.list()).catch(ignore);
    }, PREMIUM_PRELOAD_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [eligible, user.id, queryClient]);
  // An observer that stays mounted in the shell: the catalogue's lists read what it loads, and it refetches them
  // after an edit, as the song data did.
  useInfiniteQuery({ ...songQueries.pages(catalogueSource()), enabled: eligible && startedFor === user.id });
}

/** A paged song list as loaded so far. */
export interface PagedSongs {
  source: SongSource;
  query: UseInfiniteQueryResult<InfiniteData<SongPage>>;
  /** The songs of the pages loaded so far, in list order. */
  songs: readonly Song[];
  /** The list's size on the server (undefined until the first page arrives). */
  total: number | undefined;
  /** What a SongList needs to load more and to play on through the rest of the list. */
  paging: SongListPaging;
}

export interface PagedSongsOptions {
  /** Load every page, one after the other (a playlist's owner reorders the whole list). */
  loadAll?: boolean;
}

/**
 * A source's songs, a page at a time: SongList loads the next page as the user scrolls near the end, or, with
 * `loadAll`, every page loads in turn.
 */
export function usePagedSongs(source: SongSource, { loadAll = false }: PagedSongsOptions = {}): PagedSongs {
  // Every list asks for its first page at once, premium users' and admins' too: paying makes nothing slower (issue
  // 26). Their load 2 s after the user check (useSongDataPreload, SPEC §6) finds the catalogue's page already there.
  const query = useInfiniteQuery(songQueries.pages(source));
  const pages = query.data?.pages;
  const songs = useMemo(() => pages?.flatMap((page) => page.items) ?? [], [pages]);
  const last = pages?.at(-1);
  const total = last?.total;
  const nextCursor = last?.nextCursor ?? null;
  const { hasNextPage, isFetching, isFetchNextPageError } = query;
  // A second ask while a page is on its way joins it instead of starting over (the list and loadAll may both ask).
  const { fetchNextPage: fetchPage } = query;
  const fetchNextPage = useCallback(() => void fetchPage({ cancelRefetch: false }), [fetchPage]);
  const paging = useMemo<SongListPaging>(
    () => ({
      source,
      nextCursor,
      total,
      hasNextPage,
      isFetching,
      isFetchNextPageError,
      fetchNextPage,
    }),
    [source, nextCursor, total, hasNextPage, isFetching, isFetchNextPageError, fetchNextPage],
  );
  useEffect(() => {
    if (loadAll && hasNextPage && !isFetching && !isFetchNextPageError) fetchNextPage();
  }, [loadAll, hasNextPage, isFetching, isFetchNextPageError, fetchNextPage]);
  return { source, query, songs, total, paging };
}

/**
 * Asks for the catalogue's first page while the session check is still on its way (issue 11: the first row within
 * 1.5 s), for whoever this browser has stored, premium users and administrators as well (issue 26). A stale
 * session's answer (401) is simply not used: the check logs out, or the list asks again as it mounts.
 */
export function prefetchCatalogue(queryClient: QueryClient, storedUser: User | undefined): void {
  if (storedUser === undefined) return;
  queryClient.infiniteQuery(songQueries.pages(catalogueSource())).catch(() => undefined);
}
