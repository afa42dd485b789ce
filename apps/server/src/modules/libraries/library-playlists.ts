import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NAME_MAX, type ScanProblem } from '@tonearm/contract';
import type { PlaylistsRepository } from '../playlists/playlists.repository.js';
import type { LibrariesRepository, LibraryRow } from './libraries.repository.js';
import { MusicFolder } from './music-folder.js';

/*
 * Playlists from files (issue 25): every `.m3u`/`.m3u8` file of a library (any case) is a playlist of the library's
 * scan owner (LibrariesRepository.scanOwner), named after the file without its extension, read-only in Tonearm and
 * kept in sync with the file by every scan: the file changes, the same playlist (same id) takes its entries; the file
 * goes, so does the playlist (a renamed file is the old playlist gone and a new one made).
 *
 * Reading a file: `.m3u8` is UTF-8; `.m3u` is UTF-8 when its bytes are, else latin1. A UTF-8 byte order mark is
 * dropped, and lines end with LF, CRLF or CR. Blank lines and `#` lines (`#EXTM3U`, `#EXTINF`, …) are skipped; a URL
 * (`http://…`) is ignored. Any other line is a path, `\` and `/` alike: relative to the playlist file's folder, or
 * absolute (a `file://` URL too) when inside the library's folder. `..` may be used while the path stays inside the
 * library. The path is matched against the library's files (`library_files.path`), exactly, else ignoring case and
 * Unicode normalisation when that names one file. An entry that matches nothing is counted, with one problem line each
 * (ENTRY_PROBLEMS_KEPT a file at most). A song listed twice is in the playlist once, at its first place.
 */

/** The largest playlist file read; a bigger one is reported and its playlist left as it was. */
export const PLAYLIST_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** Problem lines about unmatched entries kept per playlist file (all are counted). */
export const ENTRY_PROBLEMS_KEPT = 20;

/** The scan's problem while its library's playlist files wait for an administrator to own them. */
export const PLAYLISTS_WAIT_FOR_OWNER = 'Playlist files become playlists once an administrator account exists';

/** Whether a file name is a playlist file's: `.m3u` or `.m3u8`, in any case. */
export function isPlaylistName(name: string): boolean {
  return /\.m3u8?$/i.test(name);
}

/** The text of a playlist file's bytes (see the top of this file). */
export function decodePlaylist(bytes: Uint8Array, fileName: string): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (/\.m3u8$/i.test(fileName)) return new TextDecoder('utf-8').decode(body);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('latin1').decode(body);
  }
}

/** The entries of a playlist's text that name files, in order: no comment, no blank line, no URL. */
export function playlistEntries(text: string): string[] {
  const entries: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(line) && !/^file:\/\//i.test(line)) continue;
    entries.push(line);
  }
  return entries;
}

/** Where a playlist file's entry is: a path relative to the library, or why it cannot be one. */
export type ResolvedEntry = { path: string } | { outside: true };

/**
 * An entry of the playlist file at `playlistPath` (relative to the library) as a path relative to the library's
 * folder; `roots` are that folder as given and its real path (an absolute entry may name either).
 */
export function resolveEntry(entry: string, playlistPath: string, roots: readonly string[]): ResolvedEntry {
  let named = entry;
  if (/^file:\/\//i.test(named)) {
    try {
      named = fileURLToPath(named);
    } catch {
      return { outside: true };
    }
  }
  named = named.replace(/\\/g, '/');
  let relative: string;
  if (named.startsWith('/')) {
    const absolute = path.posix.normalize(named);
    const root = roots.find((folder) => absolute.startsWith(folder.endsWith('/') ? folder : `${folder}/`));
    if (root === undefined) return { outside: true };
    relative = path.posix.relative(root, absolute);
  } else {
    // A drive letter (C:/…) is a path of another machine: never inside this library.
    if (/^[a-z]:/i.test(named)) return { outside: true };
    relative = path.posix.normalize(path.posix.join(path.posix.dirname(playlistPath), named));
  }
  if (relative === '' || relative === '.' || relative === '..' || relative.startsWith('../')) return { outside: true };
  return { path: relative };
}

/** A key that forgives case and Unicode normalisation (a playlist made on another system). */
function looseKey(relative: string): string {
  return relative.normalize('NFC').toLowerCase();
}

/** The library's files by path, exactly and loosely (a loose key naming two files matches neither). */
class FileMatcher {
  private readonly exact = new Map<string, number>();
  private readonly loose = new Map<string, number | null>();

  constructor(files: readonly { path: string; song_id: number }[]) {
    for (const file of files) {
      this.exact.set(file.path, file.song_id);
      const key = looseKey(file.path);
      this.loose.set(key, this.loose.has(key) ? null : file.song_id);
    }
  }

  songOf(relative: string): number | null {
    return this.exact.get(relative) ?? this.loose.get(looseKey(relative)) ?? null;
  }
}

