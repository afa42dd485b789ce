import { FOLDER_PAGE_DEFAULT, FOLDER_PATH_MAX, ServerMessages, parentFolder } from '@tonearm/contract';
import { z } from 'zod';
import { seesLibrary } from '../../db/library-visibility.js';
import { notFound } from '../../http/errors.js';
import { cursorCodec } from '../../http/page-cursor.js';
import { noSongs, type SongListing, type SongsService, type Viewer } from '../songs/songs.service.js';
import type { FolderLibraryRow, LibraryFoldersRepository, SubfolderRow } from './library-folders.repository.js';

/** A subfolder with its path in the library. */
export interface SubfolderEntry extends SubfolderRow {
  path: string;
}

/** A song directly in a folder: its id and its file's name. */
export interface FolderSong {
  id: number;
  name: string;
}

/** A folder's whole contents, each part in path order: its subfolders, and its own songs. */
export interface FolderContents {
  libraryId: number;
  libraryName: string;
  /** '' for the root. */
  path: string;
  /** The folder's own name (the library's for the root). */
  name: string;
  parent: string | null;
  folders: SubfolderEntry[];
  songs: FolderSong[];
}

/** One page of a folder: its subfolders, then its songs with the viewer's marks, and where the next page starts. */
export interface FolderPage extends Omit<FolderContents, 'songs'> {
  songs: SongListing;
  folderCount: number;
  songCount: number;
  nextCursor: string | null;
}

/** Names in path order: numbers in them compared as numbers ("2" before "10"), ties broken by the exact text. */
const collator = new Intl.Collator('en', { numeric: true });
export function comparePathNames(a: string, b: string): number {
  const order = collator.compare(a, b);
  if (order !== 0) return order;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The last part of a path. */
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Where a page stopped: a subfolder (0) or a song (1), by its name in the folder. */
const FolderKey = z.object({ k: z.union([z.literal(0), z.literal(1)]), v: z.string().max(FOLDER_PATH_MAX) });
type FolderKey = z.infer<typeof FolderKey>;
const cursors = cursorCodec('folder', FolderKey);

/**
 * The Folders view (issue 25): a library browsed by its real folders, derived from the paths of its files
 * (library_files) without reading the disk. Songs whose file is missing are left out, and so is a folder left with
 * none; a library hidden from the viewer is 404, as a library that does not exist.
 */
export class LibraryFoldersService {
  constructor(
    private readonly repository: LibraryFoldersRepository,
    private readonly songs: Pick<SongsService, 'listByIds'>,
  ) {}

  /** The libraries the viewer sees, with their present songs. */
  libraries(viewer: Viewer): Promise<FolderLibraryRow[]> {
    return this.repository.libraries(viewer.hiddenLibraries);
  }

  /** A folder's whole contents; 404 for a library the viewer does not see, or a path naming no folder with songs. */
  async contents(viewer: Viewer, libraryId: number, path: string): Promise<FolderContents> {
    if (!seesLibrary(viewer.hiddenLibraries, libraryId)) throw notFound(ServerMessages.notFound);
    const libraryName = await this.repository.libraryName(libraryId);
    if (libraryName === undefined) throw notFound(ServerMessages.notFound);
    const prefix = path === '' ? '' : `${path}/`;
    const [subfolders, songs] = await Promise.all([
      this.repository.subfolders(libraryId, prefix),
      this.repository.songs(libraryId, prefix),
    ]);
    // The root always is; another path is a folder while some present song is under it.
    if (path !== '' && subfolders.length === 0 && songs.length === 0) throw notFound(ServerMessages.notFound);
    const folders = subfolders
      .map((folder) => ({ ...folder, path: `${prefix}${folder.name}` }))
      .sort((a, b) => comparePathNames(a.name, b.name));
    const own = songs
      .map((song) => ({ id: song.song_id, name: baseName(song.path) }))
      .sort((a, b) => comparePathNames(a.name, b.name));
    return {
      libraryId,
      libraryName,
      path,
      name: path === '' ? libraryName : baseName(path),
      parent: parentFolder(path),
      folders,
      songs: own,
    };
  }

  /**
   * One page of a folder: `limit` entries (FOLDER_PAGE_DEFAULT unless asked), its subfolders first, then its songs.
   * The cursor names the last entry given, so a page goes on after it even when entries came or went meanwhile.
   */
  async page(
    viewer: Viewer,
    libraryId: number,
    query: { path?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
  ): Promise<FolderPage> {
    const path = query.path ?? '';
    const scope = [libraryId, path];
    const after = cursors.decode(scope, query.cursor);
    const limit = query.limit ?? FOLDER_PAGE_DEFAULT;
    const { songs: songNames, ...contents } = await this.contents(viewer, libraryId, path);
    const { folders } = contents;
    const entries: FolderKey[] = [
      ...folders.map((folder) => ({ k: 0 as const, v: folder.name })),
      ...songNames.map((song) => ({ k: 1 as const, v: song.name })),
    ];
    const start = after === undefined ? 0 : entries.findIndex((entry) => isAfter(entry, after));
    const from = start < 0 ? entries.length : start;
    const taken = entries.slice(from, from + limit);
    const last = taken.at(-1);
    const more = from + limit < entries.length;
    const pageFolders = folders.slice(Math.min(from, folders.length), Math.min(from + limit, folders.length));
    const songStart = Math.max(0, from - folders.length);
    const songEnd = Math.max(0, from + limit - folders.length);
    const pageSongIds = songNames.slice(songStart, songEnd).map((song) => song.id);
    const songs = pageSongIds.length === 0 ? noSongs() : await this.songs.listByIds(viewer, pageSongIds);
    return {
      ...contents,
      folders: pageFolders,
      songs,
      folderCount: folders.length,
      songCount: songNames.length,
      nextCursor: more && last !== undefined ? cursors.encode(scope, last) : null,
    };
  }
}

/** Whether an entry comes after the key in the page's order (subfolders, then songs, each by name). */
function isAfter(entry: FolderKey, key: FolderKey): boolean {
  if (entry.k !== key.k) return entry.k > key.k;
  return comparePathNames(entry.v, key.v) > 0;
}
