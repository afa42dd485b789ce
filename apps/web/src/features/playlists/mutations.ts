import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  ServerMessages,
  type endpoints,
  type Playlist,
  type SmartPlaylistCreate,
  type Song,
  type SongPage,
} from '@tonearm/contract';
import { isApiError } from '../../lib/api-client.js';
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

/** What adding several songs did: how many went in, and how many were in the playlist already. */
export interface AddedSongs {
  added: number;
  alreadyThere: number;
}

/**
 * Adds songs to a playlist in their order (an album's tracks), one `playlists.addSong` each: a song already there
 * (409 "Song already in playlist") is skipped, any other refusal stops the rest and fails the whole. Albums are a
 * few dozen songs at most, so the calls go one after another, keeping the order the playlist gets them in.
 */
export function useAddSongsToPlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ playlistId, songIds }: { playlistId: number; songIds: readonly number[] }) => {
      const result: AddedSongs = { added: 0, alreadyThere: 0 };
      for (const songId of songIds) {
        try {
          await api.playlists.addSong({ playlistId, songId });
          result.added += 1;
        } catch (error) {
          if (!isApiError(error, 409) || error.message !== ServerMessages.songAlreadyInPlaylist) throw error;
          result.alreadyThere += 1;
        }
      }
      return result;
    },
    // Also after a failure part of the way: the songs added before it are in the playlist.
    onSettled: (_result, _error, { playlistId }) => {
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

/** Issue 28: a new smart playlist (`playlists.createSmart`), or new name, sharing or rules for one (`updateSmart`). */
export function useSaveSmartPlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ playlistId, body }: { playlistId: number | null; body: SmartPlaylistCreate }) =>
      playlistId === null ? api.playlists.createSmart({ body }) : api.playlists.updateSmart({ id: playlistId, body }),
    onSuccess: (playlist) => {
      invalidatePlaylists(queryClient, playlist.id);
    },
  });
}

/** The loaded pages with the songs in a new order, each page keeping its size. */
function reorderedPages(pages: InfiniteData<SongPage>, songs: readonly Song[]): InfiniteData<SongPage> {
  let start = 0;
  return {
    ...pages,
    pages: pages.pages.map((page) => {
      const items = songs.slice(start, start + page.items.length);
      start += page.items.length;
      return { ...page, items };
    }),
  };
}

/**
 * Moves a song of a fully loaded playlist (its pages): the list changes at once and goes back if the server refuses
 * the new order.
 */
export function useReorderPlaylist(playlistId: number) {
  const queryClient = useQueryClient();
  const songsKey = songKeys.pages({ kind: 'playlist', playlistId });
  return useMutation({
    // The playlist's song ids, every one exactly once, in the new order.
    mutationFn: (songs: readonly Song[]) =>
      api.playlists.reorder({ id: playlistId, body: { songIds: songs.map((song) => song.id) } }),
    onMutate: async (songs) => {
      await queryClient.cancelQueries({ queryKey: songsKey });
      const previous = queryClient.getQueryData<InfiniteData<SongPage>>(songsKey);
      if (previous) queryClient.setQueryData(songsKey, reorderedPages(previous, songs));
      return { previous };
    },
    onError: (_error, _songs, context) => {
      if (context?.previous) queryClient.setQueryData(songsKey, context.previous);
    },
    onSuccess: (playlist) => {
      queryClient.setQueryData<Playlist>(playlistKeys.detail(playlistId), playlist);
      void queryClient.invalidateQueries({ queryKey: playlistKeys.lists() });
      // The editor's copy of the whole list; the pages on screen already hold the new order.
      void queryClient.invalidateQueries({ queryKey: songKeys.playlistAll(playlistId) });
    },
  });
}