/** The playlist of a file as read: its songs, and its entries that matched none. */
export interface ReadPlaylist {
  songIds: number[];
  unmatched: { entry: string; reason: string }[];
}

/** Matches a playlist file's text against the library's files. */
export function matchPlaylist(
  text: string,
  playlistPath: string,
  roots: readonly string[],
  files: readonly { path: string; song_id: number }[],
): ReadPlaylist {
  return matchWith(text, playlistPath, roots, new FileMatcher(files));
}

function matchWith(text: string, playlistPath: string, roots: readonly string[], index: FileMatcher): ReadPlaylist {
  const songIds: number[] = [];
  const seen = new Set<number>();
  const unmatched: ReadPlaylist['unmatched'] = [];
  for (const entry of playlistEntries(text)) {
    const resolved = resolveEntry(entry, playlistPath, roots);
    if ('outside' in resolved) {
      unmatched.push({ entry, reason: 'outside the library' });
      continue;
    }
    const songId = index.songOf(resolved.path);
    if (songId === null) {
      unmatched.push({ entry, reason: 'no song of the library is that file' });
      continue;
    }
    if (!seen.has(songId)) songIds.push(songId);
    seen.add(songId);
  }
  return { songIds, unmatched };
}

/** What syncing a library's playlists did, for the scan's report. */
export interface PlaylistSyncResult {
  /** Playlist files read. */
  playlists: number;
  /** Their entries that matched no song. */
  unmatchedEntries: number;
  problems: ScanProblem[];
}

export interface PlaylistSyncDeps {
  libraries: Pick<LibrariesRepository, 'knownFiles' | 'scanOwner'>;
  playlists: Pick<PlaylistsRepository, 'ofLibraryFiles' | 'syncFromFile' | 'deleteFilePlaylists'>;
  now: () => string;
}

/**
 * Brings the library's playlists from files in line with its `.m3u`/`.m3u8` files, after a scan that went through the
 * whole folder (so the songs they name are known): `playlistFiles` are the ones its walk found (ScanResult's, relative
 * to the library's folder), so the folder is walked once. Without an administrator nothing is made: the first
 * administrator's sign-up has the library scanned again (LibrariesService.administratorsChanged). A file that cannot
 * be read keeps its playlist as it was; a file no longer there takes its playlist with it.
 */
export async function syncLibraryPlaylists(
  deps: PlaylistSyncDeps,
  library: LibraryRow,
  playlistFiles: readonly string[],
): Promise<PlaylistSyncResult> {
  const result: PlaylistSyncResult = { playlists: 0, unmatchedEntries: 0, problems: [] };
  const existing = await deps.playlists.ofLibraryFiles(library.id);
  const found = new Set(playlistFiles);
  const gone = existing.filter((row) => !found.has(row.source_path)).map((row) => row.id);
  await deps.playlists.deleteFilePlaylists(gone);
  if (playlistFiles.length === 0) return result;

  const ownerId = await deps.libraries.scanOwner(library.id);
  if (ownerId === null) {
    result.problems.push({ path: '', reason: PLAYLISTS_WAIT_FOR_OWNER });
    return result;
  }
  const folder = await MusicFolder.at(library.path);
  const index = new FileMatcher(await deps.libraries.knownFiles(library.id));
  const roots = [...new Set([folder.root, folder.realRoot])];
  for (const sourcePath of playlistFiles) {
    // Opened under the folder's rule, as the walk found it: a file swapped for a link since is refused.
    const file = path.join(folder.root, ...sourcePath.split('/'));
    const read = await folder
      .withFile(file, async (handle) => {
        const { size } = await handle.stat();
        return size > PLAYLIST_FILE_MAX_BYTES ? null : handle.readFile();
      })
      .catch(() => ({ skip: 'cannot be read' }));
    if ('skip' in read) {
      result.problems.push({ path: sourcePath, reason: read.skip });
      continue;
    }
    if (read.value === null) {
      result.problems.push({ path: sourcePath, reason: 'a playlist file larger than 4 MiB is not read' });
      continue;
    }
    const matched = matchWith(decodePlaylist(read.value, file), sourcePath, roots, index);
    result.playlists += 1;
    result.unmatchedEntries += matched.unmatched.length;
    for (const miss of matched.unmatched.slice(0, ENTRY_PROBLEMS_KEPT)) {
      result.problems.push({ path: sourcePath, reason: `entry “${miss.entry}”: ${miss.reason}` });
    }
    if (matched.unmatched.length > ENTRY_PROBLEMS_KEPT) {
      const more = matched.unmatched.length - ENTRY_PROBLEMS_KEPT;
      result.problems.push({ path: sourcePath, reason: `${String(more)} more entries match no song of the library` });
    }
    await deps.playlists.syncFromFile({
      libraryId: library.id,
      sourcePath,
      ownerId,
      name: (path.basename(file).replace(/\.m3u8?$/i, '') || path.basename(file)).slice(0, NAME_MAX).trim(),
      songIds: matched.songIds,
      now: deps.now(),
    });
  }
  return result;
}
