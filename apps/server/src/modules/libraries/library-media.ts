import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseFile } from 'music-metadata';
import { librarySha256Of } from '../../media/library-keys.js';
import type { LibraryFileLocator, LibraryMedia, ThumbnailMaker } from '../../media/media-source.js';
import { discardAll, stageImage } from '../../media/staging.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { LibrariesRepository } from './libraries.repository.js';
import { MusicFolder } from './music-folder.js';

/*
 * The library side of media: where a library song's file is (checked, on every request, to be inside its library under
 * the music folder's rule), and a cover's thumbnails made from the original in the library the first time they are
 * asked for. Only the thumbnails go to the blob store.
 */

const THUMBNAIL_KEY = /^([0-9a-f]{64})-\d+\.webp$/;

/** A library's folder, under the music folder's rule: made once per path. */
class Folders {
  private readonly byRoot = new Map<string, Promise<MusicFolder>>();

  at(root: string): Promise<MusicFolder> {
    let folder = this.byRoot.get(root);
    if (folder === undefined) {
      folder = MusicFolder.at(root);
      this.byRoot.set(root, folder);
    }
    return folder;
  }

  /** The real path of `relative` in the library at `root`, when the rule allows it and it is a regular file. */
  async realFile(root: string, relative: string): Promise<string | null> {
    return (await this.found(root, relative))?.file ?? null;
  }

  /** `realFile`, with the file's real path relative to the library's real folder (`/` between parts). */
  async found(root: string, relative: string): Promise<{ file: string; relative: string } | null> {
    const folder = await this.at(root);
    const target = await folder.resolve(path.join(folder.root, ...relative.split('/'))).catch(() => null);
    if (target?.kind !== 'file') return null;
    return { file: target.real, relative: path.relative(folder.realRoot, target.real).split(path.sep).join('/') };
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every picture embedded in an audio file; none when it cannot be read. */
async function embeddedPictures(file: string): Promise<Uint8Array[]> {
  try {
    const { common } = await parseFile(file, { duration: false, skipCovers: false });
    return (common.picture ?? []).map((picture) => picture.data);
  } catch {
    return [];
  }
}

export function createLibraryMedia(repository: LibrariesRepository, store: BlobStore): LibraryMedia {
  const folders = new Folders();
  const making = new Map<string, Promise<boolean>>();

  const files: LibraryFileLocator = {
    async locate(key) {
      const place = await repository.locate(librarySha256Of(key));
      const found = place === undefined ? null : await folders.found(place.root, place.path);
      return found === null || place === undefined ? null : { ...found, libraryId: place.libraryId };
    },
  };

  /** The original's bytes, read from the library, when they still hash to `hash`. */
  async function original(hash: string): Promise<Uint8Array | null> {
    const keys = ['jpg', 'png', 'webp'].map((ext) => `${hash}.${ext}`);
    const place = await repository.imageOriginal(keys);
    if (place === undefined) return null;
    const file = await folders.realFile(place.root, place.path);
    if (file === null) return null;
    if (place.embedded === 1) return (await embeddedPictures(file)).find((bytes) => sha256(bytes) === hash) ?? null;
    const folder = await folders.at(place.root);
    const read = await folder.withFile(file, (handle) => handle.readFile()).catch(() => null);
    if (read === null || 'skip' in read) return null;
    return sha256(read.value) === hash ? read.value : null;
  }

  async function make(hash: string): Promise<boolean> {
    const bytes = await original(hash);
    if (bytes === null) return false;
    const image = await stageImage(store, Buffer.from(bytes)).catch(() => null);
    if (image === null) return false;
    // The original stays in the library: only the thumbnails are kept.
    const thumbnails = image.blobs.filter((blob) => blob.key !== image.originalKey);
    try {
      for (const blob of thumbnails) await blob.staged.commit(blob.key);
    } finally {
      await discardAll([image]);
    }
    return true;
  }

  const thumbnails: ThumbnailMaker = {
    make(thumbnailKey) {
      const hash = THUMBNAIL_KEY.exec(thumbnailKey)?.[1];
      if (hash === undefined) return Promise.resolve(false);
      let made = making.get(hash);
      if (made === undefined) {
        made = make(hash).finally(() => making.delete(hash));
        making.set(hash, made);
      }
      return made;
    },
  };

  return { files, thumbnails };
}
