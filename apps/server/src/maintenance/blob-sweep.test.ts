import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { THUMBNAIL_WIDTHS } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { collect, testBlobStore } from '../../test/stored.js';
import type { LocalBlobStore } from '../storage/local-blob-store.js';
import { createBlobReferencesRepository } from './blob-references.repository.js';
import { SWEEP_GRACE_MS, sweepBlobs } from './blob-sweep.js';

const hash = (n: number) => n.toString(16).padStart(64, '0');
const HOUR_AGO = (Date.now() - 60 * 60 * 1000) / 1000;

describeEachDialect('start-up blob sweep (%s)', { uses: 'database' }, (t) => {
  let store: LocalBlobStore;

  async function put(kind: 'audio' | 'image', key: string, old = true): Promise<void> {
    const staged = await store.stage(kind, Buffer.from(key));
    await staged.commit(key);
    if (old) await utimes(store.pathOf(kind, key), HOUR_AGO, HOUR_AGO);
  }

  async function putImageSet(sha: string, old = true): Promise<void> {
    await put('image', `${sha}.png`, old);
    for (const width of THUMBNAIL_WIDTHS) await put('image', `${sha}-${width}.webp`, old);
  }

  const keys = async (kind: 'audio' | 'image') => (await collect(store.list(kind))).sort();

  beforeAll(async () => {
    store = testBlobStore(t.database.dataDir);
    const { db } = t;
    const now = new Date().toISOString();
    await db
      .insertInto('artists')
      .values({ name: 'Kept', image_key: `${hash(3)}.png` })
      .execute();
    await db
      .insertInto('songs')
      .values({
        name: 'Kept',
        genre: 'Pop',
        artist_id: null,
        audio_key: `${hash(1)}.wav`,
        audio_sha256: hash(1),
        mime: 'audio/wav',
        size_bytes: 1,
        duration_ms: 1,
        image_key: `${hash(2)}.png`,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('users')
      .values({
        username: 'photo',
        email: 'photo@example.test',
        password_hash: 'x',
        role: 'USER',
        image_key: `${hash(4)}.png`,
        created_at: now,
      })
      .execute();
  });

  it('removes temp files and unreferenced blobs, keeps referenced ones with their thumbnails and young ones', async () => {
    await put('audio', `${hash(1)}.wav`);
    await put('audio', `${hash(9)}.wav`);
    await put('audio', `${hash(10)}.wav`, false);
    for (const n of [2, 3, 4, 8]) await putImageSet(hash(n));
    await putImageSet(hash(11), false);
    // A killed upload's temp file, and one whose stage never finished.
    const staged = await store.stage('audio', Buffer.from('half an upload'));
    expect(staged.tempPath).toContain(path.join('blobs', 'tmp'));

    const result = await sweepBlobs(store, createBlobReferencesRepository(t.db));

    expect(result).toEqual({ tempFiles: 1, audio: 1, images: 4 });
    expect(await keys('audio')).toEqual([`${hash(1)}.wav`, `${hash(10)}.wav`]);
    const images = await keys('image');
    for (const n of [2, 3, 4, 11]) expect(images.filter((key) => key.startsWith(hash(n)))).toHaveLength(4);
    expect(images.filter((key) => key.startsWith(hash(8)))).toEqual([]);
  });

  it('sweeps young orphans too when the grace period is zero, and is a no-op the second time', async () => {
    const result = await sweepBlobs(store, createBlobReferencesRepository(t.db), { graceMs: 0 });
    expect(result).toEqual({ tempFiles: 0, audio: 1, images: 4 });
    expect(await sweepBlobs(store, createBlobReferencesRepository(t.db), { graceMs: 0 })).toEqual({
      tempFiles: 0,
      audio: 0,
      images: 0,
    });
    expect(SWEEP_GRACE_MS).toBeGreaterThan(60_000);
  });
});
