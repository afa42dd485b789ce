import { z } from 'zod';
import { CursorQuery } from './common.js';
import { Song } from './songs.js';

/** The longest folder path asked for (Linux's PATH_MAX). */
export const FOLDER_PATH_MAX = 4096;
/** Entries (subfolders, then songs) in one page of a folder when the client names no `limit`. */
export const FOLDER_PAGE_DEFAULT = 200;

/** Messages of the folder routes. */
export const FolderMessages = {
  badPath:
    'That folder path is not valid: give it relative to the library, with / between folders, and without "..", "." or empty parts',
} as const;

/** Texts of the web app's Folders view, shared by its components and their tests. */
export const FolderClientMessages = {
  navLabel: 'Folders',
  pageTitle: 'Folders',
  pageIntro: 'Your music as it lies in its folders on the server.',
  noLibraries: 'No music folders to browse yet.',
  failedToLoad: 'Failed to load the folders',
  loading: 'Loading folders…',
  notFound: 'Folder not found',
  backToFolders: 'All folders',
  breadcrumb: 'Breadcrumb',
  subfolders: 'Folders',
  songs: 'Songs',
  empty: 'This folder holds no songs.',
  playFolder: 'Play folder',
  showMore: 'Show more',
  tryAgain: 'Try again',
  songCount: (count: number) => `${count} ${count === 1 ? 'song' : 'songs'}`,
  folderCount: (count: number) => `${count} ${count === 1 ? 'folder' : 'folders'}`,
} as const;

/**
 * Whether `path` is a folder path as library_files keeps them: relative to the library, parts joined by `/`, no empty,
 * `.` or `..` part, no NUL. The empty path is the library's root.
 */
export function isFolderPath(path: string): boolean {
  if (path === '') return true;
  if (path.includes('\0')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The folder above `path` ('' for a folder at the root); null for the root itself. */
export function parentFolder(path: string): string | null {
  if (path === '') return null;
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** A library as the Folders view lists it: the ones the user sees, with how many songs (missing ones left out). */
export const FolderLibrary = z.object({
  id: z.number().int(),
  name: z.string(),
  songCount: z.number().int(),
});
export type FolderLibrary = z.infer<typeof FolderLibrary>;

export const FolderLibraryList = z.object({ libraries: z.array(FolderLibrary) });
export type FolderLibraryList = z.infer<typeof FolderLibraryList>;

/** GET /api/folders/:libraryId: which folder (`path`, '' or absent for the root), and which page of it. */
export const FolderQuery = CursorQuery.extend({
  path: z.string().max(FOLDER_PATH_MAX, FolderMessages.badPath).refine(isFolderPath, FolderMessages.badPath).optional(),
});
export type FolderQuery = z.infer<typeof FolderQuery>;

/** A folder inside the one listed: its name, its path in the library and the songs anywhere under it. */
export const Subfolder = z.object({
  name: z.string(),
  path: z.string(),
  songCount: z.number().int(),
  /** A cover of a song under it ('' when none has one). */
  imgLink: z.string(),
});
export type Subfolder = z.infer<typeof Subfolder>;

/**
 * One page of a library folder: its subfolders, then its own songs (full Song JSON), each in path order (numbers in
 * names compared as numbers); `nextCursor` goes on where the page stopped (null at the end). `folderCount` and
 * `songCount` count the whole folder, not the page.
 */
export const Folder = z.object({
  libraryId: z.number().int(),
  libraryName: z.string(),
  /** '' for the library's root. */
  path: z.string(),
  /** The folder's own name (the library's for the root). */
  name: z.string(),
  /** The folder above ('' the root); null for the root. */
  parent: z.string().nullable(),
  folders: z.array(Subfolder),
  songs: z.array(Song),
  folderCount: z.number().int(),
  songCount: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type Folder = z.infer<typeof Folder>;
