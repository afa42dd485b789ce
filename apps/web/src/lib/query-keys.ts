/**
 * Cache keys that several features share. Songs show up in many lists (catalogue, playlists, search, liked), and a
 * feature that changes songs or artists refreshes what the others show through these keys; every other feature keeps
 * its keys in its own queries.ts.
 */
/** Which songs a catalogue list holds (`songs.list` by `artistId`). */
export interface SongFilter {
  artistId?: number;
}

export const songKeys = {
  all: ['songs'] as const,
  lists: () => [...songKeys.all, 'list'] as const,
  list: (filter: SongFilter) => [...songKeys.lists(), filter] as const,
  /** `songs.data`: songs and artists together (premium users and admins). */
  data: () => [...songKeys.all, 'data'] as const,
  playlist: (playlistId: number) => [...songKeys.all, 'playlist', playlistId] as const,
  liked: () => [...songKeys.all, 'liked'] as const,
  /** Search answers carry songs (with likeSong), so they live under songKeys and follow like updates. */
  search: (q: string) => [...songKeys.all, 'search', q] as const,
  find: (q: string) => [...songKeys.all, 'find', q] as const,
};

export const artistKeys = {
  all: ['artists'] as const,
  list: () => [...artistKeys.all, 'list'] as const,
};
