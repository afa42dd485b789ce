import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Playlist, Song } from '@tonearm/contract';
import { songKeys } from '../../lib/query-keys.js';
import {
  addSongToPlaylist,
  createPlaylist,
  deletePlaylist,
  removeSongFromPlaylist,
  reorderPlaylist,
  updatePlaylist,
} from './playlists.api.js';
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
    onSuccess: (_answer, playlistId) => {
      // The open playlist is gone: drop it instead of refetching it into a 404.
      queryClient.removeQueries({ queryKey: playlistKeys.detail(playlistId) });
      queryClient.removeQueries({ queryKey: songKeys.playlist(playlistId) });
      void queryClient.invalidateQueries({ queryKey: playlistKeys.lists() });
    },
  });
}

export function useUpdatePlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ playlistId, form }: { playlistId: number; form: FormData }) => updatePlaylist(playlistId, form),
    onSuccess: (playlist) => {
      invalidatePlaylists(queryClient, playlist.id);
    },
  });
}

/** Moves a song: the list changes at once and goes back if the server refuses the new order. */
export function useReorderPlaylist(playlistId: number) {
  const queryClient = useQueryClient();
  const songsKey = songKeys.playlist(playlistId);
  return useMutation({
    mutationFn: (songs: readonly Song[]) =>
      reorderPlaylist(
        playlistId,
        songs.map((song) => song.id),
      ),
    onMutate: async (songs) => {
      await queryClient.cancelQueries({ queryKey: songsKey });
      const previous = queryClient.getQueryData<Song[]>(songsKey);
      queryClient.setQueryData<Song[]>(songsKey, [...songs]);
      return { previous };
    },
    onError: (_error, _songs, context) => {
      if (context?.previous) queryClient.setQueryData(songsKey, context.previous);
    },
    onSuccess: (playlist) => {
      queryClient.setQueryData<Playlist>(playlistKeys.detail(playlistId), playlist);
      void queryClient.invalidateQueries({ queryKey: playlistKeys.lists() });
    },
  });
}
