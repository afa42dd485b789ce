/// <reference lib="webworker" />
import { isAudioUrl } from '@tonearm/contract';
import { isApiError, isNetworkError } from '../lib/api-client.js';
import { rangeResponse } from '../lib/byte-range.js';
import { cachedPaths, fetchIntoCache, offlineAudioCache } from '../lib/offline-audio.js';
import { isWorkerRequest, type DownloadReply } from '../lib/sw-messages.js';
import {
  downloadKeyOf,
  markShellOffline,
  readSignedInUser,
  routeFor,
  writeSignedInUser,
  SHELL_CACHE_PREFIX,
  SHELL_INDEX,
  shellCacheName,
  shellPathsOf,
  uniqueEntries,
  type PrecacheEntry,
} from './sw-routes.js';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

/** Filled in at build time by vite-plugin-pwa (injectManifest): every file of the app shell, once each. */
const manifest: PrecacheEntry[] = uniqueEntries(
  self.__WB_MANIFEST.map((entry) => (typeof entry === 'string' ? { url: entry, revision: null } : entry)),
  self.registration.scope,
);
const SHELL_CACHE = shellCacheName(manifest);
const shellPaths = shellPathsOf(manifest, self.registration.scope);

/**
 * Who is signed in on this browser, as the page last said (kept in Cache Storage, so a restarted worker still knows).
 * Offline audio is answered only from that user's downloads; with nobody signed in, from none.
 */
let signedInUser: Promise<number | null> = readSignedInUser();

/**
 * Paths held in the signed-in user's download cache. A request for audio that is not downloaded is left to the browser
 * entirely (no detour through the worker); until the set is read, every media request checks the cache.
 */
let downloaded: Set<string> | null = null;
async function refreshDownloaded(): Promise<void> {
  downloaded = null;
  const userId = await signedInUser;
  const paths = userId === null ? [] : await cachedPaths(userId);
  // Only if nobody signed in or out meanwhile; that change started its own refresh.
  if (userId === (await signedInUser)) downloaded = new Set(paths);
}
void refreshDownloaded();

async function setSignedInUser(userId: number | null): Promise<void> {
  signedInUser = Promise.resolve(userId);
  await refreshDownloaded();
  await writeSignedInUser(userId);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      // 'reload' skips the HTTP cache, so index.html and the manifest are this build's, not a stale copy.
      await cache.addAll(
        manifest.map((entry) => new Request(new URL(entry.url, self.registration.scope), { cache: 'reload' })),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL_CACHE)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

/**
 * Pages come from the network so the server decides (session, deploys); the cached shell only stands in offline,
 * marked so the page knows it started without a connection.
 */
async function navigation(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(SHELL_INDEX, { cacheName: SHELL_CACHE });
    if (!shell) throw error;
    // The body grows by the mark: the stored length (and any encoding of the stored bytes) no longer applies.
    const headers = new Headers(shell.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(markShellOffline(await shell.text()), { status: 200, headers });
  }
}

async function shellAsset(request: Request): Promise<Response> {
  const cached = await caches.match(request, { cacheName: SHELL_CACHE });
  if (!cached) return fetch(request);
  // The welcome chime is audio too: <audio> asks for ranges even for bundled files.
  return request.headers.has('range') ? rangeResponse(cached, request.headers.get('range')) : cached;
}

async function download(request: Request): Promise<Response> {
  const userId = await signedInUser;
  if (userId === null) return fetch(request);
  const cache = await caches.open(offlineAudioCache(userId));
  const url = new URL(request.url);
  const stored = await cache.match(downloadKeyOf(url));
  if (!stored) return fetch(request);
  return isAudioUrl(url.pathname) ? rangeResponse(stored, request.headers.get('range')) : stored;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const route = routeFor(request, self.location.origin, shellPaths);
  switch (route) {
    case 'pass':
      return;
    case 'navigation':
      event.respondWith(navigation(request));
      return;
    case 'shell-asset':
      event.respondWith(shellAsset(request));
      return;
    case 'download': {
      const url = new URL(request.url);
      if (downloaded !== null && !downloaded.has(downloadKeyOf(url))) return;
      event.respondWith(download(request));
      return;
    }
  }
});

function failureReply(error: unknown): DownloadReply {
  if (isApiError(error)) return { ok: false, status: error.status, code: error.code, message: error.message };
  if (isNetworkError(error)) return { ok: false, status: 0, code: 'network', message: error.message };
  return {
    ok: false,
    status: 500,
    code: 'download-failed',
    message: error instanceof Error ? error.message : 'Failed',
  };
}

/** Downloads run here, not in the page: they finish even if the user navigates away or closes the tab meanwhile. */
self.addEventListener('message', (event) => {
  const message: unknown = event.data;
  if (!isWorkerRequest(message)) return;
  if (message.type === 'downloads-changed') {
    event.waitUntil(refreshDownloaded());
    return;
  }
  if (message.type === 'signed-in-user') {
    event.waitUntil(setSignedInUser(message.userId));
    return;
  }
  const port = event.ports[0];
  event.waitUntil(
    (async () => {
      let reply: DownloadReply;
      try {
        const size = await fetchIntoCache(message, message.userId);
        reply = { ok: true, size };
      } catch (error) {
        reply = failureReply(error);
      }
      await refreshDownloaded();
      port?.postMessage(reply);
    })(),
  );
});
