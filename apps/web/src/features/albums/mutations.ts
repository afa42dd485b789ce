import type { Album, AlbumEditFields } from '@tonearm/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { albumKeys } from './queries.js';

/** Admins: a new cover for the album (`albums.setCover`); the album and every list of albums show it after. */
export function useSetAlbumCover(albumId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: File) => api.albums.setCover({ id: albumId, form: { image } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: songKeys.album(albumId) });
      void queryClient.invalidateQueries({ queryKey: albumKeys.all });
    },
  });
}

/** Admins: the album's name and year (`albums.update`); the album page and every list of albums show them after. */
export function useUpdateAlbum(albumId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: AlbumEditFields) => api.albums.update({ id: albumId, body: changes }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: songKeys.album(albumId) });
      void queryClient.invalidateQueries({ queryKey: albumKeys.all });
    },
  });
}

/**
 * Issue 28: the caller's stars on the album (0 clears), shown at once on its page (songKeys.album's Album); a refused
 * rating puts back what was there and says so.
 */
export function useRateAlbum(albumId: number) {
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const key = songKeys.album(albumId);
  const apply = (rating: number | null): void => {
    queryClient.setQueryData<Album>(key, (album) => album && { ...album, rating });
  };
  return useMutation({
    mutationFn: (rating: number) =>
      rating === 0
        ? api.ratings.unrateAlbum({ id: albumId })
        : api.ratings.rateAlbum({ id: albumId, body: { rating } }),
    onMutate: async (rating) => {
      // A refetch under way would land without the change.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const before = queryClient.getQueryData<Album>(key)?.rating ?? null;
      apply(rating === 0 ? null : rating);
      return { before };
    },
    onError: (_error, _rating, context) => {
      apply(context?.before ?? null);
      alerts.error(UiMessages.ratingFailed);
    },
  });
}
