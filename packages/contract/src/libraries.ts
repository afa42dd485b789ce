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
  unknownMember: 'One of the chosen users does not exist',
} as const;

/**
 * Texts of the web app's library screens (the administrator's Libraries page and the home page's first step), shared
 * by the components and their tests.
 */
export const LibraryClientMessages = {
  pageTitle: 'Libraries',
  pageIntro:
    'Folders of music on the server, read where they are: no file is copied, and nothing in them is ever changed.',
  firstStepEyebrow: 'First step',
  firstStepTitle: 'Add your music folder',
  firstStepIntro:
    'Tonearm plays your music from a folder on the server, read in place: nothing is copied, and no file in it is changed. Enter its path below; the server checks it can read the folder, then scans it, and your songs join the catalogue as they are found.',
  addTitle: 'Add a library',
  pathLabel: 'Folder on the server',
  pathHint: 'Its full path, such as /srv/music',
  nameLabel: 'Name',
  nameHint: "Without one, the folder's own name",
  add: 'Add library',
  adding: 'Adding…',
  libraryAdded: (name: string) => `Added the library “${name}”: its scan has started`,
  failedToAdd: 'Failed to add the library',
  failedToLoad: 'Failed to load libraries',
  loading: 'Loading libraries…',
  noLibraries: 'No libraries yet: add the folder of your music above.',
  songs: 'Songs',
  missing: 'Missing',
  lastScanned: 'Last scanned',
  neverScanned: 'Not yet',
  scanning: 'Scanning',
  progressLabel: (name: string) => `Scan of ${name}`,
  progressText: (done: number, seen: number) => `${done} of ${seen} files`,
  filesSeen: 'Files seen',
  added: 'Added',
  updated: 'Updated',
  moved: 'Moved',
  errors: 'Errors',
  filesPerSecond: 'Files/s',
  /** A finished scan's playlist files read (each a playlist), and their entries that matched no song. */
  playlists: 'Playlists',
  unmatchedEntries: 'Unmatched entries',
  scanDone: 'Last scan done',
  scanFailed: 'Last scan failed',
  problems: (count: number) => `${count} ${count === 1 ? 'problem' : 'problems'}`,
  showAllProblems: (count: number) => `Show all ${count} problems`,
  showFewerProblems: 'Show fewer problems',
  wholeFolder: 'The folder',
  rescan: 'Rescan',
  scanStarted: (name: string) => `Scanning ${name}`,
  failedToScan: 'Failed to start the scan',
  rename: 'Rename',
  newName: 'New name',
  save: 'Save',
  cancel: 'Cancel',
  renamed: (name: string) => `Renamed the library to “${name}”`,
  failedToRename: 'Failed to rename the library',
  remove: 'Remove',
  confirmRemove: (name: string, songCount: number) =>
    `Remove the library “${name}”? Its ${songCount} ${songCount === 1 ? 'song leaves' : 'songs leave'} the catalogue, with their likes, plays and places in playlists. No file on disk is touched.`,
  removed: (name: string) => `Removed the library “${name}”`,
  failedToRemove: 'Failed to remove the library',
  purgeMissing: 'Purge missing songs',
  whoSees: 'Who sees it',
  everyoneSees: 'Every listener',
  chosenSee: 'Administrators and the listeners chosen',
  noMembers: 'No listener chosen yet: only administrators see it.',
  memberSearch: 'Find a listener',
  memberSearchHint: 'Type part of a username',
  addMember: (username: string) => `Add ${username}`,
  removeMember: (username: string) => `Remove ${username}`,
  noUsersFound: 'No listener by that name',
  saveAccess: 'Save who sees it',
  accessSaved: (name: string) => `Saved who sees “${name}”`,
  failedToSaveAccess: 'Failed to save who sees the library',
  seenByEveryone: 'Seen by every listener',
  seenByChosen: (count: number) =>
    count === 0
      ? 'Seen by administrators only'
      : `Seen by administrators and ${count} ${count === 1 ? 'listener' : 'listeners'}`,
  confirmPurge: (name: string, missingCount: number) =>
    `Delete the ${missingCount} missing ${missingCount === 1 ? 'song' : 'songs'} of “${name}” from the catalogue? Their likes and playlist entries go with them. No file on disk is touched.`,
  purged: (name: string) => `Purged the missing songs of “${name}”`,
  failedToPurge: 'Failed to purge the missing songs',
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
  /** Playlist files (`.m3u`, `.m3u8`) read by the scan (issue 25): each is a playlist. */
  playlists: z.number().int(),
  /** Entries of those files that matched no song of the library (each also a problem, up to the cap). */
  unmatchedEntries: z.number().int(),
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
  /** Every user sees its songs; otherwise administrators and the members only. */
  everyone: z.boolean(),
  /** The users who see it while it is not everyone's (by id, ascending). */
  members: z.array(z.object({ id: z.number().int(), username: z.string() })),
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

/**
 * POST /api/libraries: a folder on the server; without a name, the folder's own name. `everyone` says whether every
 * user sees it: by default the first library is everyone's and a further one is seen by administrators only, until
 * they choose (PUT …/access).
 */
export const CreateLibraryRequest = z.object({
  path: LibraryPath,
  name: LibraryName.optional(),
  everyone: z.boolean().optional(),
});
export type CreateLibraryRequest = z.infer<typeof CreateLibraryRequest>;

/** The most users a library may list as its members. */
export const LIBRARY_MEMBERS_MAX = 10_000;

/** PUT /api/libraries/:libraryId/access: who sees the library (administrators always do). */
export const LibraryAccessRequest = z.object({
  everyone: z.boolean(),
  memberIds: z
    .array(z.number().int().positive().max(2_147_483_647))
    .max(LIBRARY_MEMBERS_MAX)
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
});
export type LibraryAccessRequest = z.infer<typeof LibraryAccessRequest>;

/** PATCH /api/libraries/:libraryId: a new name. */
export const RenameLibraryRequest = z.object({ name: LibraryName });
export type RenameLibraryRequest = z.infer<typeof RenameLibraryRequest>;

export const LibraryParam = z.object({ libraryId: DbIdText });
export type LibraryParam = z.infer<typeof LibraryParam>;
