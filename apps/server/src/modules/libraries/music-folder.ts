/**
 * The one rule for reading a music folder (the import, `--watch`, and any later scanner): nothing outside the folder
 * is ever read.
 *
 * - A link is followed only when its real path (fs.realpath) stays inside the folder's real path; one that leaves it is
 *   skipped without opening or stat-ing what it leads to, and reported.
 * - A file or folder is found under its own path in the folder (no link on the way), so a link to something inside is
 *   followed once, and what it leads to is read once; a folder is walked once, and a link back to a folder that holds
 *   it (a loop) is skipped and reported.
 * - Only regular files and folders are read: a FIFO, socket or device is never opened (opening a FIFO waits forever).
 * - Hidden files and folders (a name starting with '.') are left out, and a link into one is skipped.
 * - Files are opened only after the check, and what was opened is checked again (see withFile).
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** File name extensions worth opening; the magic bytes still decide what is accepted. */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  'mp3',
  'flac',
  'ogg',
  'oga',
  'opus',
  'm4a',
  'm4b',
  'aac',
  'wav',
]);

/** Why an entry of the folder was not read. */
export const SkipReasons = {
  outside: 'a link to outside the music folder',
  loop: 'a link to a folder that holds it (a loop)',
  linkCycle: 'a link that leads back to itself (a loop)',
  hidden: 'a link to a hidden file or folder',
  special: 'not a regular file or folder (a FIFO, socket or device)',
  changed: 'it changed while it was being read',
} as const;

/** An entry of the folder that was not read, and why. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

/** What a walk found: the wanted files (sorted, each once) and the entries it skipped (sorted by path). */
export interface FolderWalk {
  files: string[];
  skipped: SkippedEntry[];
}

/** Where a path leads under the rule: a file or folder inside (by its own path in the folder), or why not. */
export type Resolved =
  { kind: 'file' | 'folder'; path: string; real: string; stats: Stats } | { kind: 'skipped'; reason: string };

/** A file name the import reads: an audio extension. */
export function isAudioName(name: string): boolean {
  return AUDIO_EXTENSIONS.has(path.extname(name).slice(1).toLowerCase());
}

/** Whether a relative path stays where it starts ('' is the start itself). */
function staysInside(relative: string): boolean {
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function isHidden(relative: string): boolean {
  return relative.split(path.sep).some((part) => part.startsWith('.'));
}

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

function isMissing(error: unknown): boolean {
  return errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
}

/** Opens without following a link at the end and without waiting on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

interface WalkState {
  wanted: (name: string) => boolean;
  files: Set<string>;
  skipped: SkippedEntry[];
  /** Real paths of the folders walked. */
  visited: Set<string>;
}

export class MusicFolder {
  private constructor(
    /** The folder as given, resolved: the paths this folder answers start with it. */
    readonly root: string,
    /** Its real path: the boundary. */
    readonly realRoot: string,
  ) {}

  /** The folder at `folder`; a folder that is not there (yet, or any more) holds nothing. */
  static async at(folder: string): Promise<MusicFolder> {
    const root = path.resolve(folder);
    return new MusicFolder(root, await realpath(root).catch(() => root));
  }

  /**
   * Where `file` leads: its real path must be inside the folder, and is answered as its path under `root`. Only
   * realpath (which reads the links on the way) is done before that is known; an lstat follows for a path inside.
   * Throws realpath's errors other than a link loop (ENOENT for a missing file or a broken link).
   */
  async resolve(file: string): Promise<Resolved> {
    let real: string;
    try {
      real = await realpath(file);
    } catch (error) {
      if (errorCode(error) === 'ELOOP') return { kind: 'skipped', reason: SkipReasons.linkCycle };
      throw error;
    }
    const inside = path.relative(this.realRoot, real);
    if (!staysInside(inside)) return { kind: 'skipped', reason: SkipReasons.outside };
    if (isHidden(inside)) return { kind: 'skipped', reason: SkipReasons.hidden };
    const stats = await lstat(real);
    const own = path.join(this.root, inside);
    if (stats.isFile()) return { kind: 'file', path: own, real, stats };
    if (!stats.isDirectory()) return { kind: 'skipped', reason: SkipReasons.special };
    // A folder that holds the link (or is the folder the link is in) would be walked again from inside itself.
    const parent = await realpath(path.dirname(file)).catch(() => null);
    if (parent !== null && staysInside(path.relative(real, parent))) {
      return { kind: 'skipped', reason: SkipReasons.loop };
    }
    return { kind: 'folder', path: own, real, stats };
  }

