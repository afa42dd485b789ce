import { THUMBNAIL_WIDTHS, type ThumbnailWidth } from '@tonearm/contract';
import type { BlobStore } from '../storage/blob-store.js';
import { InvalidBlobKeyError } from '../storage/blob-key.js';
import { DEFAULT_IMAGE_WIDTH, THUMBNAIL_FORMAT } from './media.formats.js';

/*
 * How stored media is keyed. Blobs are content-addressed: audio under `<sha256>.<ext>`, an image under
 * `<sha256>.<jpg|png|webp>` with its thumbnails under `<sha256>-<width>.webp`. Where the bytes of a key are is the
 * media source's business (media-source.ts); their URLs are the contract's (`audioUrl`, `imageUrl`).
 */

/**
 * Deletes an image and its thumbnails. Images are content-addressed, so two rows can share one (the same cover on two
 * songs): call this only once no row references `originalKey` any more.
 */
export async function deleteImageSet(store: BlobStore, originalKey: string): Promise<void> {
  const match = ORIGINAL_IMAGE_KEY.exec(originalKey);
  if (!match?.[1]) throw new InvalidBlobKeyError(originalKey);
  const sha256 = match[1];
  await Promise.all([
    store.delete('image', originalKey),
    ...THUMBNAIL_WIDTHS.map((width) => store.delete('image', thumbnailKey(sha256, width))),
  ]);
}

const ORIGINAL_IMAGE_KEY = /^([0-9a-f]{64})\.(?:jpg|png|webp)$/;

/** Whether `key` names an uploaded image as `stageImage` keys it (`<sha256>.<jpg|png|webp>`). */
export function isOriginalImageKey(key: string): boolean {
  return ORIGINAL_IMAGE_KEY.test(key);
}

/**
 * The blob served for an image at a width: its `<sha256>-<width>.webp` thumbnail (640 when no width is given). Null
 * when `originalKey` is not an image key made by `stageImage`.
 */
export function imageKeyFor(originalKey: string, width: ThumbnailWidth = DEFAULT_IMAGE_WIDTH): string | null {
  const sha256 = ORIGINAL_IMAGE_KEY.exec(originalKey)?.[1];
  return sha256 ? thumbnailKey(sha256, width) : null;
}

/** An image's thumbnail at a width: `<sha256>-<width>.webp`. */
export function thumbnailKey(sha256: string, width: ThumbnailWidth): string {
  return `${sha256}-${width}.${THUMBNAIL_FORMAT.ext}`;
}
