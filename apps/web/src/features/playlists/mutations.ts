import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { endpoints, Playlist, Song } from '@tonearm/contract';
import { api, type FormValues } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';
import { playlistKeys } from './queries.js';

/** `playlists.create`: name, type, isPublic, songs (a JSON array of ids) and an optional image. */
export type NewPlaylistForm = FormValues<typeof endpoints.playlists.create>;
/** `playlists.update`: the same fields and removeImage; only what is sent changes. */
export type PlaylistChangesForm = FormValues<typeof endpoints.playlists.update>;

interface PlaylistSong {
  playlistId: number;
  songId: number;
}

function invalidatePlaylists(queryClient: QueryClient, playlistId?: number): void {
  void queryClient.invalidateQueries({ queryKey: playlistKeys.all });
  if (playlistId !== undefined) void queryClient.invalidateQueries({ queryKey: songKeys.playlist(playlistId) });
}

export function useAddSongToPlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    // Answers the server's text ("Song added to playlist").
    mutationFn: (target: PlaylistSong) => api.playlists.addSong(target),
    onSuccess: (_text, { playlistId }) => {
      invalidatePlaylists(queryClient, playlistId);
    },
  });
}

export function useRemoveSongFromPlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: PlaylistSong) => api.playlists.removeSong(target),
    onSuccess: (_text, { playlistId }) => {
      invalidatePlaylists(queryClient, playlistId);
    },
  });
}

export function useCreatePlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: NewPlaylistForm) => api.playlists.create({ form }),
    onSuccess: () => {
      invalidatePlaylists(queryClient);
    },
  });
}

export function useDeletePlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (playlistId: number) => api.playlists.remove({ id: playlistId }),
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
    mutationFn: ({ playlistId, form }: { playlistId: number; form: PlaylistChangesForm }) =>
      api.playlists.update({ id: playlistId, form }),
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
    // The playlist's song ids, every one exactly once, in the new order.
    mutationFn: (songs: readonly Song[]) =>
      api.playlists.reorder({ id: playlistId, body: { songIds: songs.map((song) => song.id) } }),
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
