import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeBlobStoreContract } from '../../test/blob-store-contract.js';
import { collect, tempFiles } from '../../test/stored.js';
import { InvalidBlobKeyError, isValidBlobKey } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';

let root: string;
let store: LocalBlobStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-blobs-'));
  store = new LocalBlobStore(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LocalBlobStore', () => {
  // What every store does is in the shared contract below; these are the local disk's own rules.
  it('accepts only keys of [a-z0-9._-], and never maps another to a path', () => {
    const invalid = ['', '../etc/passwd', '..', '.hidden', 'a/b', 'a\\b', 'UPPER.wav', 'sp ace', 'x'.repeat(201), 'ü'];
    for (const key of invalid) {
      expect(isValidBlobKey(key)).toBe(false);
      expect(() => store.localPath('audio', key)).toThrow(InvalidBlobKeyError);
    }
    expect(isValidBlobKey('0f'.repeat(32) + '-640.webp')).toBe(true);
  });

  it('stages a buffer, commits it under <root>/<kind>/<k[0..1]>/<key> and reads it back', async () => {
    const staged = await store.stage('audio', Buffer.from('hello blob'));
    expect(staged.size).toBe(10);
    expect(path.dirname(staged.tempPath)).toBe(path.join(root, 'tmp'));
    expect(await store.stat('audio', 'ab12.wav')).toBeNull();

    expect(await staged.commit('ab12.wav')).toBe(true);

    expect(store.localPath('audio', 'ab12.wav')).toBe(path.join(root, 'audio', 'ab', 'ab12.wav'));
    expect(await readFile(path.join(root, 'audio', 'ab', 'ab12.wav'), 'utf8')).toBe('hello blob');
    expect(await store.stat('audio', 'ab12.wav')).toMatchObject({ size: 10 });
    expect(await store.stat('image', 'ab12.wav')).toBeNull();
    expect(await text(store.openRead('audio', 'ab12.wav'))).toBe('hello blob');
    expect(await text(store.openRead('audio', 'ab12.wav', { start: 6, end: 9 }))).toBe('blob');
    expect(await tempFiles(root)).toEqual([]);
  });

  it('lists committed keys of one kind only, ignoring temp files and foreign names', async () => {
    for (const key of ['aa1.wav', 'ab2.wav', 'zz3.mp3'])
      await (await store.stage('audio', Buffer.from(key))).commit(key);
    await (await store.stage('image', Buffer.from('i'))).commit('aa1.png');
    await store.stage('audio', Buffer.from('pending'));
    await writeFile(path.join(root, 'audio', 'aa', 'Not A Key'), 'x');

    expect((await collect(store.list('audio'))).sort()).toEqual(['aa1.wav', 'ab2.wav', 'zz3.mp3']);
    expect((await collect(store.list('image'))).sort()).toEqual(['aa1.png']);
    expect((await collect(new LocalBlobStore(path.join(root, 'empty')).list('audio'))).sort()).toEqual([]);
  });
});

describeBlobStoreContract('LocalBlobStore', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tonearm-blobs-'));
  const local = new LocalBlobStore(dir);
  return {
    store: local,
    async backdate(kind, key, ageMs) {
      const then = new Date(Date.now() - ageMs);
      await utimes(local.localPath(kind, key), then, then);
    },
    tempFiles: () => tempFiles(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
