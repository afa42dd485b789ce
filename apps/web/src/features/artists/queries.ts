import { queryOptions } from '@tanstack/react-query';
import { ClientMessages } from '@tonearm/contract';
import { artistKeys } from '../../lib/query-keys.js';
import { fetchArtists } from './artists.api.js';

export const artistQueries = {
  /** GET /artists; failure raises the red alert "Error fetching artists". */
  list: () =>
    queryOptions({
      queryKey: artistKeys.list(),
      queryFn: ({ signal }) => fetchArtists(signal),
      meta: { errorMessage: ClientMessages.errorFetchingArtists },
    }),
};