  /**
   * The wanted files (audio by default) at `scope`, a folder (walked recursively) or one file under `root`, and the
   * entries skipped on the way. A scope that is hidden, outside `root` or missing holds nothing. A FIFO, socket or
   * device is reported only when its name is wanted; a link that is not followed is always reported.
   */
  async walk(scope: string = this.root, wanted: (name: string) => boolean = isAudioName): Promise<FolderWalk> {
    const state: WalkState = { wanted, files: new Set(), skipped: [], visited: new Set() };
    const relative = path.relative(this.root, path.resolve(scope));
    if (staysInside(relative) && !isHidden(relative)) {
      const target = await this.resolveIfThere(scope);
      if (target !== null) await this.take(scope, target, state);
    }
    return {
      files: [...state.files].sort(),
      skipped: state.skipped.sort((a, b) => a.path.localeCompare(b.path)),
    };
  }

  /**
   * Runs `use` on `file` opened for reading, when the rule allows it: checked right before the open, opened without
   * following a last link or waiting on a FIFO, and checked again once open (the same regular file that was checked;
   * on Linux, /proc tells where the opened file really is). What is left: a folder on the way swapped for a link
   * between the check and the open. On Linux the second check sees where the opened file is and refuses it; elsewhere
   * it refuses only a file other than the one checked. Answers `{ skip }` with the reason otherwise; throws realpath's
   * and open's errors.
   */
  async withFile<T>(file: string, use: (handle: FileHandle) => Promise<T>): Promise<{ value: T } | { skip: string }> {
    const target = await this.resolve(file);
    if (target.kind !== 'file') return { skip: target.kind === 'skipped' ? target.reason : SkipReasons.changed };
    let handle: FileHandle;
    try {
      handle = await open(target.real, READ_FLAGS);
    } catch (error) {
      if (errorCode(error) === 'ELOOP') return { skip: SkipReasons.changed };
      throw error;
    }
    try {
      if (!(await this.isOpenedAsChecked(handle, target.stats))) return { skip: SkipReasons.changed };
      return { value: await use(handle) };
    } finally {
      await handle.close();
    }
  }

  private async isOpenedAsChecked(handle: FileHandle, checked: Stats): Promise<boolean> {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.dev !== checked.dev || stats.ino !== checked.ino) return false;
    const where = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    return where === null || staysInside(path.relative(this.realRoot, where));
  }

  /** resolve(), or null for nothing there (a missing file, a broken link). */
  private async resolveIfThere(file: string): Promise<Resolved | null> {
    try {
      return await this.resolve(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** One entry reached by the walk under the name `named`: a file kept, a folder walked, or a skip reported. */
  private async take(named: string, target: Resolved, state: WalkState): Promise<void> {
    if (target.kind === 'skipped') {
      if (target.reason !== SkipReasons.special || state.wanted(path.basename(named))) {
        state.skipped.push({ path: named, reason: target.reason });
      }
    } else if (target.kind === 'file') {
      if (state.wanted(path.basename(target.path))) state.files.add(target.path);
    } else {
      await this.walkFolder(target.path, target.real, state);
    }
  }

  /** A folder's entries, in name order; `own` is its path under `root` (no link on the way), `real` its real path. */
  private async walkFolder(own: string, real: string, state: WalkState): Promise<void> {
    if (state.visited.has(real)) return;
    state.visited.add(real);
    const entries = await readdir(real, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const named = path.join(own, entry.name);
      if (entry.isDirectory()) {
        await this.walkFolder(named, path.join(real, entry.name), state);
      } else if (entry.isFile()) {
        if (state.wanted(entry.name)) state.files.add(named);
      } else if (entry.isSymbolicLink()) {
        const target = await this.resolveIfThere(named);
        if (target !== null) await this.take(named, target, state);
      } else if (state.wanted(entry.name)) {
        state.skipped.push({ path: named, reason: SkipReasons.special });
      }
    }
  }
}
