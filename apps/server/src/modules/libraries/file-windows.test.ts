import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile, parseFromTokenizer } from 'music-metadata';
import { EndOfStreamError } from 'strtok3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIO_FORMATS,
  embedsPicture,
  encodeAudio,
  extensionOf,
  FFMPEG,
  requireFfmpeg,
} from '../../../test/audio-formats.js';
import { FileWindows, WINDOW_BYTES, WindowTokenizer } from './file-windows.js';

let dir: string;

beforeAll(async () => {
  requireFfmpeg();
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-file-windows-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withWindows<T>(file: string, use: (windows: FileWindows) => Promise<T>): Promise<T> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const windows = new FileWindows(handle, size);
    await windows.preload();
    return await use(windows);
  } finally {
    await handle.close();
  }
}

describe('FileWindows', () => {
  it('answers any range as the file has it: inside a window, across two, larger than one, and at the end', async () => {
    const bytes = randomBytes(5 * WINDOW_BYTES + 123);
    const file = path.join(dir, 'random.bin');
    await writeFile(file, bytes);
    const ranges: [number, number][] = [
      [0, 10],
      [WINDOW_BYTES - 5, 10],
      [2 * WINDOW_BYTES + 7, 3 * WINDOW_BYTES],
      [bytes.length - 200, 100],
      [3 * WINDOW_BYTES, 64],
      [3 * WINDOW_BYTES + 32, 64],
      [bytes.length - 10, 50],
      [bytes.length, 8],
      [bytes.length + 1000, 8],
    ];
    await withWindows(file, async (windows) => {
      for (const [position, length] of ranges) {
        const want = bytes.subarray(position, position + length);
        expect(Buffer.from(await windows.bytes(position, length)), `bytes ${position}+${length}`).toEqual(want);
        const target = Buffer.alloc(length);
        const count = await windows.copy(target, length, position);
        expect(count, `copy ${position}+${length}`).toBe(want.length);
        expect(target.subarray(0, count)).toEqual(want);
      }
    });
  });

  it('reads a file smaller than two windows whole, and an empty one', async () => {
    const small = path.join(dir, 'small.bin');
    const bytes = randomBytes(1000);
    await writeFile(small, bytes);
    await withWindows(small, async (windows) => {
      expect(Buffer.from(await windows.bytes(0, 2000))).toEqual(bytes);
      expect(Buffer.from(await windows.bytes(990, 5))).toEqual(bytes.subarray(990, 995));
    });
    const empty = path.join(dir, 'empty.bin');
    await writeFile(empty, '');
    await withWindows(empty, async (windows) => {
      expect((await windows.bytes(0, 16)).length).toBe(0);
    });
  });

  it('tokenizes as strtok3 does: positions advance on reads only, and a short read is the end of the stream', async () => {
    const bytes = randomBytes(3 * WINDOW_BYTES);
    const file = path.join(dir, 'tokens.bin');
    await writeFile(file, bytes);
    await withWindows(file, async (windows) => {
      const tokenizer = new WindowTokenizer(windows, file);
      const four = new Uint8Array(4);
      await tokenizer.peekBuffer(four);
      expect(tokenizer.position).toBe(0);
      expect(Buffer.from(four)).toEqual(bytes.subarray(0, 4));
      await tokenizer.readBuffer(four);
      expect(tokenizer.position).toBe(4);
      await tokenizer.ignore(WINDOW_BYTES);
      await tokenizer.readBuffer(four);
      expect(Buffer.from(four)).toEqual(bytes.subarray(WINDOW_BYTES + 4, WINDOW_BYTES + 8));
      tokenizer.setPosition(bytes.length - 2);
      await expect(tokenizer.readBuffer(four)).rejects.toBeInstanceOf(EndOfStreamError);
      tokenizer.setPosition(bytes.length - 2);
      expect(await tokenizer.readBuffer(four, { mayBeLess: true })).toBe(2);
      expect(tokenizer.position).toBe(bytes.length);
    });
  });
});

/** A noisy picture of about 100 KB: an embedded cover larger than a window. */
async function bigPicture(): Promise<string> {
  const file = path.join(dir, 'big.png');
  await promisify(execFile)(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:s=200x200:d=1,noise=alls=100:allf=t',
    '-frames:v',
    '1',
    file,
  ]);
  return file;
}

describe('music-metadata over FileWindows', () => {
  it.each(AUDIO_FORMATS)('reads a %s file as music-metadata reads it from the file', async (format) => {
    const file = path.join(dir, `song.${extensionOf(format)}`);
    await encodeAudio(file, format, {
      seconds: 12,
      tags: { title: 'Long Song', artist: 'Ann Arbor', album: 'First Light', track: '3', genre: 'Rock' },
      ...(embedsPicture(format) && { picture: await bigPicture() }),
    });
    const direct = await parseFile(file, { duration: false });
    const windowed = await withWindows(file, (windows) =>
      parseFromTokenizer(new WindowTokenizer(windows, file), { duration: false }),
    );
    expect(windowed.common).toEqual(direct.common);
    expect(windowed.format).toEqual(direct.format);
    expect(windowed.common.title).toBe('Long Song');
    if (embedsPicture(format)) expect(windowed.common.picture?.[0]?.data.length).toBeGreaterThan(WINDOW_BYTES);
  });
});
