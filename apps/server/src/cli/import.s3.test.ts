import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { freshBucketEnv } from '../../test/s3-buckets.js';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { collect, filesUnder, songCount } from '../../test/stored.js';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { composeCatalogue } from '../catalogue-composition.js';
import { createBlobStore } from '../storage/create-blob-store.js';
import { writeImportCorpus } from './import-corpus.js';
import { importFolder } from './import-folder.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let s3: TestS3Server;
let music: string;

beforeAll(async () => {
  s3 = await startS3Server();
  music = await mkdtemp(path.join(tmpdir(), 'tonearm-import-s3-'));
  await writeImportCorpus(music, 4, { seconds: 1, artists: 2 });
});

afterAll(async () => {
  await s3.stop();
  await rm(music, { recursive: true, force: true });
});

describeEachDialect(
  'importing a folder into S3 (%s)',
  { prepare: async () => ({ env: await freshBucketEnv(s3) }) },
  (t) => {
    it('puts the audio and covers in the bucket, and a re-run adds nothing', async () => {
      if (t.store === null) throw new Error('the test app has no blob store');
      const store = t.store;
      const summary = await importFolder(
        composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
        store,
        music,
      );
      expect(summary).toMatchObject({ total: 4, added: 4, failed: 0 });

      const audio = await collect(store.list('audio'));
      expect(audio).toHaveLength(4);
      const songs = await t.db.selectFrom('songs').select('audio_key').execute();
      expect(songs.map((song) => song.audio_key).sort()).toEqual(audio.sort());
      expect((await collect(store.list('image'))).length).toBeGreaterThan(0);
      expect(await filesUnder(path.join(t.dataDir, 'blobs'))).toEqual([]);

      expect(
        await importFolder(composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }), store, music),
      ).toMatchObject({ added: 0, skipped: 4 });
      expect(await collect(store.list('audio'))).toHaveLength(4);
    });
  },
);

describe('npm run import with STORAGE=s3', () => {
  it('imports into the bucket the server would use', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-import-s3-data-'));
    try {
      const env = { ...(await freshBucketEnv(s3)), DATA_DIR: dataDir, DATABASE_URL: '', INIT_CWD: ROOT };
      const done = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/import.ts', music], {
        cwd: ROOT,
        env: { ...process.env, ...env },
      });
      expect(done.stdout).toMatch(/Imported 4 of 4 files/);

      const store = await createBlobStore(loadConfig(env));
      expect(await collect(store.list('audio'))).toHaveLength(4);
      expect(await filesUnder(path.join(dataDir, 'blobs'))).toEqual([]);
      const database = createDatabase({ dataDir });
      try {
        expect(await songCount(database.db)).toBe(4);
      } finally {
        await database.destroy();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
