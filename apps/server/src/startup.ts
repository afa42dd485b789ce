import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import type { Catalogue } from './modules/catalogue.js';
import { seedDemoCatalogue } from './demo/demo-seed.js';
import { isFreshInstall } from './demo/demo-seed.repository.js';
import type { BlobStore } from './storage/blob-store.js';
import { createBlobReferencesRepository } from './maintenance/blob-references.repository.js';
import { SWEEP_GRACE_MS, sweepBlobs } from './maintenance/blob-sweep.js';
import { AdvisoryLocks, withAdvisoryLock } from './db/advisory-lock.js';

export interface StartupOptions {
  db: Kysely<DB>;
  dialect: Dialect;
  store: BlobStore;
  /** Seed the demo catalogue when the database is fresh (config.demo; DEMO=0 turns it off). */
  demo: boolean;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** The app's catalogue writers (composition.ts), which the demo seed writes through. */
  catalogue: Catalogue;
}

/**
 * Start-up housekeeping, before the server accepts requests: the blob sweep (temp files of killed uploads, blobs no
 * row references), then the demo catalogue on a fresh install. On PostgreSQL several instances may share the database
 * and the store and start together: one sweeps while the others skip, and the demo catalogue is seeded once.
 */
export async function prepareCatalogueStorage(options: StartupOptions): Promise<void> {
  const { db, dialect, store, demo, log, catalogue } = options;
  await sweepOnce(db, dialect, store, log);
  if (!demo || !(await isFreshInstall(db))) return;
  // Another instance may be seeding right now: wait for it, then look again.
  const seeded = await withAdvisoryLock(db, dialect, AdvisoryLocks.demoSeed, 'wait', async () =>
    (await isFreshInstall(db)) ? seedDemoCatalogue(catalogue, store) : null,
  );
  if (seeded.ran && seeded.value !== null) log.info(seeded.value, 'seeded the demo catalogue (DEMO=0 turns this off)');
}

async function sweepOnce(db: Kysely<DB>, dialect: Dialect, store: BlobStore, log: StartupOptions['log']) {
  // Instances that share the database may share the store, and be taking uploads while this one starts.
  const tempGraceMs = dialect === 'postgres' ? SWEEP_GRACE_MS : 0;
  const swept = await withAdvisoryLock(db, dialect, AdvisoryLocks.blobSweep, 'try', () =>
    sweepBlobs(store, createBlobReferencesRepository(db), { tempGraceMs }),
  );
  if (!swept.ran) log.info('another instance is sweeping the blobs; this one skips the sweep');
  else if (swept.value.tempFiles + swept.value.audio + swept.value.images > 0) {
    log.info(swept.value, 'removed leftover and unreferenced blobs');
  }
}
