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
