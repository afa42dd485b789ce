import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Song, SongsDataResponse } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { artistKeys, songKeys } from '../../lib/query-keys.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import type { SongForm } from './song-form.js';

/** Songs and artists change together (an artist's `songs` ids), so both are refetched. */
function invalidateCatalogue(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: songKeys.all });
  void queryClient.invalidateQueries({ queryKey: artistKeys.all });
}

export interface SaveSongInput {
  form: SongForm;
  /** Present when editing. */
  songId?: number | undefined;
}

/** Adds (POST) or edits (PUT) a song; answers the server's text. */
function saveSong({ form, songId }: SaveSongInput): Promise<string> {
  return songId === undefined ? api.songs.create({ form }) : api.songs.update({ id: songId, form });
}

export function useSaveSong() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSong,
    onSuccess: () => {
      invalidateCatalogue(queryClient);
    },
  });
}

export function useDeleteSong() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (song: Song) => api.songs.remove({ id: song.id }),
    onSuccess: () => {
      invalidateCatalogue(queryClient);
    },
  });
}

/**
 * Every cache under songKeys holds songs: a list, an object with a `songs` list (song data, search), or the pages of
 * an infinite query, each with its `items`.
 */
type CachedSongs = Song[] | SongsDataResponse | { songs: Song[] } | InfiniteData<{ items: Song[] }> | undefined;

function withLike(cached: CachedSongs, songId: number, liked: boolean): CachedSongs {
  const mark = (songs: Song[]): Song[] =>
    songs.map((song) => (song.id === songId ? { ...song, likeSong: liked } : song));
  if (cached === undefined) return cached;
  if (Array.isArray(cached)) return mark(cached);
  if ('pages' in cached)
    return { ...cached, pages: cached.pages.map((page) => ({ ...page, items: mark(page.items) })) };
  return { ...cached, songs: mark(cached.songs) };
}

/**
 * Likes update every cached song list and the player's queue at once; a refetch of 10 000 songs per click would be
 * wasteful. Only the Liked list itself is refetched, so a newly liked song appears there.
 */
export function useLikeSong() {
  const queryClient = useQueryClient();
  const player = usePlayerControls();
  const apply = (songId: number, liked: boolean): void => {
    queryClient.setQueriesData<CachedSongs>({ queryKey: songKeys.all }, (cached) => withLike(cached, songId, liked));
    player.updateSong(songId, { likeSong: liked });
  };
  return useMutation({
    mutationFn: ({ song, liked }: { song: Song; liked: boolean }) =>
      liked ? api.likes.like({ id: song.id }) : api.likes.unlike({ id: song.id }),
    onMutate: ({ song, liked }) => {
      apply(song.id, liked);
    },
    onError: (_error, { song, liked }) => {
      apply(song.id, !liked);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: songKeys.liked() });
    },
  });
}
