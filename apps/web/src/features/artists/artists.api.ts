import type { Artist } from '@tonearm/contract';
import { getJson, sendForJson } from '../../lib/api-client.js';

export function fetchArtists(signal?: AbortSignal): Promise<Artist[]> {
  return getJson<Artist[]>('/artists', signal);
}

/** POST /artists (admin): multipart name and optional image. */
export function createArtist(form: FormData): Promise<Artist> {
  return sendForJson<Artist>('/artists', 'POST', form);
}
