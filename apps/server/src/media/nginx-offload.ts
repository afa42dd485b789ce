import type { Config } from '../config.js';
import { isValidBlobKey, type BlobKind, type BlobStore } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import type { LibraryFilePlace, MediaSource } from './media-source.js';

/**
 * The internal locations of library files (docs/deploy/nginx.conf): `/_tonearm_library/<library id>/` aliased to the
 * library's folder, one per library, nested in `location /_tonearm_library/`.
 */
export const LIBRARY_OFFLOAD_PREFIX = '/_tonearm_library/';

/**
 * MEDIA_OFFLOAD=nginx (docs/deploy/nginx.conf): once a request has passed the access checks, a stored blob is
 * answered with an empty response whose `X-Accel-Redirect` names the blob inside nginx's `internal` location aliased
 * to the blob directory, and nginx sends the bytes itself (sendfile, Range, conditional requests); a library file,
 * likewise, inside its library's location (libraryUri). Only files of the local blob store and of library folders
 * qualify; transcodes and remote stores are still sent by Tonearm.
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

  /**
   * The X-Accel-Redirect URI of a media source's bytes: a stored blob's (uriFor), or a library file's in its library's
   * location, once its `stat` found it (inside its library, links resolved, a readable regular file: the checks of a
   * direct answer). Null when nginx cannot send it: Tonearm answers, 404 included.
   */
  uriOf(source: MediaSource): string | null {
    if (source.stored) return this.uriFor(source.kind, source.key);
    const place = source.inLibrary();
    return place === null ? null : libraryUri(place);
  }
}

/**
 * `/_tonearm_library/<library id>/<path>`, each part of the path percent-encoded: nginx decodes the URI of an
 * X-Accel-Redirect before it matches a location (so `%2F` could not name a folder, and `?`, `#`, `%` and spaces stay
 * parts of the name), and refuses one holding `..` parts; the path is the file's real one under the real folder, so
 * nginx opens the very file that was checked, following no link but those of the folder's own path.
 */
export function libraryUri(place: Pick<LibraryFilePlace, 'libraryId' | 'relative'>): string {
  const parts = place.relative.split('/').map((part) => encodeURIComponent(part));
  return `${LIBRARY_OFFLOAD_PREFIX}${String(place.libraryId)}/${parts.join('/')}`;
}

// Control characters: a path holding one cannot be written in nginx's configuration.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;

/** nginx takes a quoted string as it is but for `\` and `"`, and any `$` as a variable, which cannot be escaped. */
function nginxQuoted(text: string): string | null {
  if (text.includes('$') || CONTROL.test(text)) return null;
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * The nested locations of docs/deploy/nginx.conf for these libraries, one line each (`npm run nginx-locations` prints
 * them): `location /_tonearm_library/<id>/ { internal; alias "<folder>/"; }`. A folder nginx cannot name (a `$` in
 * its path) gets a comment saying so instead: its files then fail through nginx until the folder is renamed.
 */
export function nginxLibraryLocations(libraries: readonly { id: number; name: string; path: string }[]): string[] {
  return libraries.map((library) => {
    const location = `${LIBRARY_OFFLOAD_PREFIX}${String(library.id)}/`;
    const alias = nginxQuoted(`${library.path.replace(/\/+$/, '')}/`);
    const name = library.name.replace(/[\r\n]+/g, ' ');
    if (alias === null) return `# ${location}: the folder of "${name}" cannot be written in nginx's configuration`;
    return `location ${location} { internal; alias ${alias}; }  # ${name}`;
  });
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
