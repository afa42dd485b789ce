import type { Song, SongsDataResponse } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import type { SongFilter } from '../../lib/query-keys.js';
import { createStableShuffler } from '../../lib/shuffle.js';

// SPEC §7: song lists arrive shuffled. One order per page session, so refetches do not reshuffle the screen.
const shuffleSongs = createStableShuffler<Song>((song) => song.id);

/** The catalogue (or one artist's songs), shuffled. */
export async function fetchSongs(filter: SongFilter, signal?: AbortSignal): Promise<Song[]> {
  return shuffleSongs(await api.songs.list({ query: { artistId: filter.artistId } }, { signal }));
}

/** Songs and artists together (premium users and admins), the songs shuffled. */
export async function fetchSongData(signal?: AbortSignal): Promise<SongsDataResponse> {
  const data = await api.songs.data({}, { signal });
  return { songs: shuffleSongs(data.songs), artists: data.artists };
}
