import type { Config } from '../config.js';
import { isValidBlobKey, type BlobKind, type BlobStore } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';

/**
 * MEDIA_OFFLOAD=nginx (docs/deploy/nginx.conf): once a request has passed the access checks, a stored blob is
 * answered with an empty response whose `X-Accel-Redirect` names the blob inside nginx's `internal` location aliased
 * to the blob directory, and nginx sends the bytes itself (sendfile, Range, conditional requests). Only files of the
 * local blob store qualify; transcodes and remote stores are still sent by Tonearm.
 */
export class NginxOffload {
  constructor(
    /** The internal location, starting and ending with `/` (MEDIA_OFFLOAD_PREFIX). */
    readonly prefix: string,
    private readonly store: LocalBlobStore,
  ) {}

  /**
   * The X-Accel-Redirect URI of a stored blob: the prefix, then its path under the blob directory. Null for a key that
   * names no blob (then nothing is offloaded; Tonearm answers as usual). Valid keys (blob-key.ts) are made of characters
   * nginx takes as they are and cannot leave the directory, so the key check is the whole check: this runs on every
   * Range request a gate or /media hands over.
   */
  uriFor(kind: BlobKind, key: string): string | null {
    return isValidBlobKey(key) ? `${this.prefix}${this.store.relativePath(kind, key)}` : null;
  }
}

/** The offload MEDIA_OFFLOAD asks for, over the app's blob store; null when it is off or the store is not on disk. */
export function nginxOffloadFor(config: Pick<Config, 'mediaOffload'>, store: BlobStore | null): NginxOffload | null {
  if (config.mediaOffload === null || !(store instanceof LocalBlobStore)) return null;
  return new NginxOffload(config.mediaOffload.prefix, store);
}

/**
 * The empty answer that hands a blob to nginx: what nginx keeps of it (type, caching; a disposition set earlier stays).
 * The security headers are not among them: nginx's internal location adds them as constants (docs/deploy/nginx.conf),
 * since this answer is made for every Range request of a stream and its size is most of what it costs.
 */
export function accelRedirectHeaders(uri: string, mime: string, cacheControl: string): Record<string, string | number> {
  return { 'x-accel-redirect': uri, 'content-type': mime, 'cache-control': cacheControl, 'content-length': 0 };
}
