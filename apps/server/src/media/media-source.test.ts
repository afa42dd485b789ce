import { mkdtempSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, expect, it } from 'vitest';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { storedMediaSources } from './media-source.js';

const root = mkdtempSync(path.join(tmpdir(), 'tonearm-media-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('answers a blob of the store by the key a /media URL names: its stat, bytes, path, and what it remembers', async () => {
  const store = new LocalBlobStore(root);
  const staged = await store.stage('audio', Buffer.from('0123456789'));
  const key = 'source-test.mp3';
  expect(await staged.commit(key)).toBe(true);
  const sources = storedMediaSources(store);
  const source = sources.byKey('audio', key);
  expect(source).toMatchObject({ kind: 'audio', key, stored: true });
  expect(source.presign).toBeUndefined();
  expect(source.rememberedStat()).toBeUndefined();
  expect((await source.statCached())?.size).toBe(10);
  expect(source.rememberedStat()?.size).toBe(10);
  expect(await text(source.open({ start: 2, end: 4 }))).toBe('234');
  expect(source.localPath()).toBe(store.localPath('audio', key));
  expect(sources.audioOf({ audioKey: key }).localPath()).toBe(source.localPath());

  // Deleted behind the store's back (another process): a reader that finds it gone forgets it.
  await unlink(source.localPath() ?? '');
  expect(source.rememberedStat()?.size).toBe(10);
  source.forget();
  expect(source.rememberedStat()).toBeUndefined();
  expect(await source.statCached()).toBeNull();
});
