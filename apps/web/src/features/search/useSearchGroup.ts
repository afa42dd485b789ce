import { useInfiniteQuery } from '@tanstack/react-query';
import type { SearchKind, SearchResponse } from '@tonearm/contract';
import { useState } from 'react';
import { searchQueries, type GroupItems } from './queries.js';

/** One group of search results as loaded so far, and how to load more of it. */
export interface SearchGroup<Item> {
  items: readonly Item[];
  /** The cursor after the last loaded item (null when the group is complete). */
  nextCursor: string | null;
  loading: boolean;
  failed: boolean;
  loadMore: () => void;
}

/**
 * The `kind` group (read by `itemsOf`) of the answer `first` for `q`: its first page, then the pages the user asked for with "show more"
 * (`search.query` with `kind` and the group's cursor). Nothing past the first answer is fetched until asked for.
 */
export function useSearchGroup<Item>(
  q: string,
  kind: SearchKind,
  itemsOf: GroupItems<Item>,
  first: SearchResponse,
): SearchGroup<Item> {
  const firstCursor = first.nextCursors[kind];
  const [wanted, setWanted] = useState(false);
  const more = useInfiniteQuery({
    ...searchQueries.more(q, kind, itemsOf, firstCursor),
    enabled: wanted && firstCursor !== null,
  });
  const pages = more.data?.pages ?? [];
  const items = [...itemsOf(first), ...pages.flatMap((page) => page.items)];
  return {
    items,
    nextCursor: pages.length === 0 ? firstCursor : (pages.at(-1)?.nextCursor ?? null),
    loading: more.isFetching,
    failed: more.isError,
    loadMore: () => {
      if (!wanted) setWanted(true);
      else if (more.isError && pages.length === 0) void more.refetch();
      else void more.fetchNextPage();
    },
  };
}
