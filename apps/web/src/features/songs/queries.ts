import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ClientMessages } from '@tonearm/contract';
import { queryRetryOptions, songLoadRetryPolicy } from '../../lib/retry-policy.js';
import { artistKeys } from '../artists/queries.js';
import {
  fetchLikedSongs,
  fetchPlaylistSongs,
  fetchSongData,
  fetchSongs,
  findSongs,
  searchCatalogue,
  type SongFilter,
} from './songs.api.js';

export const songKeys = {
  all: ['songs'] as const,
  lists: () => [...songKeys.all, 'list'] as const,
  list: (filter: SongFilter) => [...songKeys.lists(), filter] as const,
  /** GET /api/songs/data: songs and artists together (premium users and admins). */
  data: () => [...songKeys.all, 'data'] as const,
  playlist: (playlistId: number) => [...songKeys.all, 'playlist', playlistId] as const,
  liked: () => [...songKeys.all, 'liked'] as const,
  /** Search answers carry songs (with likeSong), so they live under songKeys and follow like updates. */
  search: (q: string) => [...songKeys.all, 'search', q] as const,
  find: (q: string) => [...songKeys.all, 'find', q] as const,
};

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
  search: (q: string) =>
    queryOptions({
      queryKey: songKeys.search(q),
      queryFn: ({ signal }) => searchCatalogue(q, signal),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
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
