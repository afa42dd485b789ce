import { queryOptions } from '@tanstack/react-query';
import { ClientMessages } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { artistKeys } from '../../lib/query-keys.js';

export const artistQueries = {
  /** GET /artists; failure raises the red alert "Error fetching artists". */
  list: () =>
    queryOptions({
      queryKey: artistKeys.list(),
      queryFn: ({ signal }) => api.artists.list({}, { signal }),
      meta: { errorMessage: ClientMessages.errorFetchingArtists },
    }),
  /** GET /artists/{id}: one artist, for a link to their page (which reads the artist from navigation state). */
  detail: (artistId: number) =>
    queryOptions({
      queryKey: [...artistKeys.all, 'detail', artistId] as const,
      queryFn: ({ signal }) => api.artists.get({ id: artistId }, { signal }),
      staleTime: 60_000,
    }),
};
