import { SubsonicMessages } from '@tonearm/contract';
import type { SongScope } from '../../db/library-visibility.js';
import type { SessionViewer } from '../../http/session.js';
import { notFoundError, subsonicFail } from './subsonic-method.js';
import type { SubsonicParams } from './subsonic-params.js';

/** The folder of the songs held in the blob store (uploads, copy imports, the demo catalogue): getMusicFolders' id 0. */
export const UPLOADS_FOLDER_ID = 0;
export const UPLOADS_FOLDER_NAME = 'Uploads';

/** A Subsonic music folder: a library (its id and name), or the blob store's songs (id 0). */
export interface MusicFolder {
  id: number;
  name: string;
}

/** What the folders are made of: the libraries (by id) and whether any song is held in the blob store. */
export interface FolderSources {
  libraries: readonly MusicFolder[];
  hasStoredSongs: boolean;
}

/** What getMusicFolders' answer is read from (subsonic-browse.repository.ts). */
export interface FolderReader {
  folderSources(): Promise<FolderSources>;
}

/**
 * The music folders a caller sees (issue 25): each library not hidden from them, by id, and the blob store's songs as
 * folder 0 "Uploads" when there are any, or when the server has no library at all (an app wants one folder).
 */
export async function musicFoldersOf(reader: FolderReader, hidden: readonly number[]): Promise<MusicFolder[]> {
  const { libraries, hasStoredSongs } = await reader.folderSources();
  const uploads =
    hasStoredSongs || libraries.length === 0 ? [{ id: UPLOADS_FOLDER_ID, name: UPLOADS_FOLDER_NAME }] : [];
  return [...uploads, ...libraries.filter((library) => !hidden.includes(library.id))];
}

/**
 * What a list or search call reads (SongScope): the songs the caller sees and, with `musicFolderId`, only those of
 * that folder (a library: `library` is its id; the blob store's: null). A folder id that is no number is error 0; one
 * that names no folder the caller sees (getMusicFolders' list) is 70, like a folder that does not exist.
 */
export async function folderScope(
  reader: FolderReader,
  params: SubsonicParams,
  user: Pick<SessionViewer, 'hiddenLibraries'>,
): Promise<SongScope> {
  const hidden = user.hiddenLibraries;
  const raw = params.get('musicFolderId');
  if (raw === undefined) return { hidden };
  if (!/^-?\d{1,15}$/.test(raw)) throw subsonicFail('generic', SubsonicMessages.badNumber('musicFolderId'));
  const id = Number(raw);
  const folders = await musicFoldersOf(reader, hidden);
  if (!folders.some((folder) => folder.id === id)) throw notFoundError(SubsonicMessages.musicFolder);
  return { hidden, library: id === UPLOADS_FOLDER_ID ? null : id };
}
