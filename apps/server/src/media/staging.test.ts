import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIO_MAX_BYTES, ErrorCodes, IMAGE_MAX_BYTES } from '@tonearm/contract';
import { HttpError } from '../http/errors.js';
import { InvalidBlobKeyError } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { adtsFile, flacFile, imageFile, mp3File, mp4File, oggFile, toneWav } from '../../test/media.js';
import { collect, tempFiles } from '../../test/stored.js';
import { AudioMessages, formatBytes, ImageMessages, mimeForKey } from './media.formats.js';
import { deleteImageSet, imageKeyFor, isOriginalImageKey } from './blob-keys.js';
import { commitAll, discardAll, stageAudio, stageImage } from './staging.js';

let root: string;
let store: LocalBlobStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-media-'));
  store = new LocalBlobStore(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Splits bytes into small chunks delivered one by one, as a network upload arrives. */
function chunked(bytes: Buffer, chunkSize = 1000): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize)
    chunks.push(bytes.subarray(offset, offset + chunkSize));
  return Readable.from(chunks);
}

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof HttpError)) throw error;
  return error;
}

describe('stageAudio', () => {
  it('stages a WAV under its content hash, with type, size and duration, visible only after commit', async () => {
    const wav = toneWav(440, 2.5);
    const audio = await stageAudio(store, chunked(wav));

    expect(audio).toMatchObject({
      key: `${sha256(wav)}.wav`,
      sha256: sha256(wav),
      ext: 'wav',
      mime: 'audio/wav',
      size: wav.length,
      durationMs: 2500,
    });
    expect(await store.stat('audio', audio.key)).toBeNull();

    await commitAll([audio]);

    expect(await readFile(store.localPath('audio', audio.key))).toEqual(wav);
    expect(await tempFiles(root)).toEqual([]);
  });

  it.each([
    ['MP3', mp3File(100), 'mp3', 'audio/mpeg', 2612],
    ['FLAC', flacFile(44_100 * 3), 'flac', 'audio/flac', 3000],
    ['Ogg Opus', oggFile('opus'), 'opus', 'audio/ogg', null],
    ['Ogg Vorbis', oggFile('vorbis'), 'ogg', 'audio/ogg', null],
    ['M4A', mp4File('M4A ', 'soun'), 'm4a', 'audio/mp4', 30_000],
    ['audio-only MP4 (phone recording)', mp4File('isom', 'soun'), 'm4a', 'audio/mp4', 30_000],
    ['ADTS AAC', adtsFile(), 'aac', 'audio/aac', null],
  ])('accepts %s by its magic bytes', async (_name, bytes, ext, mime, durationMs) => {
    const audio = await stageAudio(store, bytes);
    expect(audio).toMatchObject({ ext, mime, key: `${sha256(bytes)}.${ext}` });
    // A header without audio frames (the Ogg and ADTS fixtures) has no known length: null, not a crash.
    expect(audio.durationMs).toBe(durationMs);
    await discardAll([audio]);
    expect(await tempFiles(root)).toEqual([]);
  });

  it.each([
    ['a PNG (named .mp3 or not)', () => imageFile(20, 20, 'png')],
    ['a JPEG', () => imageFile(20, 20, 'jpeg')],
    ['plain text', () => Promise.resolve(Buffer.from('this is not audio at all, just text\n'.repeat(20)))],
    ['an empty file', () => Promise.resolve(Buffer.alloc(0))],
    ['MPEG layer II', () => Promise.resolve(mp3File(10, 0b10))],
    ['an MP4 video', () => Promise.resolve(mp4File('isom', 'vide'))],
  ])('refuses %s with 415 naming the accepted types, keeping nothing', async (_name, make) => {
    const error = await rejection(stageAudio(store, chunked(await make()), 'songFile'));

    expect(error.status).toBe(415);
    expect(error.code).toBe(ErrorCodes.unsupportedMediaType);
    expect(error.message).toBe('Audio must be MP3, FLAC, OGG/Opus, M4A/AAC or WAV');
    expect(error.field).toBe('songFile');
    expect(await tempFiles(root)).toEqual([]);
    expect(await collect(store.list('audio'))).toEqual([]);
  });

  it('aborts an oversized upload at the limit with 413, removing the temp file and stopping the source', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 16 * 1024;
        this.push(Buffer.alloc(16 * 1024, 7));
      },
    });

    const error = await rejection(stageAudio(store, endless, 'audio', { maxBytes: 256 * 1024 }));

    expect(error.status).toBe(413);
    expect(error.code).toBe(ErrorCodes.payloadTooLarge);
    expect(error.message).toBe('Audio files can be at most 256 KB');
    expect(error.field).toBe('audio');
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThan(1024 * 1024);
    expect(await tempFiles(root)).toEqual([]);
  });

  it('accepts exactly the limit and refuses one byte more, from a stream or a buffer', async () => {
    const wav = toneWav(440, 0.5);
    const exact = await stageAudio(store, chunked(wav), 'songFile', { maxBytes: wav.length });
    expect(exact.size).toBe(wav.length);
    await discardAll([exact]);

    const tooLong = await rejection(stageAudio(store, chunked(wav), 'songFile', { maxBytes: wav.length - 1 }));
    expect(tooLong.status).toBe(413);
    const tooLongBuffer = await rejection(stageAudio(store, wav, 'songFile', { maxBytes: wav.length - 1 }));
    expect(tooLongBuffer.status).toBe(413);
    expect(await tempFiles(root)).toEqual([]);
  });

  it('names the real limits in its messages', () => {
    expect(AudioMessages.tooLarge()).toBe('Audio files can be at most 200 MB');
    expect(ImageMessages.tooLarge()).toBe('Images can be at most 15 MB');
    expect(formatBytes(AUDIO_MAX_BYTES)).toBe('200 MB');
    expect(formatBytes(IMAGE_MAX_BYTES)).toBe('15 MB');
    expect(formatBytes(100)).toBe('100 bytes');
  });

  it('hashes streamed bytes exactly like hashing the whole file', async () => {
    const wav = toneWav(440, 1.3, 11_025);
    const audio = await stageAudio(store, chunked(wav, 777));
    expect(audio.sha256).toBe(sha256(wav));
    await discardAll([audio]);
  });

  it('stores the same audio once: a second commit of the same content keeps the first blob', async () => {
    const wav = toneWav(440, 0.4);
    const first = await stageAudio(store, wav);
    const second = await stageAudio(store, wav);
    expect(second.key).toBe(first.key);
    await commitAll([first]);
    await commitAll([second]);
    expect(await collect(store.list('audio'))).toEqual([first.key]);
    expect(await tempFiles(root)).toEqual([]);
  });
});

