/**
 * What every BlobStore must do, written once and run for each store (local-blob-store.test.ts, s3-blob-store.test.ts):
 * stage and commit, stat, ranged reads, same key same content, list, delete, statCached, and the temp sweep.
 */
import { readFile, utimes } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidBlobKeyError, type BlobKind, type BlobStore } from '../src/storage/blob-store.js';
import { collect } from './stored.js';

export interface ContractStore {
  store: BlobStore;
  /** Makes a committed blob look `ageMs` old to the store's stat (as if written then). */
  backdate(kind: BlobKind, key: string, ageMs: number): Promise<void>;
  /** Names of the staged temp files. */
  tempFiles(): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** A source that produces `chunks` chunks of `chunkSize` bytes only when asked (pull-based, like a socket). */
export function pullSource(chunks: number, chunkSize: number, failAt?: number): Readable {
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

const DAY_MS = 86_400_000;

export function describeBlobStoreContract(name: string, make: () => Promise<ContractStore>): void {
  describe(`${name} (BlobStore contract)`, () => {
    let s: ContractStore;
    let store: BlobStore;

    beforeEach(async () => {
      s = await make();
      store = s.store;
    });

    afterEach(async () => {
      await s.cleanup();
    });

    it('stages, commits, stats and reads back a blob, whole or a byte range', async () => {
      const staged = await store.stage('audio', Buffer.from('hello blob'));
      expect(staged.size).toBe(10);
      // Staged bytes are a local file, for inspection before commit.
      expect(await readFile(staged.tempPath, 'utf8')).toBe('hello blob');
      expect(await store.stat('audio', 'ab12.wav')).toBeNull();

      expect(await staged.commit('ab12.wav')).toBe(true);

      expect(await store.stat('audio', 'ab12.wav')).toMatchObject({ size: 10 });
      expect(await store.stat('image', 'ab12.wav')).toBeNull();
      expect(await text(store.openRead('audio', 'ab12.wav'))).toBe('hello blob');
      expect(await text(store.openRead('audio', 'ab12.wav', { start: 6, end: 9 }))).toBe('blob');
      expect(await text(store.openRead('audio', 'ab12.wav', { start: 1, end: 1 }))).toBe('e');
      expect(await s.tempFiles()).toEqual([]);
    });

    it('streams a large source through with the exact bytes', async () => {
      // 12 MiB: more than one part of a multipart upload.
      const staged = await store.stage('audio', pullSource(192, 64 * 1024));
      expect(staged.size).toBe(192 * 64 * 1024);
      await staged.commit('big.bin');
      expect((await store.stat('audio', 'big.bin'))?.size).toBe(192 * 64 * 1024);
      const tail = await buffer(
        store.openRead('audio', 'big.bin', { start: 191 * 64 * 1024 - 1, end: 192 * 64 * 1024 - 1 }),
      );
      expect(tail.length).toBe(64 * 1024 + 1);
      expect(tail[0]).toBe(191 % 251);
      expect(tail[tail.length - 1]).toBe(192 % 251);
    });

    it('removes the temp file and rejects with the source error when the source fails', async () => {
      await expect(store.stage('audio', pullSource(100, 1024, 10))).rejects.toThrow('client went away');
      expect(await s.tempFiles()).toEqual([]);
    });

    it('keeps the existing blob when committing to a key that exists, marking it recently used', async () => {
      await (await store.stage('image', Buffer.from('first'))).commit('same.png');
      await s.backdate('image', 'same.png', DAY_MS);
      expect((await store.stat('image', 'same.png'))?.mtimeMs).toBeLessThan(Date.now() - DAY_MS / 2);
      const second = await store.stage('image', Buffer.from('second'));

      expect(await second.commit('same.png')).toBe(false);

      expect(await text(store.openRead('image', 'same.png'))).toBe('first');
      expect((await store.stat('image', 'same.png'))?.mtimeMs).toBeGreaterThan(Date.now() - 60_000);
      expect(await s.tempFiles()).toEqual([]);
    });

    it('discards staged bytes, is idempotent, and refuses a commit after discard or a second commit', async () => {
      const staged = await store.stage('audio', Buffer.from('x'));
      await staged.discard();
      await staged.discard();
      expect(await s.tempFiles()).toEqual([]);
      await expect(staged.commit('xx.wav')).rejects.toThrow('already discarded');
      expect(await store.stat('audio', 'xx.wav')).toBeNull();

      const committed = await store.stage('audio', Buffer.from('y'));
      await committed.commit('yy.wav');
      await committed.discard();
      expect(await store.stat('audio', 'yy.wav')).not.toBeNull();
      await expect(committed.commit('zz.wav')).rejects.toThrow('already committed');
    });

    it('validates keys: stat answers null, the rest throws InvalidBlobKeyError', async () => {
      for (const key of ['', '../etc/passwd', '.hidden', 'a/b', 'UPPER.wav', 'sp ace']) {
        expect(await store.stat('audio', key)).toBeNull();
        expect(() => store.openRead('audio', key)).toThrow(InvalidBlobKeyError);
        await expect(store.delete('audio', key)).rejects.toThrow(InvalidBlobKeyError);
      }
      const staged = await store.stage('audio', Buffer.from('z'));
      await expect(staged.commit('../escape')).rejects.toThrow(InvalidBlobKeyError);
      await staged.discard();
    });

    it('lists committed keys of one kind only, ignoring staged bytes', async () => {
      for (const key of ['aa1.wav', 'ab2.wav', 'zz3.mp3'])
        await (await store.stage('audio', Buffer.from(key))).commit(key);
      await (await store.stage('image', Buffer.from('i'))).commit('aa1.png');
      await store.stage('audio', Buffer.from('pending'));

      expect((await collect(store.list('audio'))).sort()).toEqual(['aa1.wav', 'ab2.wav', 'zz3.mp3']);
      expect(await collect(store.list('image'))).toEqual(['aa1.png']);
    });

    it('deletes blobs, deleting an absent blob is fine, and reading a deleted one fails with ENOENT', async () => {
      await (await store.stage('audio', Buffer.from('d'))).commit('dd.wav');
      await store.delete('audio', 'dd.wav');
      await store.delete('audio', 'dd.wav');
      expect(await store.stat('audio', 'dd.wav')).toBeNull();
      await expect(text(store.openRead('audio', 'dd.wav'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('lets a reader go before the first byte without an error left behind, even for a missing blob', async () => {
      await (await store.stage('audio', Buffer.from('early'))).commit('ee.wav');
      for (const key of ['ee.wav', 'missing.wav']) {
        const reader = store.openRead('audio', key);
        // The local store's file stream may still report the missing file: a listener is what readers have anyway.
        reader.on('error', () => undefined);
        const closed = new Promise((resolve) => reader.once('close', resolve));
        reader.destroy();
        await closed;
      }
      // A failure nobody listens to would surface here as an unhandled rejection, which fails the run.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await text(store.openRead('audio', 'ee.wav'))).toBe('early');
    });

    it('remembers stats for statCached, and forgets them on delete, on a commit to the key, and on request', async () => {
      await (await store.stage('audio', Buffer.from('cached'))).commit('cc.wav');
      const first = await store.statCached('audio', 'cc.wav');
      expect(first).toMatchObject({ size: 6 });
      await s.backdate('audio', 'cc.wav', DAY_MS);
      expect(await store.statCached('audio', 'cc.wav')).toBe(first);
      store.forget('audio', 'cc.wav');
      expect((await store.statCached('audio', 'cc.wav'))?.mtimeMs).toBeLessThan(Date.now() - 3_600_000);

      expect(await (await store.stage('audio', Buffer.from('cached'))).commit('cc.wav')).toBe(false);
      expect((await store.statCached('audio', 'cc.wav'))?.mtimeMs).toBeGreaterThan(Date.now() - 60_000);

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

      expect(await s.tempFiles()).toEqual([fresh.tempPath.split(/[\\/]/).pop()]);
      await fresh.discard();
      expect(await store.sweepTemp(0)).toBe(0);
    });

    it('sweeps every temp file without a cutoff, even one written this very millisecond', async () => {
      const staged = await store.stage('audio', Buffer.from('just now'));
      // Later than the sweep's clock: as a file written in the sweep's own millisecond looks (mtimeMs is fractional).
      const ahead = new Date(Date.now() + 1000);
      await utimes(staged.tempPath, ahead, ahead);
      expect(await store.sweepTemp(0)).toBe(1);
      expect(await s.tempFiles()).toEqual([]);
    });
  });
}
