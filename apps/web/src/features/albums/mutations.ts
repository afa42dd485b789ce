import type { AlbumEditFields } from '@tonearm/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';
import { useOptimisticRating } from '../ratings/optimistic-rating.js';
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
 * Issue 28: the caller's stars on the album (0 clears), shown at once on its page (songKeys.album's Album); the lists
 * of albums are read again (one sorted by rating changes order).
 */
export function useRateAlbum(albumId: number) {
  return useOptimisticRating(
    songKeys.album(albumId),
    (rating) =>
      rating === 0
        ? api.ratings.unrateAlbum({ id: albumId })
        : api.ratings.rateAlbum({ id: albumId, body: { rating } }),
    [albumKeys.all],
  );
}
