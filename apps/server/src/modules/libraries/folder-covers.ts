import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { MusicFolder } from './music-folder.js';

/** Names of a folder's cover image, by preference (any case): what players and rippers write beside an album. */
const COVER_NAMES = ['cover', 'folder', 'front', 'album'];
const COVER_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp']);

/** A folder's cover image, and the music folder it is read under (its rule: music-folder.ts). */
export interface FolderCover {
  folder: MusicFolder;
  file: string;
}

/**
 * The cover image file beside an album's files (`cover.jpg`, `Folder.png`, …) in `dir`, or null. Only a regular file
 * inside the music folder counts: a link leading out of it, a FIFO or a folder is passed over (never opened).
 */
export async function findFolderCover(folder: MusicFolder, dir: string): Promise<string | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const candidates = names.filter((name) => {
    const ext = path.extname(name).slice(1).toLowerCase();
    return COVER_EXTENSIONS.has(ext) && COVER_NAMES.includes(path.basename(name, path.extname(name)).toLowerCase());
  });
  candidates.sort(
    (a, b) =>
      COVER_NAMES.indexOf(path.basename(a, path.extname(a)).toLowerCase()) -
        COVER_NAMES.indexOf(path.basename(b, path.extname(b)).toLowerCase()) || a.localeCompare(b),
  );
  for (const name of candidates) {
    const target = await folder.resolve(path.join(dir, name)).catch(() => null);
    if (target?.kind === 'file') return target.path;
  }
  return null;
}

/** Folder covers looked up once per folder in a run. */
export class FolderCovers {
  private readonly found = new Map<string, Promise<FolderCover | null>>();

  constructor(private readonly folder: MusicFolder) {}

  of(file: string): Promise<FolderCover | null> {
    const dir = path.dirname(file);
    let cover = this.found.get(dir);
    if (cover === undefined) {
      cover = findFolderCover(this.folder, dir).then((found) =>
        found === null ? null : { folder: this.folder, file: found },
      );
      this.found.set(dir, cover);
    }
    return cover;
  }
}
