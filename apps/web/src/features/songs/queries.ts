import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ClientMessages } from '@tonearm/contract';
import { artistKeys, songKeys, type SongFilter } from '../../lib/query-keys.js';
import { queryRetryOptions, songLoadRetryPolicy } from '../../lib/retry-policy.js';
import { fetchLikedSongs, fetchPlaylistSongs, fetchSongData, fetchSongs, findSongs } from './songs.api.js';

/** Song picker page size. */
export const FIND_SONGS_LIMIT = 20;

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
  liked: () =>
    queryOptions({
      queryKey: songKeys.liked(),
      queryFn: ({ signal }) => fetchLikedSongs(signal),
      ...songLoading,
    }),
  find: (q: string) =>
    queryOptions({
      queryKey: songKeys.find(q),
      queryFn: ({ signal }) => findSongs(q, FIND_SONGS_LIMIT, signal),
      placeholderData: keepPreviousData,
    }),
  playlist: (playlistId: number) =>
    queryOptions({
      queryKey: songKeys.playlist(playlistId),
      queryFn: ({ signal }) => fetchPlaylistSongs(playlistId, signal),
      ...songLoading,
    }),
};
