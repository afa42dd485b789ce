import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { songKeys } from '../songs/queries.js';
import { addSongToPlaylist, createPlaylist, deletePlaylist, removeSongFromPlaylist } from './playlists.api.js';
import { playlistKeys } from './queries.js';

function invalidatePlaylists(queryClient: QueryClient, playlistId?: number): void {
  void queryClient.invalidateQueries({ queryKey: playlistKeys.all });
  if (playlistId !== undefined) void queryClient.invalidateQueries({ queryKey: songKeys.playlist(playlistId) });
}

export function useAddSongToPlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ playlistId, songId }: { playlistId: number; songId: number }) =>
      addSongToPlaylist(playlistId, songId),
    onSuccess: (_text, { playlistId }) => {
      invalidatePlaylists(queryClient, playlistId);
    },
  });
}

export function useRemoveSongFromPlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ playlistId, songId }: { playlistId: number; songId: number }) =>
      removeSongFromPlaylist(playlistId, songId),
    onSuccess: (_text, { playlistId }) => {
      invalidatePlaylists(queryClient, playlistId);
    },
  });
}

export function useCreatePlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => createPlaylist(form),
    onSuccess: () => {
      invalidatePlaylists(queryClient);
    },
  });
}

export function useDeletePlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (playlistId: number) => deletePlaylist(playlistId),
    onSuccess: () => {
      invalidatePlaylists(queryClient);
    },
  });
}
