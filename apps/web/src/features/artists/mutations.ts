import { useMutation, useQueryClient } from '@tanstack/react-query';
import { artistKeys, songKeys } from '../../lib/query-keys.js';
import { createArtist } from './artists.api.js';

export function useCreateArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => createArtist(form),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: artistKeys.all });
      // The song data answer carries artists too.
      void queryClient.invalidateQueries({ queryKey: songKeys.data() });
    },
  });
}
