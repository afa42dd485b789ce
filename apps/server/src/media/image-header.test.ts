import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimedPng } from '../../test/media.js';
import { claimedImageSize } from './image-header.js';
import { claimedJpeg, claimedWebp } from './lying-media.fixtures.js';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-image-header-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function sizeOf(bytes: Buffer, ext: string) {
  counter += 1;
  const file = path.join(dir, `image-${counter}`);
  await writeFile(file, bytes);
  return claimedImageSize(file, ext);
}

const real = (format: 'png' | 'jpeg' | 'webp', options: { alpha?: boolean } = {}) =>
  sharp({
    create: {
      width: 123,
      height: 45,
      channels: options.alpha === true ? 4 : 3,
      background: options.alpha === true ? { r: 1, g: 2, b: 3, alpha: 0.5 } : 'navy',
    },
  }).toFormat(format);

describe('claimedImageSize', () => {
  it.each([
    ['a PNG', () => real('png').toBuffer(), 'png'],
    ['a baseline JPEG', () => real('jpeg').toBuffer(), 'jpg'],
    ['a progressive JPEG', () => real('jpeg').jpeg({ progressive: true }).toBuffer(), 'jpg'],
    ['a JPEG with EXIF before its frame', () => real('jpeg').withMetadata({ orientation: 6 }).toBuffer(), 'jpg'],
    ['a lossy WebP (VP8)', () => real('webp').toBuffer(), 'webp'],
    ['a lossless WebP (VP8L)', () => real('webp').webp({ lossless: true }).toBuffer(), 'webp'],
    ['a WebP with alpha (VP8X)', () => real('webp', { alpha: true }).toBuffer(), 'webp'],
  ])('reads the size of %s from its header', async (_name, make, ext) => {
    expect(await sizeOf(await make(), ext)).toEqual({ width: 123, height: 45 });
  });

  it('reads what a lying header claims, where a decoder would refuse it', async () => {
    expect(await sizeOf(claimedPng(0x7fffffff, 3), 'png')).toEqual({ width: 0x7fffffff, height: 3 });
    expect(await sizeOf(await claimedJpeg(65_535, 2), 'jpg')).toEqual({ width: 65_535, height: 2 });
    expect(await sizeOf(await claimedWebp(16_777_216, 5, 'VP8X'), 'webp')).toEqual({ width: 16_777_216, height: 5 });
  });

  it('answers null when the header does not say', async () => {
    const png = await real('png').toBuffer();
    const jpeg = await real('jpeg').toBuffer();
    expect(await sizeOf(png.subarray(0, 20), 'png')).toBeNull();
    expect(await sizeOf(jpeg.subarray(0, 6), 'jpg')).toBeNull();
    expect(await sizeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8Z'), 'webp')).toBeNull();
    expect(await sizeOf(png, 'gif')).toBeNull();
  });
});
