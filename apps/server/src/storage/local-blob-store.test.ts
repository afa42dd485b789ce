import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
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

/** A source that produces `chunks` chunks of `chunkSize` bytes only when asked (pull-based, like a socket). */
function pullSource(chunks: number, chunkSize: number, failAt?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === failAt) {
        this.destroy(new Error('client went away'));
        return;
      }
      if (sent === chunks) {
        this.push(null);
        return;
      }
      sent += 1;
      this.push(Buffer.alloc(chunkSize, sent % 251));
    },
  });
}

describe('LocalBlobStore', () => {
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

  it('streams a large source to disk with the exact byte count', async () => {
    const staged = await store.stage('audio', pullSource(160, 64 * 1024));
    expect(staged.size).toBe(160 * 64 * 1024);
    await staged.commit('big.bin');
    expect((await store.stat('audio', 'big.bin'))?.size).toBe(160 * 64 * 1024);
    const bytes = await readFile(store.localPath('audio', 'big.bin'));
    expect(bytes[0]).toBe(1);
    expect(bytes[bytes.length - 1]).toBe(160 % 251);
  });

  it('removes the temp file and rejects with the source error when the source fails', async () => {
    await expect(store.stage('audio', pullSource(100, 1024, 10))).rejects.toThrow('client went away');
    expect(await tempFiles(root)).toEqual([]);
  });

  it('keeps the existing blob when committing to a key that exists, marking it recently used', async () => {
    await (await store.stage('image', Buffer.from('first'))).commit('same.png');
    const aDayAgo = new Date(Date.now() - 86_400_000);
    await utimes(store.localPath('image', 'same.png'), aDayAgo, aDayAgo);
    const second = await store.stage('image', Buffer.from('second'));

    expect(await second.commit('same.png')).toBe(false);

    expect(await readFile(store.localPath('image', 'same.png'), 'utf8')).toBe('first');
    expect((await store.stat('image', 'same.png'))?.mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    expect(await tempFiles(root)).toEqual([]);
  });

  it('discards staged bytes, is idempotent, and refuses a commit after discard or a second commit', async () => {
    const staged = await store.stage('audio', Buffer.from('x'));
    await staged.discard();
    await staged.discard();
    expect(await tempFiles(root)).toEqual([]);
    await expect(staged.commit('xx.wav')).rejects.toThrow('already discarded');
    expect(await store.stat('audio', 'xx.wav')).toBeNull();

    const committed = await store.stage('audio', Buffer.from('y'));
    await committed.commit('yy.wav');
    await committed.discard();
    expect(await store.stat('audio', 'yy.wav')).not.toBeNull();
    await expect(committed.commit('zz.wav')).rejects.toThrow('already committed');
  });

  it('validates keys: stat answers null, the rest throws InvalidBlobKeyError', async () => {
    const invalid = ['', '../etc/passwd', '..', '.hidden', 'a/b', 'a\\b', 'UPPER.wav', 'sp ace', 'x'.repeat(201), 'ü'];
    for (const key of invalid) {
      expect(isValidBlobKey(key)).toBe(false);
      expect(await store.stat('audio', key)).toBeNull();
      expect(() => store.localPath('audio', key)).toThrow(InvalidBlobKeyError);
      expect(() => store.openRead('audio', key)).toThrow(InvalidBlobKeyError);
      await expect(store.delete('audio', key)).rejects.toThrow(InvalidBlobKeyError);
    }
    const staged = await store.stage('audio', Buffer.from('z'));
    await expect(staged.commit('../escape')).rejects.toThrow(InvalidBlobKeyError);
    await staged.discard();
    expect(isValidBlobKey('0f'.repeat(32) + '-640.webp')).toBe(true);
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

  it('deletes blobs, and deleting an absent blob is fine', async () => {
    await (await store.stage('audio', Buffer.from('d'))).commit('dd.wav');
    await store.delete('audio', 'dd.wav');
    await store.delete('audio', 'dd.wav');
    expect(await store.stat('audio', 'dd.wav')).toBeNull();
  });

  it('remembers stats for statCached, and forgets them on delete, on a commit to the key, and on request', async () => {
    await (await store.stage('audio', Buffer.from('cached'))).commit('cc.wav');
    const first = await store.statCached('audio', 'cc.wav');
    expect(first).toMatchObject({ size: 6 });
    // The file changing behind the store's back is not seen until the entry is forgotten...
    const aDayAgo = new Date(Date.now() - 86_400_000);
    await utimes(store.localPath('audio', 'cc.wav'), aDayAgo, aDayAgo);
    expect(await store.statCached('audio', 'cc.wav')).toBe(first);
    store.forget('audio', 'cc.wav');
    expect((await store.statCached('audio', 'cc.wav'))?.mtimeMs).toBeLessThan(Date.now() - 3_600_000);

    // ...a commit to the same key refreshes the time, and the cached stat with it...
    expect(await (await store.stage('audio', Buffer.from('cached'))).commit('cc.wav')).toBe(false);
    expect((await store.statCached('audio', 'cc.wav'))?.mtimeMs).toBeGreaterThan(Date.now() - 60_000);

    // ...and a delete through the store is seen at once; absent blobs and invalid keys are never remembered.
    await store.delete('audio', 'cc.wav');
    expect(await store.statCached('audio', 'cc.wav')).toBeNull();
    await (await store.stage('audio', Buffer.from('back'))).commit('cc.wav');
    expect(await store.statCached('audio', 'cc.wav')).toMatchObject({ size: 4 });
    expect(await store.statCached('audio', '../escape')).toBeNull();
  });

  it('sweeps only temp files older than the cutoff', async () => {
    const stale = await store.stage('audio', Buffer.from('old'));
    const fresh = await store.stage('audio', Buffer.from('new'));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(stale.tempPath, anHourAgo, anHourAgo);

    expect(await store.sweepTemp(60_000)).toBe(1);

    expect(await tempFiles(root)).toEqual([path.basename(fresh.tempPath)]);
    expect(await new LocalBlobStore(path.join(root, 'never-used')).sweepTemp(0)).toBe(0);
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
