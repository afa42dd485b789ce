import { FOLDER_PATH_MAX, isFolderPath } from '@tonearm/contract';

/**
 * Subsonic ids are strings, and some parameters (`getMusicDirectory`'s id, `getCoverArt`'s id) may name an artist, an
 * album, a song or a playlist. Songs keep their plain number (so `id=12` is song 12, as the web app's ids); the
 * others carry a prefix: `ar-3`, `al-5`, `pl-7`. Methods whose id can only be one kind also take the plain number.
 */
export type SubsonicIdKind = 'artist' | 'album' | 'song' | 'playlist';

const PREFIX: Record<SubsonicIdKind, string> = { artist: 'ar-', album: 'al-', song: '', playlist: 'pl-' };

/** getIndexes' only `musicFolderId` until it is per folder; the folders are music-folders.ts' (a library's id, 0). */
export const MUSIC_FOLDER_ID = 1;
/** getMusicDirectory's id of the root, above the artists. */
export const ROOT_DIRECTORY_ID = 'root';

const MAX_DB_ID = 2 ** 31 - 1;

/** The prefix of a library folder's id (getIndexes, getMusicDirectory). */
const FOLDER_PREFIX = 'fo-';
const FOLDER_ID = /^fo-([1-9]\d{0,9})(?:-([A-Za-z0-9_-]{1,8192}))?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export const subsonicId = (kind: SubsonicIdKind, id: number): string => `${PREFIX[kind]}${id}`;

function positive(digits: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(digits)) return null;
  const value = Number(digits);
  return value >= 1 && value <= MAX_DB_ID ? value : null;
}

/** What an id names, or null for one that names nothing Tonearm could have. */
export function parseSubsonicId(id: string): { kind: SubsonicIdKind; id: number } | null {
  for (const kind of ['artist', 'album', 'playlist'] as const) {
    if (id.startsWith(PREFIX[kind])) {
      const value = positive(id.slice(PREFIX[kind].length));
      return value === null ? null : { kind, id: value };
    }
  }
  const value = positive(id);
  return value === null ? null : { kind: 'song', id: value };
}

/** The database id of an id that must name `kind` (with its prefix, or as a plain number); null otherwise. */
export function idOfKind(id: string, kind: SubsonicIdKind): number | null {
  const parsed = parseSubsonicId(id);
  if (parsed === null) return null;
  if (parsed.kind === kind) return parsed.id;
  return parsed.kind === 'song' ? parsed.id : null;
}

/**
 * A library folder's id: `fo-<libraryId>` for the library's root, `fo-<libraryId>-<path>` below it, the path (relative
 * to the library, parts joined by `/`) written as base64url of its UTF-8 bytes, without padding.
 */
export function folderId(libraryId: number, path: string): string {
  const root = `${FOLDER_PREFIX}${String(libraryId)}`;
  return path === '' ? root : `${root}-${Buffer.from(path, 'utf8').toString('base64url')}`;
}

/**
 * The library and folder path a folder id names, or null for anything else: a library id out of range, base64url
 * that is not the canonical writing of its bytes, bytes that are not UTF-8, a path with an empty, `.` or `..` part,
 * a NUL, or longer than FOLDER_PATH_MAX.
 */
export function parseFolderId(id: string): { libraryId: number; path: string } | null {
  const match = FOLDER_ID.exec(id);
  const libraryId = match?.[1] === undefined ? null : positive(match[1]);
  if (match === null || libraryId === null) return null;
  const encoded = match[2];
  if (encoded === undefined) return { libraryId, path: '' };
  const bytes = Buffer.from(encoded, 'base64url');
  if (bytes.toString('base64url') !== encoded) return null;
  let path: string;
  try {
    path = utf8.decode(bytes);
  } catch {
    return null;
  }
  if (path === '' || path.length > FOLDER_PATH_MAX || !isFolderPath(path)) return null;
  return { libraryId, path };
}
