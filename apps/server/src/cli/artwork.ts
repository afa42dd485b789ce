import path from 'node:path';
import { IMAGE_MAX_BYTES, UNKNOWN_ARTIST } from '@tonearm/contract';
import type { IPicture } from 'music-metadata';
import { renderCover, type ArtStyle } from '../demo/artwork.js';
import { HttpError } from '../http/errors.js';
import { stageImage, type StagedImage } from '../media/staging.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { FolderCover } from '../modules/libraries/folder-covers.js';

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
