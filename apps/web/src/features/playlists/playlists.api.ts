import type { Playlist } from '@tonearm/contract';
import { getJson, send, sendForJson, sendForText } from '../../lib/api-client.js';

/** Own and public playlists (admins: all). */
export function fetchPlaylists(signal?: AbortSignal): Promise<Playlist[]> {
  return getJson<Playlist[]>('/api/playlists', signal);
}

export function fetchAdminPlaylists(signal?: AbortSignal): Promise<Playlist[]> {
  return getJson<Playlist[]>('/api/playlists/admin', signal);
}

export function fetchUserPlaylists(userId: number, signal?: AbortSignal): Promise<Playlist[]> {
  return getJson<Playlist[]>(`/api/playlists/user/${userId}`, signal);
}

export function fetchPlaylist(playlistId: number, signal?: AbortSignal): Promise<Playlist> {
  return getJson<Playlist>(`/api/playlists/${playlistId}`, signal);
}

/** Answers the server's text ("Song added to playlist"). */
export function addSongToPlaylist(playlistId: number, songId: number): Promise<string> {
  return sendForText(`/api/playlists/${playlistId}/songs/${songId}`, 'PUT');
}

export function removeSongFromPlaylist(playlistId: number, songId: number): Promise<string> {
  return sendForText(`/api/playlists/${playlistId}/songs/${songId}`, 'DELETE');
}

/** POST /api/playlists (multipart name, type, isPublic, image?, songs). The new playlist comes back as JSON. */
export async function createPlaylist(form: FormData): Promise<Playlist> {
  const response = await send('/api/playlists', 'POST', form);
  return (await response.json()) as Playlist;
}

/** PUT /api/playlists/updatePlaylist/{id}: the same multipart fields as create; only what is sent changes. */
export function updatePlaylist(playlistId: number, form: FormData): Promise<Playlist> {
  return sendForJson<Playlist>(`/api/playlists/updatePlaylist/${playlistId}`, 'PUT', form);
}

/** PUT /api/playlists/{id}/order: the playlist's song ids, every one exactly once, in the new order. */
export function reorderPlaylist(playlistId: number, songIds: readonly number[]): Promise<Playlist> {
  return sendForJson<Playlist>(`/api/playlists/${playlistId}/order`, 'PUT', { songIds });
}

export async function deletePlaylist(playlistId: number): Promise<void> {
  await send(`/api/playlists/${playlistId}`, 'DELETE');
}
