import type { Readable } from 'node:stream';
import {
  AUDIO_MAX_BYTES,
  endpoints,
  fileField,
  IMAGE_MAX_BYTES,
  THUMBNAIL_WIDTHS,
  type ThumbnailWidth,
} from '@tonearm/contract';
import { payloadTooLarge, unsupportedMediaType } from '../http/errors.js';
import type { BlobStore, StagedBlob } from '../storage/blob-store.js';
import type { AudioEndCheck } from './audio-check.js';
import type { FileLyrics } from './file-lyrics.js';
import { thumbnailKey } from './blob-keys.js';
import { claimedImageSize } from './image-header.js';
import { AudioMessages, IMAGE_MAX_PIXELS, ImageMessages, type MediaFormat } from './media.formats.js';
import type { ImageWork, WorkGate } from './image-work.js';
import { loadSharp } from './sharp-loader.js';
import { detectImageFormat, inspectAudio, stageMetered } from './upload-inspect.js';

/** Staged bytes and the key they become visible under once committed. */
export interface PendingBlob {
  readonly staged: StagedBlob;
  readonly key: string;
}

/** Anything `commitAll`/`discardAll` handle: the result of `stageAudio` or `stageImage`. */
export interface StagedMedia {
  readonly blobs: readonly PendingBlob[];
}

export interface StagedAudio extends StagedMedia {
  readonly staged: StagedBlob;
  /** `<sha256>.<ext>`: content-addressed, the value for `songs.audio_key`. */
  readonly key: string;
  readonly sha256: string;
  readonly mime: string;
  readonly ext: string;
  readonly size: number;
  readonly durationMs: number | null;
  /** The lyrics the file's tags carry (issue 27), stored with the song as `embedded`. */
  readonly lyrics: FileLyrics | null;
}

export interface StagedImage extends StagedMedia {
  /** `<sha256>.<ext>` of the upload as sent: the value for `image_key` columns. Never served (it may carry EXIF). */
  readonly originalKey: string;
  readonly sha256: string;
  readonly mime: string;
  /** Bytes of the upload as sent (what per-user upload allowances count). */
  readonly size: number;
  /** `<sha256>-<width>.webp` per thumbnail width. */
  readonly thumbnailKeys: Readonly<Record<ThumbnailWidth, string>>;
}

/** The fields errors name when a caller names none (the demo seed, the import): the song form's. */
const AUDIO_FIELD = fileField(endpoints.songs.create, 'audio');
const IMAGE_FIELD = fileField(endpoints.songs.create, 'image');

export interface AudioStageOptions {
  /** Defaults to AUDIO_MAX_BYTES. */
  maxBytes?: number;
  /**
   * The decode and end-of-audio check the import applies too (audio-check.ts): 415 with its reason for a file ffmpeg
   * cannot decode or whose audio ends before its header says. Without it (the demo seed) only headers are read.
   */
  check?: AudioEndCheck | null;
}

export interface ImageStageOptions {
  /** Defaults to IMAGE_MAX_BYTES. */
  maxBytes?: number;
  /** Defaults to IMAGE_MAX_PIXELS. */
  maxPixels?: number;
  /**
   * Bounds concurrent decoding (IMAGE_CONCURRENCY/IMAGE_QUEUE): the thumbnails are rendered inside `gate.run`, which
   * refuses with 429 when its queue is full. Absent (demo seed, import), images are processed as they come.
   */
  gate?: WorkGate;
}

/**
 * Stages an uploaded audio file: streams it to a temp blob (413 past the limit), hashes it on the way, checks the
 * magic bytes (415 unless MP3, FLAC, OGG/Opus, M4A/AAC or WAV), reads its duration and, given a `check`, decodes a
 * little of it (415 when it cannot be decoded or is cut short). Nothing is visible until `commitAll`; on any error the
 * staged bytes are already gone.
 */
