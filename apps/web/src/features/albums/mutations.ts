import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';
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
