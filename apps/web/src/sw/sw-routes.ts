import { isAudioUrl, isMediaUrl } from '@tonearm/contract';
import { OFFLINE_SHELL_META } from '../lib/offline-start.js';

/** Caches of the app shell: one per build, named after a digest of its file list. */
export const SHELL_CACHE_PREFIX = 'tonearm-shell-';
export const SHELL_INDEX = '/index.html';

export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/** What the service worker does with a request. */
export type RouteDecision =
  /** Not ours to answer (API JSON, other origins, writes): the browser goes to the network as if there were no worker. */
  | 'pass'
  /** An app page: the network first, the cached shell only when the network fails (offline). */
  | 'navigation'
  /** A file of this build: from the shell cache, else the network. */
  | 'shell-asset'
  /** Audio or a cover that may be downloaded: from the download cache (with Range support), else the network. */
  | 'download';

/** The shell's HTML with the offline mark as the first element of its head. */
export function markShellOffline(html: string): string {
  return html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}<meta name="${OFFLINE_SHELL_META}" content="1">`);
}

const SERVER_PATH = /^\/(api|media|artists|healthz)(\/|$)/;

export interface RouteRequest {
  method: string;
  mode: string;
  url: string;
}

/** Decides by method, mode and path only, so the worker can choose synchronously inside its fetch event. */
export function routeFor(request: RouteRequest, origin: string, shellPaths: ReadonlySet<string>): RouteDecision {
  if (request.method !== 'GET') return 'pass';
  const url = new URL(request.url);
  if (url.origin !== origin) return 'pass';
  if (isMediaUrl(url.pathname)) return 'download';
  if (SERVER_PATH.test(url.pathname)) return 'pass';
  if (request.mode === 'navigate') return 'navigation';
  return shellPaths.has(url.pathname) ? 'shell-asset' : 'pass';
}

/** The query parameters of a converted stream (`/media/audio/<key>?format=opus&bitrate=128`). */
const TRANSCODE_PARAMS = new Set(['format', 'bitrate']);

/**
 * The download cache entry that answers a request: downloads are always the original file, stored under the song's
 * own path, so a converted stream of a downloaded song (data saver, a format the browser cannot play) is answered by
 * that original offline. Any other URL is its path and query.
 */
export function downloadKeyOf(url: URL): string {
  const converted =
    isAudioUrl(url.pathname) &&
    url.search !== '' &&
    [...url.searchParams.keys()].every((name) => TRANSCODE_PARAMS.has(name));
  return converted ? url.pathname : url.pathname + url.search;
}

/** A short, stable digest of the precache list: a new build gets a new shell cache, an unchanged one keeps it. */
export function shellCacheName(entries: readonly PrecacheEntry[]): string {
  const text = entries.map((entry) => `${entry.url}@${entry.revision ?? ''}`).join('|');
  let hash = 5381;
  for (let i = 0; i < text.length; i += 1) hash = ((hash * 33) ^ text.charCodeAt(i)) >>> 0;
  return `${SHELL_CACHE_PREFIX}${hash.toString(36)}`;
}

/** Absolute paths ("/assets/index-abc.js") of the precache entries, resolved against the worker's scope. */
export function shellPathsOf(entries: readonly PrecacheEntry[], scope: string): Set<string> {
  return new Set(entries.map((entry) => new URL(entry.url, scope).pathname));
}

/** Cache.addAll refuses a list that names a file twice (a public asset listed by two plugin options, say). */
export function uniqueEntries(entries: readonly PrecacheEntry[], scope: string): PrecacheEntry[] {
  const byPath = new Map<string, PrecacheEntry>();
  for (const entry of entries) byPath.set(new URL(entry.url, scope).pathname, entry);
  return [...byPath.values()];
}

/** Where the worker keeps who is signed in (the page tells it), so that a restarted worker still knows. */
export const SW_STATE_CACHE = 'tonearm-sw-state';
const SIGNED_IN_USER_KEY = '/__tonearm/signed-in-user';

/** The signed-in user the worker was last told about; null when none (or never told, or unreadable). */
export async function readSignedInUser(): Promise<number | null> {
  try {
    const cache = await caches.open(SW_STATE_CACHE);
    const stored = await cache.match(SIGNED_IN_USER_KEY);
    if (!stored) return null;
    const value: unknown = await stored.json();
    if (typeof value !== 'object' || value === null || !('userId' in value)) return null;
    const { userId } = value;
    return typeof userId === 'number' && Number.isInteger(userId) ? userId : null;
  } catch {
    return null;
  }
}

export async function writeSignedInUser(userId: number | null): Promise<void> {
  const cache = await caches.open(SW_STATE_CACHE);
  await cache.put(
    SIGNED_IN_USER_KEY,
    new Response(JSON.stringify({ userId }), { headers: { 'Content-Type': 'application/json' } }),
  );
}
