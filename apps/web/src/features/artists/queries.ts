import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ClientMessages, type ArtistCreditRole, type ArtistListQuery, type Song } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { artistKeys, songKeys } from '../../lib/query-keys.js';

/**
 * A page of an artist's credits as it is cached: the songs as `items` (the shape every cache under songKeys has, so a
 * like or a deletion reaches them), and the artist's roles on each by song id.
 */
export interface CreditsPage {
  items: Song[];
  roles: Record<number, ArtistCreditRole[]>;
  nextCursor: string | null;
  total: number;
}

/** The orders of the artists grid. */
export type ArtistSort = NonNullable<ArtistListQuery['sort']>;

export const artistQueries = {
  /**
   * GET /artists; failure raises the red alert "Error fetching artists". By name, or (issue 28) `rating`: the caller's
   * rated artists first, most stars first.
   */
  list: (sort: ArtistSort = 'name') =>
    queryOptions({
      queryKey: sort === 'name' ? artistKeys.list() : ([...artistKeys.list(), sort] as const),
      queryFn: ({ signal }) => api.artists.list(sort === 'name' ? {} : { query: { sort } }, { signal }),
      meta: { errorMessage: ClientMessages.errorFetchingArtists },
    }),
  /** GET /artists?limit: the first artists of the list, for a shelf (the whole list is thousands at library scale). */
  first: (limit: number) =>
    queryOptions({
      queryKey: artistKeys.first(limit),
      queryFn: ({ signal }) => api.artists.list({ query: { limit } }, { signal }),
      meta: { errorMessage: ClientMessages.errorFetchingArtists },
    }),
  /** GET /artists/{id}: one artist, for a link to their page (which reads the artist from navigation state). */
  detail: (artistId: number) =>
    queryOptions({
      queryKey: [...artistKeys.all, 'detail', artistId] as const,
      queryFn: ({ signal }) => api.artists.get({ id: artistId }, { signal }),
      staleTime: 60_000,
    }),
  /** GET /api/artists/{id}/credits, page by page: the songs that credit the artist as composer, producer… */
  credits: (artistId: number) =>
    infiniteQueryOptions({
      queryKey: songKeys.credits(artistId),
      queryFn: async ({ pageParam, signal }): Promise<CreditsPage> => {
        const query = pageParam === null ? {} : { cursor: pageParam };
        const page = await api.artists.credits({ id: artistId, query }, { signal });
        return {
          items: page.items.map((credit) => credit.song),
          roles: Object.fromEntries(page.items.map((credit) => [credit.song.id, credit.roles])),
          nextCursor: page.nextCursor,
          total: page.total,
        };
      },
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
    }),
};
