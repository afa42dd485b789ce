import { api } from './api.js';

/**
 * Downloaded audio lives in Cache Storage under the song's own URL (/media/audio/<key>), with its small cover under
 * the cover's URL, so the service worker answers the player's requests for them offline. Each user has a cache of
 * their own: the worker answers only from the signed-in user's. This module runs both in the page and in the worker.
 */
export const OFFLINE_AUDIO_CACHE_PREFIX = 'tonearm-audio-u';

/** Before downloads were kept per user: one cache for whoever was signed in. */
export const LEGACY_AUDIO_CACHE = 'tonearm-audio-v1';

export function offlineAudioCache(userId: number): string {
  return `${OFFLINE_AUDIO_CACHE_PREFIX}${userId}`;
}

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

function openCache(userId: number): Promise<Cache> {
  if (typeof caches === 'undefined') return Promise.reject(new OfflineUnavailableError());
  return caches.open(offlineAudioCache(userId));
}

/**
 * Fetches the whole file from the download endpoint (premium users and admins; others get a 403) and stores it under the song's URL. Resolves with its size in
 * bytes; rejects with the server's ApiError (403 for a free account) or a NetworkError.
 */
export async function fetchIntoCache(target: DownloadTarget, userId: number): Promise<number> {
  const cache = await openCache(userId);
  const response = await api.downloads.song({ id: target.songId });
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

export async function removeFromCache(target: Pick<DownloadTarget, 'link' | 'cover'>, userId: number): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(offlineAudioCache(userId));
  await cache.delete(target.link);
  if (target.cover !== null) await cache.delete(target.cover);
}

async function storedSize(cache: Cache, link: string): Promise<number | null> {
  const response = await cache.match(link);
  if (!response) return null;
  const declared = Number(response.headers.get('content-length'));
  return Number.isFinite(declared) && declared > 0 ? declared : (await response.blob()).size;
}

/** Bytes stored for `link` by the user, or null when they have not downloaded it on this device. */
export async function cachedAudioSize(link: string, userId: number): Promise<number | null> {
  if (typeof caches === 'undefined') return null;
  return storedSize(await caches.open(offlineAudioCache(userId)), link);
}

/** `cachedAudioSize` of every link, the user's cache opened once (the Downloaded page may list thousands). */
export async function cachedAudioSizes(links: readonly string[], userId: number): Promise<Map<string, number | null>> {
  if (typeof caches === 'undefined') return new Map(links.map((link) => [link, null]));
  const cache = await caches.open(offlineAudioCache(userId));
  return new Map(await Promise.all(links.map(async (link) => [link, await storedSize(cache, link)] as const)));
}

/** The paths (not full URLs) of everything in the user's download cache. */
export async function cachedPaths(userId: number): Promise<string[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(offlineAudioCache(userId));
  const requests = await cache.keys();
  return requests.map((request) => new URL(request.url).pathname + new URL(request.url).search);
}

/**
 * The cache of before per-user downloads: given to `adoptBy` (the user signed in when it was filled), or, when nobody
 * can say whose it is, deleted.
 */
export async function settleLegacyAudio(adoptBy: number | null): Promise<void> {
  if (typeof caches === 'undefined' || !(await caches.has(LEGACY_AUDIO_CACHE))) return;
  if (adoptBy !== null) {
    const legacy = await caches.open(LEGACY_AUDIO_CACHE);
    const target = await caches.open(offlineAudioCache(adoptBy));
    for (const request of await legacy.keys()) {
      const response = await legacy.match(request);
      if (response) await target.put(request, response);
    }
  }
  await caches.delete(LEGACY_AUDIO_CACHE);
}
