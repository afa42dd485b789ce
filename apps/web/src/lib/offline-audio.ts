/**
 * Downloaded audio is kept in Cache Storage under the song's own URL, so the service worker (a later issue)
 * can answer /media/audio requests offline. Where Cache Storage is missing (plain http on a LAN address) the
 * song is still listed as downloaded and plays while online.
 */
export const OFFLINE_AUDIO_CACHE = 'tonearm-audio-v1';

function cacheStorage(): CacheStorage | undefined {
  return typeof caches === 'undefined' ? undefined : caches;
}

export async function cacheAudio(url: string, audio: Blob): Promise<void> {
  const storage = cacheStorage();
  if (!storage) return;
  const cache = await storage.open(OFFLINE_AUDIO_CACHE);
  const headers = { 'Content-Type': audio.type || 'application/octet-stream', 'Content-Length': String(audio.size) };
  await cache.put(url, new Response(audio, { headers }));
}

export async function forgetCachedAudio(url: string): Promise<void> {
  const storage = cacheStorage();
  if (!storage) return;
  const cache = await storage.open(OFFLINE_AUDIO_CACHE);
  await cache.delete(url);
}
