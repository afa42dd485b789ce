import { send } from './api-client.js';

/**
 * Downloaded audio lives in Cache Storage under the song's own URL (/media/audio/<key>), with its small cover under
 * the cover's URL, so the service worker answers the player's requests for them offline. This module runs both in
 * the page and in the service worker.
 */
export const OFFLINE_AUDIO_CACHE = 'tonearm-audio-v1';

export interface DownloadTarget {
  songId: number;
  /** The song's audio URL: the cache key the player will ask for. */
  link: string;
  /** The cover thumbnail the Downloaded page shows, or null. */
  cover: string | null;
}

export class OfflineUnavailableError extends Error {
  constructor() {
    super('Offline downloads need a secure connection (https, or localhost).');
    this.name = 'OfflineUnavailableError';
  }
}

function openCache(): Promise<Cache> {
  if (typeof caches === 'undefined') return Promise.reject(new OfflineUnavailableError());
  return caches.open(OFFLINE_AUDIO_CACHE);
}

/** The download endpoint's URL: premium users and admins get the file, others a 403. */
export function downloadUrl(songId: number): string {
  return `/api/songs/${songId}/download`;
}

/**
 * Fetches the whole file from the download endpoint and stores it under the song's URL. Resolves with its size in
 * bytes; rejects with the server's ApiError (403 for a free account) or a NetworkError.
 */
export async function fetchIntoCache(target: DownloadTarget): Promise<number> {
  const cache = await openCache();
  const response = await send(downloadUrl(target.songId));
  const audio = await response.blob();
  const headers = {
    'Content-Type':
      (audio.type === '' ? null : audio.type) ?? response.headers.get('content-type') ?? 'application/octet-stream',
    'Content-Length': String(audio.size),
    'Accept-Ranges': 'bytes',
  };
  await cache.put(target.link, new Response(audio, { headers }));
  if (target.cover !== null) {
    try {
      const cover = await fetch(target.cover, { credentials: 'same-origin' });
      if (cover.ok) await cache.put(target.cover, cover);
    } catch {
      // The cover is a nicety; offline the Downloaded page shows a placeholder instead.
    }
  }
  return audio.size;
}

export async function removeFromCache(target: Pick<DownloadTarget, 'link' | 'cover'>): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(OFFLINE_AUDIO_CACHE);
  await cache.delete(target.link);
  if (target.cover !== null) await cache.delete(target.cover);
}

/** Bytes stored for `link`, or null when it is not downloaded on this device. */
export async function cachedAudioSize(link: string): Promise<number | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(OFFLINE_AUDIO_CACHE);
  const response = await cache.match(link);
  if (!response) return null;
  const declared = Number(response.headers.get('content-length'));
  return Number.isFinite(declared) && declared > 0 ? declared : (await response.blob()).size;
}

/** The paths (not full URLs) of everything in the download cache. */
export async function cachedPaths(): Promise<string[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(OFFLINE_AUDIO_CACHE);
  const requests = await cache.keys();
  return requests.map((request) => new URL(request.url).pathname + new URL(request.url).search);
}
