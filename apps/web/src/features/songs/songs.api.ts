import type { Song, SongsDataResponse } from '@tonearm/contract';
import { getJson, send, sendForText, withQuery } from '../../lib/api-client.js';
import type { SongFilter } from '../../lib/query-keys.js';
import { createStableShuffler } from '../../lib/shuffle.js';

/** The server's page limit: the Liked view lists up to this many. */
export const LIKED_SONGS_LIMIT = 500;

// SPEC §7: song lists arrive shuffled. One order per page session, so refetches do not reshuffle the screen.
const shuffleSongs = createStableShuffler<Song>((song) => song.id);

export async function fetchSongs(filter: SongFilter, signal?: AbortSignal): Promise<Song[]> {
  return shuffleSongs(await getJson<Song[]>(withQuery('/api/songs', { artistId: filter.artistId }), signal));
}

export async function fetchSongData(signal?: AbortSignal): Promise<SongsDataResponse> {
  const data = await getJson<SongsDataResponse>('/api/songs/data', signal);
  return { songs: shuffleSongs(data.songs), artists: data.artists };
}

/** A page of songs in the server's order (no shuffle): the playlist editor's song picker. */
export function findSongs(q: string, limit: number, signal?: AbortSignal): Promise<Song[]> {
  return getJson<Song[]>(withQuery('/api/songs', { q: q === '' ? undefined : q, limit }), signal);
}

/** The caller's liked songs, most recently liked first. */
export function fetchLikedSongs(signal?: AbortSignal): Promise<Song[]> {
  return getJson<Song[]>(withQuery('/api/songs/liked', { limit: LIKED_SONGS_LIMIT }), signal);
}

/** Songs of a playlist, in playlist order. */
export function fetchPlaylistSongs(playlistId: number, signal?: AbortSignal): Promise<Song[]> {
  return getJson<Song[]>(`/api/songs/playlistId/${playlistId}`, signal);
}

/** POST /api/songs (add) or PUT /api/songs/{id} (edit); answers the server's text. */
export function saveSong(form: FormData, songId?: number): Promise<string> {
  return songId === undefined
    ? sendForText('/api/songs', 'POST', form)
    : sendForText(`/api/songs/${songId}`, 'PUT', form);
}

export function deleteSong(songId: number): Promise<string> {
  return sendForText(`/api/songs/${songId}`, 'DELETE');
}

export async function setSongLiked(songId: number, liked: boolean): Promise<void> {
  await send(`/api/songs/${songId}/like`, liked ? 'PUT' : 'DELETE');
}

/** The audio bytes of a song (premium or admin); other users get the server's 403 message. */
export async function downloadSongAudio(songId: number): Promise<Blob> {
  const response = await send(`/api/songs/${songId}/download`);
  return response.blob();
}
