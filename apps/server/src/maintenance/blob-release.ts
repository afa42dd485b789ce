import { deleteImageSet, isOriginalImageKey } from '../media/blob-keys.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { BlobReferencesRepository } from './blob-references.repository.js';

/** Keys a change stopped using; null entries (no image before) are ignored. */
export interface ReleasedKeys {
  audio?: readonly (string | null | undefined)[];
  image?: readonly (string | null | undefined)[];
}

/**
 * Deletes blobs that a committed change stopped using, each only once no row references it any more (an image can be
 * shared by several rows). Never throws: the change is already committed, and a blob left behind by a failed delete
 * is removed by the start-up sweep.
 */
export type BlobReleaser = (keys: ReleasedKeys) => Promise<void>;

export function createBlobReleaser(store: BlobStore, references: BlobReferencesRepository): BlobReleaser {
  async function releaseAudio(key: string): Promise<void> {
    if (!(await references.isAudioReferenced(key))) await store.delete('audio', key);
  }

  async function releaseImage(key: string): Promise<void> {
    if (await references.isImageReferenced(key)) return;
    if (isOriginalImageKey(key)) await deleteImageSet(store, key);
    else await store.delete('image', key);
  }

  return async (keys) => {
    const audio = new Set((keys.audio ?? []).filter((key): key is string => typeof key === 'string'));
    const image = new Set((keys.image ?? []).filter((key): key is string => typeof key === 'string'));
    await Promise.allSettled([...[...audio].map(releaseAudio), ...[...image].map(releaseImage)]);
  };
}