export async function stageAudio(
  store: BlobStore,
  source: Readable | Buffer,
  field: string = AUDIO_FIELD,
  options: AudioStageOptions = {},
): Promise<StagedAudio> {
  const maxBytes = options.maxBytes ?? AUDIO_MAX_BYTES;
  const { staged, sha256 } = await stageMetered(store, 'audio', source, {
    maxBytes,
    tooLarge: () => payloadTooLarge(AudioMessages.tooLarge(maxBytes), field),
  });
  try {
    const { format, durationMs, lyrics } = await inspectAudio(staged.tempPath, field, AudioMessages.wrongType);
    const refused = (await options.check?.reasonAgainst(staged.tempPath, format.ext)) ?? null;
    if (refused !== null) throw unsupportedMediaType(refused, field);
    const key = `${sha256}.${format.ext}`;
    return {
      staged,
      key,
      sha256,
      mime: format.mime,
      ext: format.ext,
      size: staged.size,
      durationMs,
      lyrics,
      blobs: [{ staged, key }],
    };
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

/**
 * Stages an uploaded image and its WebP thumbnails (64, 300 and 640 px wide, turned upright by EXIF, never enlarged):
 * 413 past the byte or pixel limit (pixels read from the header, before anything is decoded), 415 unless JPEG, PNG or
 * WebP (or when it cannot be decoded), 429 when the image gate's queue is full. Nothing is visible until `commitAll`;
 * on any error every staged byte is already gone.
 */
export async function stageImage(
  store: BlobStore,
  source: Readable | Buffer,
  field: string = IMAGE_FIELD,
  options: ImageStageOptions = {},
): Promise<StagedImage> {
  const maxBytes = options.maxBytes ?? IMAGE_MAX_BYTES;
  const { staged, sha256 } = await stageMetered(store, 'image', source, {
    maxBytes,
    tooLarge: () => payloadTooLarge(ImageMessages.tooLarge(maxBytes), field),
  });
  const blobs: PendingBlob[] = [];
  try {
    const format = await detectImageFormat(staged.tempPath, field, ImageMessages.wrongType);
    const originalKey = `${sha256}.${format.ext}`;
    blobs.push({ staged, key: originalKey });
    const thumbnailKeys = {} as Record<ThumbnailWidth, string>;
    const maxPixels = options.maxPixels ?? IMAGE_MAX_PIXELS;
    await assertPixels(staged.tempPath, format, field, maxPixels);
    const render = () => renderThumbnails(staged.tempPath, field, maxPixels);
    const thumbnails = options.gate === undefined ? await render() : await options.gate.run(render);
    for (const [width, bytes] of thumbnails) {
      const key = thumbnailKey(sha256, width);
      blobs.push({ staged: await store.stage('image', bytes), key });
      thumbnailKeys[width] = key;
    }
    return { originalKey, sha256, mime: format.mime, size: staged.size, thumbnailKeys, blobs };
  } catch (error) {
    await staged.discard();
    await discardBlobs(blobs);
    throw error;
  }
}

/**
 * Refuses an image of more than `maxPixels` from its header alone, before anything is decoded, so a decompression bomb
 * costs neither a decode nor a place in the image gate. Past the limit is always 413 with the one message, whatever
 * the format and whether or not libvips would read such a header (it refuses a JPEG side over 65 500 pixels, say):
 * the size the header claims is read here first, then libvips's (sharp's metadata() decodes no pixel data, and its own
 * pixel limit is off so that it never answers for ours). 415 when the header cannot be read.
 */
async function assertPixels(filePath: string, format: MediaFormat, field: string, maxPixels: number): Promise<void> {
  const tooManyPixels = () => payloadTooLarge(ImageMessages.tooManyPixels(maxPixels), field);
  const claimed = await claimedImageSize(filePath, format.ext);
  if (claimed !== null && claimed.width * claimed.height > maxPixels) throw tooManyPixels();
  const sharp = await loadSharp();
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(filePath, { limitInputPixels: false }).metadata());
  } catch {
    throw unsupportedMediaType(ImageMessages.unreadable, field);
  }
  if (!width || !height) throw unsupportedMediaType(ImageMessages.unreadable, field);
  if (width * height > maxPixels) throw tooManyPixels();
}

/** What sharp says when `limitInputPixels` refuses an input. */
const PIXEL_LIMIT_ERROR = /exceeds pixel limit/i;

async function renderThumbnails(
  filePath: string,
  field: string,
  maxPixels: number,
): Promise<[ThumbnailWidth, Buffer][]> {
  const sharp = await loadSharp();
  // One at a time: peak memory stays that of a single decode, which matters for large photos. limitInputPixels is
  // the second line of defence, should a header understate the real size.
  const thumbnails: [ThumbnailWidth, Buffer][] = [];
  for (const thumbnailWidth of THUMBNAIL_WIDTHS) {
    try {
      const bytes = await sharp(filePath, { limitInputPixels: maxPixels, failOn: 'error' })
        .autoOrient()
        // The height cap keeps a freak panorama (100 × 100000) from producing a huge "thumbnail".
        .resize({ width: thumbnailWidth, height: thumbnailWidth * 3, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      thumbnails.push([thumbnailWidth, bytes]);
    } catch (error) {
      // The pixel limit, whatever found it: the same answer as assertPixels gives.
      if (error instanceof Error && PIXEL_LIMIT_ERROR.test(error.message)) {
        throw payloadTooLarge(ImageMessages.tooManyPixels(maxPixels), field);
      }
      throw unsupportedMediaType(ImageMessages.unreadable, field);
    }
  }
  return thumbnails;
}

/**
 * The stagers of an upload form's files by kind (http/upload-form's declaredUpload gives each its field's name and
 * declared limit): audio as stageAudio with `audioCheck` (the import's check, see uploadAudioCheck), images as
 * stageImage through the image gate. `beforeImage` runs before an image's bytes are read (e.g. a per-user allowance
 * check that refuses).
 */
export function uploadStagers(
  store: BlobStore,
  images: ImageWork,
  beforeImage?: () => Promise<void>,
  audioCheck: AudioEndCheck | null = null,
) {
  return {
    audio: (stream: Readable, field: string, maxBytes: number) =>
      stageAudio(store, stream, field, { maxBytes, check: audioCheck }),
    image: async (stream: Readable, field: string, maxBytes: number) => {
      await beforeImage?.();
      return stageImage(store, stream, field, { ...images, maxBytes });
    },
  };
}

/**
 * Makes every staged blob visible under its key (atomic renames). Call it as the last step inside the DB transaction
 * that writes the rows referencing the keys: if a commit fails, the transaction rolls back and the not yet committed
 * blobs are discarded; blobs committed before a failure are unreferenced and removed by the start-up sweep.
 */
export async function commitAll(items: readonly (StagedMedia | null | undefined)[]): Promise<void> {
  const blobs = items.flatMap((item) => item?.blobs ?? []);
  for (const [index, blob] of blobs.entries()) {
    try {
      await blob.staged.commit(blob.key);
    } catch (error) {
      await discardBlobs(blobs.slice(index));
      throw error;
    }
  }
}

/**
 * Removes every staged blob that was not committed. Never throws, so it is safe in a `catch` that rethrows the real
 * error; a temp file it cannot remove is left to `BlobStore.sweepTemp`.
 */
export async function discardAll(items: readonly (StagedMedia | null | undefined)[]): Promise<void> {
  await discardBlobs(items.flatMap((item) => item?.blobs ?? []));
}

async function discardBlobs(blobs: readonly PendingBlob[]): Promise<void> {
  await Promise.allSettled(blobs.map((blob) => blob.staged.discard()));
}
