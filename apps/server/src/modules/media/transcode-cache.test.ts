import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscodeCache } from './transcode-cache.js';

let dir: string;
/** The cache's files, sorted. Eviction unlinks without waiting, so the tests poll this until it settles. */
const filesIn = async () => (await readdir(dir)).sort();

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-transcode-cache-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `size` bytes to a temporary path of the cache and adds it as `name`. */
async function addFile(cache: TranscodeCache, name: string, size: number): Promise<void> {
  const temp = cache.tempPathFor(name);
  await writeFile(temp, Buffer.alloc(size, 1));
  await cache.add(name, temp);
}

describe('TranscodeCache', () => {
  it('finds what was added, under its own name, and nothing else', async () => {
    const cache = new TranscodeCache(path.join(dir, 'cache'), 1000);
    await cache.open();
    await addFile(cache, 'a.128k.opus', 100);
    expect(cache.lookup('a.128k.opus')).toMatchObject({
      path: path.join(dir, 'cache', 'a.128k.opus'),
      stat: { size: 100 },
    });
    expect(cache.lookup('a.64k.opus')).toBeNull();
    expect(await readdir(path.join(dir, 'cache'))).toEqual(['a.128k.opus']);
  });

  it('evicts the least recently used past its size, a lookup counting as a use', async () => {
    const cache = new TranscodeCache(dir, 300);
    await cache.open();
    await addFile(cache, 'one', 100);
    await addFile(cache, 'two', 100);
    await addFile(cache, 'three', 100);
    cache.lookup('one');
    await addFile(cache, 'four', 100);
    expect(cache.lookup('two')).toBeNull();
    expect(['one', 'three', 'four'].map((name) => cache.lookup(name) !== null)).toEqual([true, true, true]);
    expect(cache.size).toBe(300);
    await expect.poll(filesIn).toEqual(['four', 'one', 'three']);
  });

  it('keeps a transcode larger than the whole cache until the next one comes', async () => {
    const cache = new TranscodeCache(dir, 100);
    await cache.open();
    await addFile(cache, 'small', 50);
    await addFile(cache, 'huge', 500);
    expect(cache.lookup('small')).toBeNull();
    expect(cache.lookup('huge')).not.toBeNull();
    await addFile(cache, 'next', 50);
    expect(cache.lookup('huge')).toBeNull();
    await expect.poll(filesIn).toEqual(['next']);
  });

  it('starts from what is on disk, oldest first, without the temporary leftovers of an interrupted transcode', async () => {
    await writeFile(path.join(dir, 'old'), Buffer.alloc(100));
    await writeFile(path.join(dir, 'new'), Buffer.alloc(100));
    await writeFile(path.join(dir, 'half.abc123.tmp'), Buffer.alloc(50));
    await utimes(path.join(dir, 'old'), new Date(1_000_000), new Date(1_000_000));
    const cache = new TranscodeCache(dir, 150);
    await cache.open();
    expect(cache.lookup('old')).toBeNull();
    expect(cache.lookup('new')).not.toBeNull();
    expect(cache.lookup('half.abc123.tmp')).toBeNull();
    await expect.poll(filesIn).toEqual(['new']);
  });

  it('forgets an entry whose file went away', async () => {
    const cache = new TranscodeCache(dir, 1000);
    await cache.open();
    await addFile(cache, 'gone', 10);
    cache.forget('gone');
    expect(cache.lookup('gone')).toBeNull();
    expect(cache.size).toBe(0);
  });
});
