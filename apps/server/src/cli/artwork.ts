import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MAX_BYTES, UNKNOWN_ARTIST } from '@tonearm/contract';
import type { IPicture } from 'music-metadata';
import { renderCover, type ArtStyle } from '../demo/artwork.js';
import { HttpError } from '../http/errors.js';
import { stageImage, type StagedImage } from '../media/staging.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MusicFolder } from '../modules/libraries/music-folder.js';

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

/** A song's cover and where it came from; `warning` says why the file's own artwork was not used. */
export interface StagedCover {
  image: StagedImage;
  /** True for the file's own artwork (embedded or the folder's), false for a generated one. */
  isArtwork: boolean;
  warning: string | null;
}

const COVER_STYLES: readonly ArtStyle[] = ['grid', 'sunset', 'shards', 'rings', 'waves'];

function sizeText(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function stageEmbedded(store: BlobStore, picture: IPicture): Promise<StagedImage | string> {
  if (picture.data.length > IMAGE_MAX_BYTES) {
    return `embedded picture not used: ${sizeText(picture.data.length)} is over the ${sizeText(IMAGE_MAX_BYTES)} limit`;
  }
  try {
    return await stageImage(store, Buffer.from(picture.data));
  } catch (error) {
    if (error instanceof HttpError) return `embedded picture not used: ${error.message}`;
    throw error;
  }
}

/** The cover's bytes, or why it is not used; opened only when the music folder's rule allows it. */
async function readFolderCover({ folder, file }: FolderCover): Promise<Buffer | string> {
  const read = await folder.withFile(file, async (handle) => {
    const { size } = await handle.stat();
    if (size > IMAGE_MAX_BYTES) return `${sizeText(size)} is over the ${sizeText(IMAGE_MAX_BYTES)} limit`;
    return handle.readFile();
  });
  const bytes = 'skip' in read ? read.skip : read.value;
  return typeof bytes === 'string' ? `${path.basename(file)} not used: ${bytes}` : bytes;
}

async function stageFolderCover(store: BlobStore, cover: FolderCover): Promise<StagedImage | string> {
  const bytes = await readFolderCover(cover);
  if (typeof bytes === 'string') return bytes;
  try {
    return await stageImage(store, bytes);
  } catch (error) {
    if (error instanceof HttpError) return `${path.basename(cover.file)} not used: ${error.message}`;
    throw error;
  }
}

/**
 * A song's cover: the file's embedded picture, else the folder's cover image, else one generated from the title (the
 * catalogue needs a cover for every song). A picture that is too large or not an image is left out with a warning.
 */
export async function stageCover(
  store: BlobStore,
  sources: { picture: IPicture | null; folderCover: FolderCover | null },
  label: { title: string; artist: string | null; sha256: string },
): Promise<StagedCover> {
  const warnings: string[] = [];
  if (sources.picture !== null) {
    const staged = await stageEmbedded(store, sources.picture);
    if (typeof staged !== 'string') return { image: staged, isArtwork: true, warning: null };
    warnings.push(staged);
  }
  if (sources.folderCover !== null) {
    const staged = await stageFolderCover(store, sources.folderCover);
    if (typeof staged !== 'string') return { image: staged, isArtwork: true, warning: warnings[0] ?? null };
    warnings.push(staged);
  }
  const seed = Number.parseInt(label.sha256.slice(0, 8), 16);
  const style = COVER_STYLES[seed % COVER_STYLES.length] ?? 'waves';
  const image = await stageImage(store, await renderCover(label.title, label.artist ?? UNKNOWN_ARTIST, style, seed));
  return { image, isArtwork: false, warning: warnings.length === 0 ? null : warnings.join('; ') };
}
