import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Song, SongPage } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { artistKeys, songKeys } from '../../lib/query-keys.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import type { SongForm } from './song-form.js';

/** Songs and artists change together (an artist's `songs` ids), so both are refetched, every loaded page of them. */
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
    onSuccess: (_text, song) => {
      // Gone from every list at once (and from their counts), before the refetch confirms it.
      changeCachedSongs(queryClient, (songs) => songs.filter((entry) => entry.id !== song.id));
      invalidateCatalogue(queryClient);
    },
  });
}

/** Every cache under songKeys holds songs: a list, a page, an infinite query's pages, or an object with `songs`. */
type SongPages = InfiniteData<SongPage>;

/**
 * `change` applied to every song list inside a cached answer, whatever its shape: a list, a page's `items` (its
 * `total` follows when songs go), each page of an infinite query, or an object's `songs` (search answers).
 */
function changeSongs(cached: unknown, change: (songs: Song[]) => Song[]): unknown {
  if (Array.isArray(cached)) return change(cached as Song[]);
  if (typeof cached !== 'object' || cached === null) return cached;
  if ('pages' in cached && Array.isArray(cached.pages)) {
    return { ...cached, pages: (cached.pages as unknown[]).map((page) => changeSongs(page, change)) };
  }
  if ('items' in cached && Array.isArray(cached.items)) {
    const items = cached.items as Song[];
    const next = change(items);
    const total = 'total' in cached && typeof cached.total === 'number' ? cached.total : undefined;
    return total === undefined
      ? { ...cached, items: next }
      : { ...cached, items: next, total: total - items.length + next.length };
  }
  if ('songs' in cached && Array.isArray(cached.songs)) return { ...cached, songs: change(cached.songs as Song[]) };
  return cached;
}

/** Changes every cached song list at once. */
function changeCachedSongs(queryClient: QueryClient, change: (songs: Song[]) => Song[]): void {
  queryClient.setQueriesData<unknown>({ queryKey: songKeys.all }, (cached: unknown) => changeSongs(cached, change));
}

const likedPagesKey = songKeys.pages({ kind: 'liked' });

/** The liked list at once: a newly liked song goes first, an unliked one leaves, and the count follows. */
function withLikedSong(pages: SongPages | undefined, song: Song, liked: boolean): SongPages | undefined {
  const first = pages?.pages[0];
  if (!pages || !first) return pages;
  const present = pages.pages.some((page) => page.items.some((item) => item.id === song.id));
  if (liked === present) return pages;
  const delta = liked ? 1 : -1;
  return {
    ...pages,
    pages: pages.pages.map((page, index) => ({
      ...page,
      items: liked
        ? index === 0
          ? [{ ...song, likeSong: true }, ...page.items]
          : page.items
        : page.items.filter((item) => item.id !== song.id),
      total: page.total + delta,
    })),
  };
}

/**
 * Likes update every cached song list (every loaded page of every list) and the player's queue at once; refetching
 * the lists per click would be wasteful. The Liked list gains or loses the song at once too, and is refetched after.
 */
export function useLikeSong() {
  const queryClient = useQueryClient();
  const player = usePlayerControls();
  const alerts = useAlerts();
  const apply = (song: Song, liked: boolean): void => {
    changeCachedSongs(queryClient, (songs) =>
      songs.map((entry) => (entry.id === song.id ? { ...entry, likeSong: liked } : entry)),
    );
    queryClient.setQueryData<SongPages>(likedPagesKey, (pages) => withLikedSong(pages, song, liked));
    player.updateSong(song.id, { likeSong: liked });
  };
  return useMutation({
    mutationFn: ({ song, liked }: { song: Song; liked: boolean }) =>
      liked ? api.likes.like({ id: song.id }) : api.likes.unlike({ id: song.id }),
    onMutate: ({ song, liked }) => {
      apply(song, liked);
      // A refetch of the liked list already on its way would land without this change: it is dropped (the change
      // stays, as TanStack keeps a manual update made during a fetch), and onSettled asks again.
      void queryClient.cancelQueries({ queryKey: songKeys.liked() });
    },
    // Here rather than in the button's callbacks: unliking on the Liked page removes the button that asked.
    onError: (_error, { song, liked }) => {
      apply(song, !liked);
      alerts.error(UiMessages.likeFailed);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: songKeys.liked() });
    },
  });
}

/**
 * Issue 28: the caller's stars on a song (0 clears). Every cached list and the player's queue show them at once; a
 * refused rating puts back what was there and says so.
 */
export function useRateSong() {
  const queryClient = useQueryClient();
  const player = usePlayerControls();
  const alerts = useAlerts();
  const apply = (songId: number, rating: number | null): void => {
    changeCachedSongs(queryClient, (songs) =>
      songs.map((entry) => (entry.id === songId ? { ...entry, rating } : entry)),
    );
    player.updateSong(songId, { rating });
  };
  return useMutation({
    mutationFn: ({ song, rating }: { song: Song; rating: number }) =>
      rating === 0 ? api.ratings.unrateSong({ id: song.id }) : api.ratings.rateSong({ id: song.id, body: { rating } }),
    onMutate: ({ song, rating }) => {
      const before = (song as Partial<Song>).rating ?? null;
      apply(song.id, rating === 0 ? null : rating);
      return { before };
    },
    onError: (_error, { song }, context) => {
      apply(song.id, context?.before ?? null);
      alerts.error(UiMessages.ratingFailed);
    },
  });
}
