import type { APIRequestContext, APIResponse } from '@playwright/test';
import { gradientPng, sineWav } from './media-files.js';

/** The fields of the Song JSON the specs read. */
export interface SongSummary {
  id: number;
  name: string;
  artistName: string;
  link: string;
}

interface ArtistSummary {
  id: number;
  name: string;
}

async function expectOk(response: APIResponse, what: string): Promise<APIResponse> {
  if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
  return response;
}

export async function artistIdByName(api: APIRequestContext, name: string): Promise<number> {
  const response = await expectOk(await api.get('/artists'), 'GET /artists');
  const artist = ((await response.json()) as ArtistSummary[]).find((entry) => entry.name === name);
  if (!artist) throw new Error(`No artist named ${name}`);
  return artist.id;
}

export async function listSongs(api: APIRequestContext): Promise<SongSummary[]> {
  const response = await expectOk(await api.get('/api/songs'), 'GET /api/songs');
  return (await response.json()) as SongSummary[];
}

/**
 * Uploads a song as an admin (POST /api/songs, multipart). `frequency` must differ between songs of one server:
 * the server refuses audio it already has.
 */
export async function addSongViaApi(
  api: APIRequestContext,
  song: { name: string; genre: string; artistName: string; frequency: number },
): Promise<SongSummary> {
  const artistId = await artistIdByName(api, song.artistName);
  await expectOk(
    await api.post('/api/songs', {
      multipart: {
        name: song.name,
        genre: song.genre,
        artistId: String(artistId),
        songFile: { name: 'tone.wav', mimeType: 'audio/wav', buffer: sineWav({ frequency: song.frequency }) },
        imageFile: { name: 'cover.png', mimeType: 'image/png', buffer: await gradientPng() },
      },
    }),
    `POST /api/songs ${song.name}`,
  );
  const added = (await listSongs(api)).find((entry) => entry.name === song.name);
  if (!added) throw new Error(`${song.name} is not listed after upload`);
  return added;
}

/** Creates an empty playlist owned by the session's user (POST /api/playlists, multipart). */
export async function createPlaylistViaApi(api: APIRequestContext, name: string, type = 'Mixtape'): Promise<number> {
  const response = await expectOk(
    await api.post('/api/playlists', { multipart: { name, type, songs: '[]' } }),
    `POST /api/playlists ${name}`,
  );
  return ((await response.json()) as { id: number }).id;
}

export async function playlistSongIds(api: APIRequestContext, playlistId: number): Promise<number[]> {
  const response = await expectOk(await api.get(`/api/playlists/${playlistId}`), 'GET /api/playlists/{id}');
  return ((await response.json()) as { songIds: number[] }).songIds;
}
