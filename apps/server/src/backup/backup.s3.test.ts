import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, type TestUser } from '../../test/factories.js';
import { emptyPostgresDatabase } from '../../test/harness.js';
import { toneWav } from '../../test/media.js';
import { freshBucketEnv } from '../../test/s3-buckets.js';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { loadConfig, type Config } from '../config.js';
import { createDatabase } from '../db/database.js';
import type { BlobStore } from '../storage/blob-store.js';
import { createBlobStore } from '../storage/create-blob-store.js';
import { BackupError } from './backup-error.js';
import { createBackup } from './backup.js';
import { restoreBackup } from './restore.js';
import { readTarIndex } from './tar.js';

let s3: TestS3Server;
let work: string;

beforeAll(async () => {
  s3 = await startS3Server();
  work = await mkdtemp(path.join(tmpdir(), 'tonearm-backup-s3-'));
});

afterAll(async () => {
  await s3.stop();
  await rm(work, { recursive: true, force: true });
});

async function bytesOf(store: BlobStore, kind: 'audio' | 'image', key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.openRead(kind, key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describeEachDialect(
  'backup and restore with STORAGE=s3, on a real S3 server (%s)',
  { prepare: async () => ({ env: await freshBucketEnv(s3) }) },
  (t) => {
    let admin: TestUser;
    const drops: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      admin = await makeAdmin(t);
      const artistId = await makeArtist(t, admin, 'Bucket Backup');
      for (let i = 0; i < 3; i++)
        await makeSong(t, admin, { artistId, name: `kept ${i}`, audio: toneWav(300 + i * 20) });
    });

    afterAll(async () => {
      for (const drop of drops) await drop();
    });

    /** An empty DATA_DIR (and an empty PostgreSQL database on that dialect) with `storage` as its blob store. */
    async function emptyTarget(storage: Config['storage']) {
      const dataDir = path.join(await mkdtemp(path.join(work, 'target-')), 'data');
      const pg = t.dialect === 'postgres' ? await emptyPostgresDatabase() : null;
      if (pg) drops.push(pg.drop);
      const store = await createBlobStore({ dataDir, storage });
      return { dataDir, databaseUrl: pg?.databaseUrl ?? null, store };
    }

    it('lists the bucket objects with their hashes, and restores the database against the same bucket', async () => {
      if (t.store === null) throw new Error('the test app has no blob store');
      const file = path.join(work, `bucket-${t.dialect}.tar`);
      const { manifest } = await createBackup(file, {
        dataDir: t.dataDir,
        databaseUrl: t.config.databaseUrl,
        store: t.store,
      });
      expect(manifest.blobs.included).toBe(false);
      expect((await readTarIndex(file)).some((entry) => entry.name.startsWith('blobs/'))).toBe(false);
      const audio = manifest.blobs.items.filter((item) => item.kind === 'audio');
      expect(audio).toHaveLength(3);
      for (const item of manifest.blobs.items) {
        const bytes = await bytesOf(t.store, item.kind, item.key);
        expect(createHash('sha256').update(bytes).digest('hex'), item.key).toBe(item.sha256);
      }

      const target = await emptyTarget(t.config.storage);
      expect((await restoreBackup(file, target)).blobsWritten).toBe(0);
      const restored = createDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, poolSize: 1 });
      try {
        const names = await restored.db.selectFrom('songs').select('name').orderBy('name').execute();
        expect(names.map((row) => row.name)).toEqual(['kept 0', 'kept 1', 'kept 2']);
      } finally {
        await restored.destroy();
      }
    });

    it('refuses to restore against a bucket that lacks the listed objects', async () => {
      if (t.store === null) throw new Error('the test app has no blob store');
      const file = path.join(work, `refused-${t.dialect}.tar`);
      await createBackup(file, { dataDir: t.dataDir, databaseUrl: t.config.databaseUrl, store: t.store });
      const target = await emptyTarget(loadConfig(await freshBucketEnv(s3)).storage);
      await expect(restoreBackup(file, target)).rejects.toThrow(BackupError);
    });
  },
);
