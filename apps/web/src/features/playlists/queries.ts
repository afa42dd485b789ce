import { queryOptions } from '@tanstack/react-query';
import { ClientMessages, isAdmin, type User } from '@tonearm/contract';
import { isNetworkError } from '../../lib/api-client.js';
import { api } from '../../lib/api.js';

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
      ...playlistLoading,
    }),
};
