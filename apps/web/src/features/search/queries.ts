import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { songKeys } from '../../lib/query-keys.js';
import { searchCatalogue } from './search.api.js';

export const searchQueries = {
  /** As-you-type results; the key sits under songKeys so that likes update the songs found. */
  results: (q: string) =>
    queryOptions({
      queryKey: songKeys.search(q),
      queryFn: ({ signal }) => searchCatalogue(q, signal),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
};