describe('stageImage', () => {
  it('stages the original and 64/300/640 px WebP thumbnails that keep the aspect ratio', async () => {
    const png = await imageFile(1000, 500, 'png');
    const image = await stageImage(store, chunked(png, 4096));

    expect(image.originalKey).toBe(`${sha256(png)}.png`);
    expect(image.mime).toBe('image/png');
    expect(image.thumbnailKeys).toEqual({
      64: `${sha256(png)}-64.webp`,
      300: `${sha256(png)}-300.webp`,
      640: `${sha256(png)}-640.webp`,
    });
    expect(await collect(store.list('image'))).toEqual([]);

    await commitAll([image]);

    for (const [width, key] of Object.entries(image.thumbnailKeys)) {
      const meta = await sharp(store.localPath('image', key)).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: Number(width), height: Number(width) / 2 });
    }
    expect(await readFile(store.localPath('image', image.originalKey))).toEqual(png);
    expect(await tempFiles(root)).toEqual([]);
  });

  it('never enlarges a small image', async () => {
    const image = await stageImage(store, await imageFile(120, 90, 'webp'));
    expect(image.mime).toBe('image/webp');
    await commitAll([image]);
    expect(await sharp(store.localPath('image', image.thumbnailKeys[64])).metadata()).toMatchObject({
      width: 64,
      height: 48,
    });
    for (const key of [image.thumbnailKeys[300], image.thumbnailKeys[640]]) {
      expect(await sharp(store.localPath('image', key)).metadata()).toMatchObject({ width: 120, height: 90 });
    }
  });

  it('turns thumbnails upright by the EXIF orientation', async () => {
    // Stored 200×100 landscape, orientation 6 = display rotated 90°: a 100×200 portrait.
    const jpeg = await imageFile(200, 100, 'jpeg', 6);
    const image = await stageImage(store, jpeg);
    expect(image.originalKey).toMatch(/\.jpg$/);
    await commitAll([image]);
    expect(await sharp(store.localPath('image', image.thumbnailKeys[64])).metadata()).toMatchObject({
      width: 64,
      height: 128,
    });
  });

  it.each([
    ['a GIF', () => imageFile(10, 10, 'gif'), ImageMessages.wrongType],
    ['a WAV named .png', () => Promise.resolve(toneWav(440, 0.1)), ImageMessages.wrongType],
    ['a damaged PNG', async () => (await imageFile(50, 50, 'png')).subarray(0, 60), ImageMessages.unreadable],
  ])('refuses %s with 415, keeping nothing', async (_name, make, message) => {
    const error = await rejection(stageImage(store, await make(), 'imageFile'));
    expect(error).toMatchObject({ status: 415, message, field: 'imageFile' });
    expect(await tempFiles(root)).toEqual([]);
    expect(await collect(store.list('image'))).toEqual([]);
  });

  it('refuses too many bytes and too many pixels with 413', async () => {
    const png = await imageFile(400, 300, 'png');
    const bytes = await rejection(stageImage(store, chunked(png), 'image', { maxBytes: 100 }));
    expect(bytes).toMatchObject({ status: 413, message: 'Images can be at most 100 bytes', field: 'image' });

    const pixels = await rejection(stageImage(store, png, 'image', { maxPixels: 100_000 }));
    expect(pixels).toMatchObject({ status: 413, message: 'Images can be at most 0.1 megapixels' });
    expect(ImageMessages.tooManyPixels()).toBe('Images can be at most 40 megapixels');
    expect(await tempFiles(root)).toEqual([]);
  });

  it('discardAll removes every staged blob of several uploads; nothing becomes visible', async () => {
    const audio = await stageAudio(store, toneWav(440, 0.2));
    const image = await stageImage(store, await imageFile(30, 30, 'png'));
    expect(await tempFiles(root)).toHaveLength(5);

    await discardAll([audio, image, null, undefined]);

    expect(await tempFiles(root)).toEqual([]);
    expect(await collect(store.list('audio'))).toEqual([]);
    expect(await collect(store.list('image'))).toEqual([]);
  });

  it('deleteImageSet removes the original and its thumbnails', async () => {
    const image = await stageImage(store, await imageFile(30, 30, 'jpeg'));
    const other = await stageImage(store, await imageFile(31, 30, 'jpeg'));
    await commitAll([image, other]);

    await deleteImageSet(store, image.originalKey);

    expect((await collect(store.list('image'))).sort()).toEqual(
      [other.originalKey, ...Object.values(other.thumbnailKeys)].sort(),
    );
    await expect(deleteImageSet(store, '../x.png')).rejects.toThrow(InvalidBlobKeyError);
  });
});

describe('image keys and Content-Types', () => {
  const sha = 'ab'.repeat(32);

  it('maps an original image key to the thumbnail served for a width (640 by default)', () => {
    expect(imageKeyFor(`${sha}.png`, 64)).toBe(`${sha}-64.webp`);
    expect(imageKeyFor(`${sha}.jpg`)).toBe(`${sha}-640.webp`);
    expect(imageKeyFor(`${sha}-64.webp`, 64)).toBeNull();
    expect(imageKeyFor('avatar.png')).toBeNull();
    expect(isOriginalImageKey(`${sha}.webp`)).toBe(true);
    expect(isOriginalImageKey(`${sha}.gif`)).toBe(false);
  });

  it('names the Content-Types by key', () => {
    expect(mimeForKey(`${sha}.opus`)).toBe('audio/ogg');
    expect(mimeForKey(`${sha}-64.webp`)).toBe('image/webp');
    expect(mimeForKey('no-extension')).toBe('application/octet-stream');
  });
});
