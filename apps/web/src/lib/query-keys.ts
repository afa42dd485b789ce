import type { SongSource } from './song-sources.js';

/**
 * Cache keys that several features share. Songs show up in many lists (catalogue, playlists, search, liked), and a
 * feature that changes songs or artists refreshes what the others show through these keys; every other feature keeps
 * its keys in its own queries.ts. Every cache under `songKeys.all` holds songs, so a like updates them all.
 */
export const songKeys = {
  all: ['songs'] as const,
  /** A source's pages (an infinite query of SongPage); a playlist's sit under `playlist(id)`, the liked under `liked()`. */
  pages: (source: SongSource) => {
    switch (source.kind) {
      case 'catalogue': {
        const { artistId, genre, order, direction, seed } = source;
        return [...songKeys.all, 'catalogue', { artistId, genre, order, direction, seed }] as const;
      }
      case 'liked':
        return [...songKeys.liked(), 'pages'] as const;
      case 'playlist':
        return [...songKeys.playlist(source.playlistId), 'pages'] as const;
      case 'search':
        return [...songKeys.search(source.q), 'pages'] as const;
      case 'radio':
        return [...songKeys.all, 'radio', [...source.seedIds], 'pages'] as const;
    }
  },
  /** Everything cached of one playlist's songs: its pages, and the whole list the editor loads. */
  playlist: (playlistId: number) => [...songKeys.all, 'playlist', playlistId] as const,
  /** A playlist's songs, every one (the playlist editor). */
  playlistAll: (playlistId: number) => [...songKeys.playlist(playlistId), 'all'] as const,
  liked: () => [...songKeys.all, 'liked'] as const,
  /** One album with its songs (an object with `songs`, so likes and song edits reach it too). */
  album: (albumId: number) => [...songKeys.all, 'album', albumId] as const,
  /** A library folder's pages (objects with `songs`, so likes and song edits reach them too). */
  folder: (libraryId: number, path: string) => [...songKeys.all, 'folder', libraryId, path] as const,
  /** Search answers carry songs (with likeSong), so they live under songKeys and follow like updates. */
  search: (q: string) => [...songKeys.all, 'search', q] as const,
  /** Issue 25: the pages of the songs that credit an artist as composer, producer… (their songs as `items`). */
  credits: (artistId: number) => [...songKeys.all, 'credits', artistId] as const,
};

export const artistKeys = {
  all: ['artists'] as const,
  list: () => [...artistKeys.all, 'list'] as const,
  first: (limit: number) => [...artistKeys.all, 'first', limit] as const,
};

/** Songs' lyrics (issue 27): apart from songKeys, whose caches all hold songs. */
export const lyricsKeys = {
  all: ['lyrics'] as const,
  song: (songId: number) => [...lyricsKeys.all, songId] as const,
};
