import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { endpoints } from '@tonearm/contract';
import { api, type FormValues } from '../../lib/api.js';
import { artistKeys } from '../../lib/query-keys.js';
import { useOptimisticRating } from '../ratings/optimistic-rating.js';
import { artistQueries } from './queries.js';

/** POST /artists (admin): the name and an optional image. */
type ArtistForm = FormValues<typeof endpoints.artists.create>;

export function useCreateArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: ArtistForm) => api.artists.create({ form }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: artistKeys.all });
    },
  });
}

/**
 * Issue 28: the caller's stars on the artist (0 clears), shown at once in its own answer (GET /artists/{id}); the
 * artists grid is read again (sorted by rating, its order changes).
 */
export function useRateArtist(artistId: number) {
  return useOptimisticRating(
    artistQueries.detail(artistId).queryKey,
    (rating) =>
      rating === 0
        ? api.ratings.unrateArtist({ id: artistId })
        : api.ratings.rateArtist({ id: artistId, body: { rating } }),
    [artistKeys.list()],
  );
}
