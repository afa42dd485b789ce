import { z } from 'zod';
import { DbIdText } from './common.js';
import { NAME_MAX } from './constants.js';
import { textField } from './text.js';

/** The longest folder path a library may name (Linux's PATH_MAX). */
export const LIBRARY_PATH_MAX = 4096;

/** Messages of the library routes. */
export const LibraryMessages = {
  pathRequired: 'Enter the folder of your music on the server',
  pathNotAbsolute: 'Enter the full path of the folder, starting with /',
  pathMissing: 'No folder is there on the server',
  pathNotFolder: 'That path is a file, not a folder',
  pathUnreadable: 'The server may not read that folder (check its permissions)',
  pathTaken: 'That folder is already a library',
  pathOverlaps: 'That folder is inside another library, or holds one',
  nameTaken: 'A library of that name already exists',
  nameRequired: 'Name is required',
  scanRunning: 'A scan of this library is already running',
} as const;

/** What a scan is doing, or how the last one ended. */
export const ScanState = z.enum(['running', 'done', 'failed']);
export type ScanState = z.infer<typeof ScanState>;

/** One file a scan left out, or one entry of the folder it did not read, and why. */
export const ScanProblem = z.object({ path: z.string(), reason: z.string() });
export type ScanProblem = z.infer<typeof ScanProblem>;

/** A scan of a library: its counts while it runs, and its report once done. */
export const LibraryScan = z.object({
  state: ScanState,
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Audio files found in the folder so far. */
  seen: z.number().int(),
  /** Files gone through so far, unchanged ones included: `done / seen` is how far the scan is. */
  done: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  /** Files found under a new path whose song kept its id. */
  moved: z.number().int(),
  /** Songs whose file is no longer there. */
  missing: z.number().int(),
  errors: z.number().int(),
  /** Files gone through per second so far. */
  filesPerSecond: z.number(),
  /** Files left out and entries not read, with why (at most the first 200). */
  problems: z.array(ScanProblem),
});
export type LibraryScan = z.infer<typeof LibraryScan>;

/** A music folder on the server, read in place. */
export const Library = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  songCount: z.number().int(),
  missingCount: z.number().int(),
  /** The running scan, else the last one; null before the first. */
  scan: LibraryScan.nullable(),
  /** When the last scan that went through the whole folder ended; null before the first. */
  lastScannedAt: z.string().nullable(),
});
export type Library = z.infer<typeof Library>;

export const LibraryList = z.object({ libraries: z.array(Library) });
export type LibraryList = z.infer<typeof LibraryList>;

const LibraryName = textField().trim().min(1, LibraryMessages.nameRequired).max(NAME_MAX);
const LibraryPath = z
  .string({ error: LibraryMessages.pathRequired })
  .trim()
  .min(1, LibraryMessages.pathRequired)
  .max(LIBRARY_PATH_MAX)
  .refine((path) => path.startsWith('/'), LibraryMessages.pathNotAbsolute)
  .refine((path) => !path.includes('\0'), LibraryMessages.pathMissing);

/** POST /api/libraries: a folder on the server; without a name, the folder's own name. */
export const CreateLibraryRequest = z.object({ path: LibraryPath, name: LibraryName.optional() });
export type CreateLibraryRequest = z.infer<typeof CreateLibraryRequest>;

/** PATCH /api/libraries/:libraryId: a new name. */
export const RenameLibraryRequest = z.object({ name: LibraryName });
export type RenameLibraryRequest = z.infer<typeof RenameLibraryRequest>;

export const LibraryParam = z.object({ libraryId: DbIdText });
export type LibraryParam = z.infer<typeof LibraryParam>;
