import { THUMBNAIL_WIDTHS } from '@tonearm/contract';
import type { BlobReferencesRepository } from '../maintenance/blob-references.repository.js';
import { imageKeyFor } from '../media/blob-keys.js';
import type { BlobKind } from '../storage/blob-store.js';

export interface BlobRef {
  kind: BlobKind;
  key: string;
}

/**
 * Every blob the rows reference: each song's audio, and each image with the thumbnails made for it (an uploaded image
 * is served only through its thumbnails, so a restore without them would show no picture).
 */
export async function referencedBlobs(references: BlobReferencesRepository): Promise<BlobRef[]> {
  const refs: BlobRef[] = [...(await references.audioKeys())].sort().map((key) => ({ kind: 'audio', key }));
  for (const key of [...(await references.imageKeys())].sort()) {
    refs.push({ kind: 'image', key });
    for (const width of THUMBNAIL_WIDTHS) {
      const thumbnail = imageKeyFor(key, width);
      if (thumbnail !== null) refs.push({ kind: 'image', key: thumbnail });
    }
  }
  return refs;
}
