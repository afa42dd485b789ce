import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeAudio, encodePicture, FFMPEG, requireFfmpeg } from '../../../test/audio-formats.js';
import { oggWithComments, type Comments } from '../../../test/tag-writers.js';
import { FileWindows } from './file-windows.js';
import { isOggVorbisOrOpus } from './ogg-picture.js';
import { readTags } from './read-tags.js';

/** Real Ogg Vorbis and Opus files made by ffmpeg, their comment header rewritten with a picture (tag-writers.ts). */
let dir: string;
let png: Buffer;

beforeAll(async () => {
  requireFfmpeg();
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-ogg-picture-'));
  const picture = path.join(dir, 'cover.png');
  await encodePicture(picture, 64, 'green');
  png = await readFile(picture);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A FLAC picture block (front cover) holding `data`, base64 as METADATA_BLOCK_PICTURE carries it. */
function pictureComment(data: Buffer, mime = 'image/png'): string {
  const uint32 = (value: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value);
    return bytes;
  };
  const description = Buffer.from('Front – cover');
  const block = Buffer.concat([
    uint32(3),
    uint32(mime.length),
    Buffer.from(mime, 'latin1'),
    uint32(description.length),
    description,
    uint32(64),
    uint32(64),
    uint32(24),
    uint32(0),
    uint32(data.length),
    data,
  ]);
  return block.toString('base64');
}

async function oggFile(format: 'ogg' | 'opus', name: string, comments: Comments): Promise<string> {
  const plain = path.join(dir, `${name}-plain.${format}`);
  await encodeAudio(plain, format, { seconds: 1 });
  const file = path.join(dir, `${name}.${format}`);
  await writeFile(file, oggWithComments(await readFile(plain), comments));
  return file;
}

it.each(['ogg', 'opus'] as const)('reads the picture of a %s file as music-metadata does', async (format) => {
  const file = await oggFile(format, 'small', [
    ['TITLE', 'Green'],
    ['metadata_block_picture', pictureComment(png)],
  ]);
  const tags = await readTags(file);
  expect(tags.title).toBe('Green');
  expect(Buffer.from(tags.picture?.data ?? [])).toEqual(png);
  expect(tags.picture?.format).toBe('image/png');
  const theirs = await parseFile(file);
  expect(Buffer.from(theirs.common.picture?.[0]?.data ?? [])).toEqual(png);
});

it.each(['ogg', 'opus'] as const)('reads a picture spread over several Ogg pages (%s)', async (format) => {
  const image = Buffer.concat([png.subarray(0, 8), randomBytes(300 * 1024)]);
  const file = await oggFile(format, 'large', [
    ['TITLE', 'Large'],
    ['ARTIST', 'Ann'],
    ['METADATA_BLOCK_PICTURE', pictureComment(image, 'image/jpeg')],
    ['METADATA_BLOCK_PICTURE', pictureComment(png)],
  ]);
  const tags = await readTags(file);
  expect(tags.artist).toBe('Ann');
  expect(Buffer.from(tags.picture?.data ?? []).equals(image)).toBe(true);
  const theirs = await parseFile(file);
  expect(Buffer.from(theirs.common.picture?.[0]?.data ?? []).equals(image)).toBe(true);
});

it('reads no picture from a file without one, or from a broken picture block, and keeps the other tags', async () => {
  const none = await oggFile('opus', 'none', [['TITLE', 'Plain']]);
  expect(await readTags(none)).toMatchObject({ title: 'Plain', picture: null });
  const broken = await oggFile('ogg', 'broken', [
    ['TITLE', 'Broken'],
    ['METADATA_BLOCK_PICTURE', Buffer.from([0, 0, 0, 3, 0, 0, 0, 90]).toString('base64')],
  ]);
  expect(await readTags(broken)).toMatchObject({ title: 'Broken', picture: null });
});

it('leaves FLAC in Ogg to the tag parser whole: only Vorbis and Opus comments carry base64 pictures', async () => {
  const flacInOgg = path.join(dir, 'flac.oga');
  const vorbis = path.join(dir, 'vorbis.ogg');
  await encodeAudio(vorbis, 'ogg', { seconds: 1 });
  await promisify(execFile)(FFMPEG, ['-v', 'error', '-y', '-i', vorbis, '-c:a', 'flac', '-f', 'ogg', flacInOgg]);
  const kindOf = async (file: string) => {
    const handle = await open(file, 'r');
    try {
      const windows = new FileWindows(handle, (await handle.stat()).size);
      await windows.preload();
      return await isOggVorbisOrOpus(windows);
    } finally {
      await handle.close();
    }
  };
  expect(await kindOf(vorbis)).toBe(true);
  expect(await kindOf(flacInOgg)).toBe(false);
});
