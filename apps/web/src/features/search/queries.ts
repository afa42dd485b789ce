import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SearchKind, SearchResponse } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';

/** How many of each group the first answer holds. */
export const SEARCH_LIMIT = 20;

/** How many more of one group each "show more" asks for (the most `search.query` allows). */
export const SEARCH_MORE_LIMIT = 50;

/** A further page of one group of search results. */
export interface SearchGroupPage<Item> {
  items: readonly Item[];
  nextCursor: string | null;
}

/** Reads one group's items out of an answer (`answer.songs`, ...). */
export type GroupItems<Item> = (answer: SearchResponse) => readonly Item[];

export const searchKeys = {
  /** The first answer: under songKeys, so that likes update the songs found. */
  results: (q: string) => songKeys.search(q),
  /**
   * The pages of one group after the first answer's `cursor`. The songs' pages sit under songKeys too (likes update
   * them); artists and playlists hold no songs, so they stay out of it.
   */
  more: (q: string, kind: SearchKind, cursor: string | null) =>
    kind === 'songs'
      ? ([...songKeys.search(q), 'more', cursor] as const)
      : (['search', q, kind, 'more', cursor] as const),
};

export const searchQueries = {
  /** As-you-type songs, artists and playlists: the first page of every group, with each group's next cursor. */
  results: (q: string) =>
    queryOptions({
      queryKey: searchKeys.results(q),
      queryFn: ({ signal }) => api.search.query({ query: { q, limit: SEARCH_LIMIT } }, { signal }),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  /** The rest of the `kind` group, a page at a time, from the first answer's cursor for it (`kind` + `cursor`). */
  more: <Item>(q: string, kind: SearchKind, itemsOf: GroupItems<Item>, cursor: string | null) =>
    infiniteQueryOptions({
      queryKey: searchKeys.more(q, kind, cursor),
      queryFn: async ({ pageParam, signal }): Promise<SearchGroupPage<Item>> => {
        const query = { q, kind, cursor: pageParam ?? undefined, limit: SEARCH_MORE_LIMIT };
        const answer = await api.search.query({ query }, { signal });
        return { items: itemsOf(answer), nextCursor: answer.nextCursors[kind] };
      },
      initialPageParam: cursor,
      getNextPageParam: (page) => page.nextCursor,
      staleTime: 30_000,
    }),
};
