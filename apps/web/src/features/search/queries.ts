import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';

export const SEARCH_LIMIT = 20;

export const searchQueries = {
  /** As-you-type songs, artists and playlists; the key sits under songKeys so that likes update the songs found. */
  results: (q: string) =>
    queryOptions({
      queryKey: songKeys.search(q),
      queryFn: ({ signal }) => api.search.query({ query: { q, limit: SEARCH_LIMIT } }, { signal }),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
};
