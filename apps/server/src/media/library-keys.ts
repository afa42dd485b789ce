import { createHash } from 'node:crypto';

/*
 * How a song whose file is in a library folder is keyed. Its audio key names the file as it was read, not its bytes:
 * `lib<libraryId>-<32 hex>.<ext>`, the hex a hash of the path relative to the library, its size and its modification
 * time. A file changed or moved on disk gets a new key (so a URL, an ETag or an offline copy never means two different
 * files), and the key tells, without a lookup, which library the bytes are in. The song's `audio_sha256` holds the key
 * behind a `library:` prefix: unique, never a real hash, so the upload's "audio already in the catalogue" rule and the
 * blob store leave it alone.
 */

const LIBRARY_KEY = /^lib([1-9][0-9]{0,14})-[0-9a-f]{32}\.[a-z0-9]{1,8}$/;
const SHA256_PREFIX = 'library:';

export interface LibraryFileState {
  /** Relative to the library's folder, `/` between parts. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** The audio key of a library file as it is now; `ext` is the stored format's extension (mp3, flac, ogg…). */
export function libraryAudioKey(libraryId: number, file: LibraryFileState, ext: string): string {
  const hash = createHash('sha256')
    .update(`${file.path}\0${String(file.size)}\0${String(Math.trunc(file.mtimeMs))}`)
    .digest('hex')
    .slice(0, 32);
  return `lib${String(libraryId)}-${hash}.${ext}`;
}

/** The library whose file an audio key names, or null when it is not a library key (a stored blob's). */
export function libraryOfKey(key: string): number | null {
  const match = LIBRARY_KEY.exec(key);
  return match?.[1] === undefined ? null : Number(match[1]);
}

export function isLibraryKey(key: string): boolean {
  return LIBRARY_KEY.test(key);
}

/** What a library song's `audio_sha256` holds. */
export function librarySha256Of(key: string): string {
  return `${SHA256_PREFIX}${key}`;
}
