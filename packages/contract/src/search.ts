import { z } from 'zod';
import { Artist } from './artists.js';
import { DbId } from './common.js';
import { Playlist } from './playlists.js';
import { Song } from './songs.js';

export const SearchQuery = z.object({
  q: z.string().trim().max(200),
  limit: z.coerce.number().int().min(1).max(50).optional(),
});
export const SearchResponse = z.object({
  songs: z.array(Song),
  artists: z.array(Artist),
  playlists: z.array(Playlist),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const SongsDataResponse = z.object({ songs: z.array(Song), artists: z.array(Artist) });
export type SongsDataResponse = z.infer<typeof SongsDataResponse>;

export const PlayRequest = z.object({ songId: DbId });
