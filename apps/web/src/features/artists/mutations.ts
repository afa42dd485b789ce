import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Artist, endpoints } from '@tonearm/contract';
import { api, type FormValues } from '../../lib/api.js';
import { artistKeys } from '../../lib/query-keys.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
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
 * Issue 28: the caller's stars on the artist (0 clears), shown at once from the artist's own answer (GET /artists/{id},
 * the only one that carries them); a refused rating puts back what was there and says so.
 */
export function useRateArtist(artistId: number) {
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const { queryKey } = artistQueries.detail(artistId);
  const apply = (rating: number | null): void => {
    queryClient.setQueryData<Artist>(queryKey, (artist) => artist && { ...artist, rating });
  };
  return useMutation({
    mutationFn: (rating: number) =>
      rating === 0
        ? api.ratings.unrateArtist({ id: artistId })
        : api.ratings.rateArtist({ id: artistId, body: { rating } }),
    onMutate: async (rating) => {
      await queryClient.cancelQueries({ queryKey, exact: true });
      const before = queryClient.getQueryData<Artist>(queryKey)?.rating ?? null;
      apply(rating === 0 ? null : rating);
      return { before };
    },
    onError: (_error, _rating, context) => {
      apply(context?.before ?? null);
      alerts.error(UiMessages.ratingFailed);
    },
  });
}
