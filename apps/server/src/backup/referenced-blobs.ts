import { THUMBNAIL_WIDTHS } from '@tonearm/contract';
import type { BlobReferencesRepository } from '../maintenance/blob-references.repository.js';
import { imageKeyFor } from '../media/blob-keys.js';
import { isLibraryKey } from '../media/library-keys.js';
import type { BlobKind } from '../storage/blob-store.js';

export interface BlobRef {
  kind: BlobKind;
  key: string;
  /**
   * Whether a restore needs it from the store. A cover read from a library (its original stays in the folder) has
   * thumbnails only once they were asked for, and they are made again from the folder: copied when there, not missed.
   */
  required: boolean;
}

/**
 * Every blob the rows reference: each stored song's audio, and each image with the thumbnails made for it (an
 * uploaded image is served only through its thumbnails, so a restore without them would show no picture). A library
 * song's audio (a `lib…` key, library-keys.ts) is a file of its folder, not a blob: the manifest lists the library.
 */
export async function referencedBlobs(
  references: BlobReferencesRepository,
  libraryImages: ReadonlySet<string> = new Set(),
): Promise<BlobRef[]> {
  const refs: BlobRef[] = [...(await references.audioKeys())]
    .filter((key) => !isLibraryKey(key))
    .sort()
    .map((key) => ({ kind: 'audio', key, required: true }));
  for (const key of [...(await references.imageKeys())].sort()) {
    const required = !libraryImages.has(key);
    refs.push({ kind: 'image', key, required });
    for (const width of THUMBNAIL_WIDTHS) {
      const thumbnail = imageKeyFor(key, width);
      if (thumbnail !== null) refs.push({ kind: 'image', key: thumbnail, required });
    }
  }
  return refs;
}
