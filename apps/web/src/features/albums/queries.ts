import { queryOptions } from '@tanstack/react-query';
import type { AlbumSort } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { Paths } from '../../lib/paths.js';
import { songKeys } from '../../lib/query-keys.js';

/** How many albums a shelf or an artist's grid shows. */
export const ALBUM_GRID_SIZE = 24;

/**
 * Lists of albums (AlbumSummary, no songs) live under their own key; one album with its songs lives under songKeys
 * (songKeys.album), so likes and song edits reach it like every other song list.
 */
export const albumKeys = {
  all: ['albums'] as const,
  recent: () => [...albumKeys.all, 'recent'] as const,
  byArtist: (artistId: number) => [...albumKeys.all, 'artist', artistId] as const,
};

export const albumQueries = {
  /** `albums.get`: the album and its songs in disc and track order. */
  detail: (albumId: number) =>
    queryOptions({
      queryKey: songKeys.album(albumId),
      queryFn: ({ signal }) => api.albums.get({ id: albumId }, { signal }),
    }),
  /** The most recently added albums (the home page's shelf). */
  recent: () =>
    queryOptions({
      queryKey: albumKeys.recent(),
      queryFn: ({ signal }) => api.albums.list({ query: { sort: 'recent', limit: ALBUM_GRID_SIZE } }, { signal }),
    }),
  /** One album artist's albums by name (the artist page). */
  byArtist: (artistId: number, sort: AlbumSort = 'name') =>
    queryOptions({
      queryKey: sort === 'name' ? albumKeys.byArtist(artistId) : ([...albumKeys.byArtist(artistId), sort] as const),
      queryFn: ({ signal }) =>
        api.albums.list(
          { query: { artistId, limit: ALBUM_GRID_SIZE, ...(sort === 'name' ? {} : { sort }) } },
          { signal },
        ),
    }),
};

/** The album page's address. */
export function albumHref(albumId: number): string {
  return `${Paths.album}?id=${albumId}`;
}
