import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ClientMessages, isAdmin, type User } from '@tonearm/contract';
import { isNetworkError, unlessNotFound } from '../../lib/api-client.js';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';
import { fetchSongPage, type SongSource } from '../../lib/song-sources.js';

export const playlistKeys = {
  all: ['playlists'] as const,
  /** Every list of playlists (not the single-playlist details). */
  lists: () => [...playlistKeys.all, 'list'] as const,
  visible: () => [...playlistKeys.lists(), 'visible'] as const,
  admin: () => [...playlistKeys.lists(), 'admin'] as const,
  user: (userId: number) => [...playlistKeys.lists(), 'user', userId] as const,
  detail: (playlistId: number) => [...playlistKeys.all, 'detail', playlistId] as const,
};

/**
 * SPEC §8 has two playlist load messages. Tonearm uses them as:
 * - "Failed to fetch playlists": the server answered, but not ok (401, 403, 5xx ...);
 * - "Failed to load playlists.": no answer at all (network error, server down).
 */
export function playlistLoadErrorMessage(error: Error): string {
  return isNetworkError(error) ? ClientMessages.failedToLoadPlaylists : ClientMessages.failedToFetchPlaylists;
}

const playlistLoading = { meta: { errorMessage: playlistLoadErrorMessage } };

export const playlistQueries = {
  /** `playlists.list`: own and public playlists (admins: all). */
  visible: () =>
    queryOptions({
      queryKey: playlistKeys.visible(),
      queryFn: ({ signal }) => api.playlists.list({}, { signal }),
      ...playlistLoading,
    }),
  /** The "Select a Playlist" popup: admins list every playlist (`playlists.listAll`), others their own. */
  forPicker: (user: Pick<User, 'id' | 'role'>) => {
    const admin = isAdmin(user);
    return queryOptions({
      queryKey: admin ? playlistKeys.admin() : playlistKeys.user(user.id),
      queryFn: ({ signal }) =>
        admin ? api.playlists.listAll({}, { signal }) : api.playlists.ofUser({ id: user.id }, { signal }),
      ...playlistLoading,
    });
  },
  detail: (playlistId: number) =>
    queryOptions({
      queryKey: playlistKeys.detail(playlistId),
      queryFn: ({ signal }) => api.playlists.get({ id: playlistId }, { signal }),
      // One that is not there (deleted, or never shared) is the page's not-found state, not an alert.
      meta: { errorMessage: unlessNotFound(playlistLoadErrorMessage) },
    }),
};

/** Songs per page of the playlist editor's song picker. */
export const PICKER_PAGE_SIZE = 50;

/** What the song picker lists: the newest songs of the catalogue while its box is empty, else the hits for `q`. */
export function pickerSource(q: string): SongSource {
  return q === '' ? { kind: 'catalogue', order: 'newest' } : { kind: 'search', q };
}

export const songPickerQueries = {
  /** The picker's list a page at a time (`songs.page`); under songKeys, so added and deleted songs show. */
  songs: (q: string) =>
    infiniteQueryOptions({
      queryKey: [...songKeys.all, 'picker', q] as const,
      queryFn: ({ pageParam, signal }) =>
        fetchSongPage(pickerSource(q), { cursor: pageParam, limit: PICKER_PAGE_SIZE, signal }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
      placeholderData: keepPreviousData,
    }),
};
