import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../test/dialects.js';
import { artistCount, songCount, tempFiles, testBlobStore } from '../test/stored.js';
import { AdvisoryLocks, withAdvisoryLock } from './db/advisory-lock.js';
import { DEMO_ARTISTS, DEMO_SONGS } from './demo/demo-catalogue.js';
import { composeCatalogue } from './catalogue-composition.js';
import { prepareCatalogueStorage } from './startup.js';

/** A log that keeps the messages it is given. */
function collectingLog(): { messages: string[]; info: (a: unknown, b?: string) => void; warn: () => void } {
  const messages: string[] = [];
  return {
    messages,
    info: (first, second) => messages.push(typeof first === 'string' ? first : (second ?? '')),
    warn: () => undefined,
  };
}

describeEachDialect('start-up of instances sharing a database (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  it('two instances starting together on an empty database seed the demo catalogue once', async () => {
    const store = testBlobStore(t.database.dataDir);
    const logs = [collectingLog(), collectingLog()];
    await Promise.all(
      logs.map((log) =>
        prepareCatalogueStorage({
          db: t.db,
          dialect: t.dialect,
          store,
          demo: true,
          log,
          catalogue: composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
        }),
      ),
    );
    expect(await artistCount(t.db)).toBe(DEMO_ARTISTS.length);
    expect(await songCount(t.db)).toBe(DEMO_SONGS.length);
    const seedings = logs.flatMap((log) => log.messages).filter((message) => message.startsWith('seeded the demo'));
    expect(seedings).toHaveLength(1);
  });

  it('skips the sweep while another instance sweeps, then keeps young temp files on PostgreSQL', async () => {
    const root = path.join(t.database.dataDir, 'blobs');
    const store = testBlobStore(t.database.dataDir);
    await mkdir(path.join(root, 'tmp'), { recursive: true });
    // Another instance's upload, being staged right now.
    await writeFile(path.join(root, 'tmp', 'audio-live.tmp'), 'half an upload');

    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const sweeping = withAdvisoryLock(t.db, t.dialect, AdvisoryLocks.blobSweep, 'try', async () => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    // The other instance holds the lock before this one starts.
    await holding;
    const log = collectingLog();
    await prepareCatalogueStorage({
      db: t.db,
      dialect: t.dialect,
      store,
      demo: false,
      log,
      catalogue: composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
    });
    release();
    expect((await sweeping).ran).toBe(true);
    expect(log.messages).toEqual(['another instance is sweeping the blobs; this one skips the sweep']);
    expect(await tempFiles(root)).toEqual(['audio-live.tmp']);

    const next = collectingLog();
    await prepareCatalogueStorage({
      db: t.db,
      dialect: t.dialect,
      store,
      demo: false,
      log: next,
      catalogue: composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
    });
    if (t.dialect === 'postgres') {
      // Instances on one PostgreSQL may share the store: a young temp file may be a live upload of another.
      expect(await tempFiles(root)).toEqual(['audio-live.tmp']);
    } else {
      // One process by design: no upload can be in progress before it listens.
      expect(next.messages).toEqual([expect.stringContaining('removed leftover')]);
      expect(await tempFiles(root)).toEqual([]);
    }
  });
});
