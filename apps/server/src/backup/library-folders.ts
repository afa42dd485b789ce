import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { checkFolder, LibraryUnavailable } from '../modules/libraries/library-scan.js';
import { BackupError } from './backup-error.js';
import type { LibraryItem } from './backup-manifest.js';

/**
 * Where the libraries of a backup are on the machine it is restored on. Their music is not in the archive: each folder
 * must be there, at the path the backup lists or at one the restore is given (`--library-path`), before anything is
 * written. One that is not is refused, unless the restore is told to go on without it; its songs are then marked
 * missing, and come back with the next scan that finds the folder.
 */

/** Where a library of the backup will be after the restore, and whether its folder is there. */
export interface LibraryPlacement {
  library: LibraryItem;
  /** Its folder on this machine: the backup's path, or the one it was remapped to. */
  path: string;
  moved: boolean;
  /** Why the folder cannot be read; null when it can. */
  problem: string | null;
}

export interface LibraryFolderOptions {
  /**
   * `<library id>=<new path>` or `<old path>=<new path>`, each naming one library of the backup (the CLI's repeatable
   * `--library-path`). An old path is the one the backup lists; the new path must be absolute.
   */
  libraryPaths?: readonly string[];
  /** Restore even when a library's folder is missing: its songs are marked missing until the folder is back. */
  allowMissingLibraries?: boolean;
}

/** The library a remap names, and where to: by id (`3=/new`) or by the old path (`/srv/music=/new`). */
function parseRemap(arg: string, libraries: readonly LibraryItem[]): { library: LibraryItem; to: string } {
  const byId = /^(\d+)=(.*)$/s.exec(arg);
  let library: LibraryItem | undefined;
  let to: string | undefined;
  if (byId !== null) {
    library = libraries.find((item) => String(item.id) === byId[1]);
    to = byId[2];
  } else {
    // The longest old path followed by `=`: paths may hold `=` themselves.
    let matched = -1;
    for (const item of libraries) {
      for (const from of [item.path, `${item.path}/`]) {
        if (arg.startsWith(`${from}=`) && from.length > matched) {
          matched = from.length;
          library = item;
          to = arg.slice(from.length + 1);
        }
      }
    }
  }
  if (library === undefined || to === undefined) {
    const known = libraries.map((item) => `${item.id} (${item.path})`).join(', ') || 'none';
    throw new BackupError(
      `--library-path ${arg}: names no library of this backup (give <id>=<new path> or <old path>=<new path>; ` +
        `its libraries: ${known}). Nothing was restored.`,
    );
  }
  if (to === '' || !path.isAbsolute(to)) {
    throw new BackupError(`--library-path ${arg}: the new path must be absolute. Nothing was restored.`);
  }
  return { library, to: path.resolve(to) };
}

/** Why the folder cannot hold the library: the scan's own check, and an empty folder where files were (unmounted). */
async function folderProblem(folder: string, library: LibraryItem): Promise<string | null> {
  try {
    await checkFolder(folder);
  } catch (error) {
    if (error instanceof LibraryUnavailable) return error.message.replace(/: nothing was marked missing$/, '');
    throw error;
  }
  if (library.files > 0 && (await readdir(folder)).length === 0) {
    return 'The folder is empty (is the drive mounted?)';
  }
  return null;
}

const inside = (child: string, parent: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

function describe(item: LibraryItem): string {
  return `library ${item.id} "${item.name}" (${item.files} files)`;
}

/**
 * Where each library of the backup goes, every folder checked; throws a BackupError naming every problem (and the
 * options that get past it) when a folder is not there and the restore was not told to go on without it.
 */
export async function placeLibraries(
  libraries: readonly LibraryItem[],
  options: LibraryFolderOptions,
): Promise<LibraryPlacement[]> {
  const remaps = new Map<number, string>();
  for (const arg of options.libraryPaths ?? []) {
    const { library, to } = parseRemap(arg, libraries);
    if (remaps.has(library.id)) {
      throw new BackupError(`--library-path names library ${library.id} twice. Nothing was restored.`);
    }
    remaps.set(library.id, to);
  }
  const placements: LibraryPlacement[] = [];
  for (const library of libraries) {
    const to = remaps.get(library.id);
    const folder = to ?? library.path;
    placements.push({
      library,
      path: folder,
      moved: to !== undefined && to !== library.path,
      problem: await folderProblem(folder, library),
    });
  }
  for (const a of placements) {
    const b = placements.find((other) => other !== a && inside(a.path, other.path));
    if (b !== undefined) {
      throw new BackupError(
        `${describe(a.library)} would be at ${a.path}, inside ${describe(b.library)} at ${b.path}: two libraries ` +
          'cannot share a folder. Nothing was restored.',
      );
    }
  }
  const unavailable = placements.filter((placement) => placement.problem !== null);
  if (unavailable.length > 0 && options.allowMissingLibraries !== true) {
    const lines = unavailable.map(
      (placement) => `  ${describe(placement.library)} at ${placement.path}: ${placement.problem ?? ''}`,
    );
    throw new BackupError(
      `The folder of ${unavailable.length === 1 ? 'a library' : `${unavailable.length} libraries`} of this backup ` +
        `cannot be read here:\n${lines.join('\n')}\nMount ${unavailable.length === 1 ? 'it' : 'them'} there, give ` +
        'the new place with --library-path <id>=<path>, or restore anyway with --allow-missing-libraries (the songs ' +
        'then show as missing until their folder is back and scanned). Nothing was restored.',
    );
  }
  return placements;
}
