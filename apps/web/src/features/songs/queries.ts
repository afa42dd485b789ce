import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ClientMessages } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { artistKeys, songKeys, type SongFilter } from '../../lib/query-keys.js';
import { queryRetryOptions, songLoadRetryPolicy } from '../../lib/retry-policy.js';
import { fetchSongData, fetchSongs } from './songs.api.js';

/** Song picker page size. */
export const FIND_SONGS_LIMIT = 20;

/** The server's page limit: the Liked view lists up to this many. */
export const LIKED_SONGS_LIMIT = 500;

/** SPEC §4 song loading: every 5 s until songs arrive, at most 5 failures, then the red alert. */
const songLoading = {
  ...queryRetryOptions(songLoadRetryPolicy),
  meta: { errorMessage: ClientMessages.errorFetchingSongs },
};

export const songQueries = {
  list: (filter: SongFilter = {}) =>
    queryOptions({
      queryKey: songKeys.list(filter),
      queryFn: ({ signal }) => fetchSongs(filter, signal),
      ...songLoading,
    }),
  data: () =>
    queryOptions({
      queryKey: songKeys.data(),
      queryFn: async ({ signal, client }) => {
        const data = await fetchSongData(signal);
        // The answer carries the artists as well; fill their cache unless a fresher list is there.
        if (client.getQueryData(artistKeys.list()) === undefined) client.setQueryData(artistKeys.list(), data.artists);
        return data;
      },
      staleTime: Number.POSITIVE_INFINITY,
      ...songLoading,
    }),
  /** The caller's liked songs, most recently liked first. */
  liked: () =>
    queryOptions({
      queryKey: songKeys.liked(),
      queryFn: ({ signal }) => api.likes.list({ query: { limit: LIKED_SONGS_LIMIT } }, { signal }),
      ...songLoading,
    }),
  /** A page of songs in the server's order (no shuffle): the playlist editor's song picker. */
  find: (q: string) =>
    queryOptions({
      queryKey: songKeys.find(q),
      queryFn: ({ signal }) =>
        api.songs.list({ query: { q: q === '' ? undefined : q, limit: FIND_SONGS_LIMIT } }, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** Songs of a playlist, in playlist order. */
  playlist: (playlistId: number) =>
    queryOptions({
      queryKey: songKeys.playlist(playlistId),
      queryFn: ({ signal }) => api.songs.inPlaylist({ id: playlistId }, { signal }),
      ...songLoading,
    }),
};
