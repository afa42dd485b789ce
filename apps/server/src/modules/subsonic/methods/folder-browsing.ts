import type { FolderContents, LibraryFoldersService } from '../../libraries/library-folders.service.js';
import type { SongsService } from '../../songs/songs.service.js';
import { notFoundError } from '../subsonic-method.js';
import { HttpError } from '../../../http/errors.js';
import type { SessionViewer } from '../../../http/session.js';
import { folderId, subsonicId } from '../subsonic-ids.js';
import type { SubsonicNode } from '../subsonic.response.js';
import type { StarMarks } from '../subsonic-star-marks.js';
import { byLetter } from './artist-index.js';

/** The songs one directory (or the index's loose files) lists at most: Subsonic has no paging here. */
export const DIRECTORY_SONGS_MAX = 5_000;

/** What browsing real folders works through. */
export interface FolderBrowsingDeps {
  folders: LibraryFoldersService;
  songs: Pick<SongsService, 'listByIds'>;
  marks: StarMarks;
}

/**
 * `{ id, name }` of a folder as an index entry: the folder model's Artist, which has no `coverArt` (apps show a
 * folder's cover from getMusicDirectory, where it is a Child).
 */
function indexEntry(libraryId: number, folder: FolderContents['folders'][number]): SubsonicNode & { name: string } {
  return { id: folderId(libraryId, folder.path), name: folder.name };
}

/**
 * Browsing the libraries by their real folders (issue 25), for getIndexes and getMusicDirectory: the same folders,
 * songs and rules as the web app's Folders view (missing songs left out; a library hidden from the caller is 70).
 */
export function folderBrowsing({ folders, songs, marks }: FolderBrowsingDeps) {
  /** The folder's own songs as Child entries, under the folder (`parent`), with their real path in the library. */
  async function songChildren(user: SessionViewer, contents: FolderContents): Promise<SubsonicNode[]> {
    const own = contents.songs.slice(0, DIRECTORY_SONGS_MAX);
    if (own.length === 0) return [];
    const prefix = contents.path === '' ? '' : `${contents.path}/`;
    const names = new Map(own.map((song) => [song.id, song.name]));
    const listing = await songs.listByIds(
      user,
      own.map((song) => song.id),
    );
    const children = await marks.songs(user, listing);
    const parent = folderId(contents.libraryId, contents.path);
    return children.map((child, index) => {
      const row = listing.rows[index];
      return row === undefined ? child : { ...child, parent, path: `${prefix}${names.get(row.id) ?? ''}` };
    });
  }

  /** A folder's contents, or error 70 when the caller may not see it or it names no folder. */
  async function contentsOf(user: SessionViewer, libraryId: number, path: string): Promise<FolderContents> {
    try {
      return await folders.contents(user, libraryId, path);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) throw notFoundError('Directory');
      throw error;
    }
  }

  return {
    /**
     * getIndexes over these libraries: the folders at their roots by letter (as Subsonic's `artist` entries, ids
     * `fo-…`), and the songs lying loose at their roots as `child`.
     */
    async index(
      user: SessionViewer,
      libraryIds: readonly number[],
    ): Promise<{ index: SubsonicNode[]; child: SubsonicNode[] }> {
      const roots = await Promise.all(libraryIds.map((id) => contentsOf(user, id, '')));
      const entries = roots.flatMap((root) => root.folders.map((folder) => indexEntry(root.libraryId, folder)));
      const child: SubsonicNode[] = [];
      for (const root of roots) {
        if (child.length >= DIRECTORY_SONGS_MAX) break;
        child.push(...(await songChildren(user, root)).slice(0, DIRECTORY_SONGS_MAX - child.length));
      }
      return {
        index: byLetter(entries).map((group) => ({ name: group.name, artist: group.items })),
        child,
      };
    },

    /** getMusicDirectory of a folder: its subfolders (isDir) and its songs, under its parent folder. */
    async directory(user: SessionViewer, libraryId: number, path: string): Promise<SubsonicNode> {
      const contents = await contentsOf(user, libraryId, path);
      const id = folderId(libraryId, path);
      const subfolders = contents.folders.map((folder) => ({
        id: folderId(libraryId, folder.path),
        parent: id,
        isDir: true,
        title: folder.name,
        coverArt: folder.cover_song_id === null ? undefined : subsonicId('song', folder.cover_song_id),
      }));
      return {
        directory: {
          id,
          parent: contents.parent === null ? undefined : folderId(libraryId, contents.parent),
          name: contents.name,
          child: [...subfolders, ...(await songChildren(user, contents))],
        },
      };
    },
  };
}
