import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { endpoints } from '@tonearm/contract';
import { api, type FormValues } from '../../lib/api.js';
import { artistKeys } from '../../lib/query-keys.js';

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
