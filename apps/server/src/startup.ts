import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import { createCatalogue } from './modules/catalogue.js';
import { seedDemoCatalogue } from './demo/demo-seed.js';
import { isFreshInstall } from './demo/demo-seed.repository.js';
import type { BlobStore } from './storage/blob-store.js';
import { createBlobReferencesRepository } from './maintenance/blob-references.repository.js';
import { sweepBlobs } from './maintenance/blob-sweep.js';

export interface StartupOptions {
  db: Kysely<DB>;
  dialect: Dialect;
  store: BlobStore;
  /** Seed the demo catalogue when the database is fresh (config.demo; DEMO=0 turns it off). */
  demo: boolean;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

/**
 * Start-up housekeeping, before the server accepts requests: the blob sweep (temp files of killed uploads, blobs no
 * row references), then the demo catalogue on a fresh install.
 */
export async function prepareCatalogueStorage({ db, dialect, store, demo, log }: StartupOptions): Promise<void> {
  const swept = await sweepBlobs(store, createBlobReferencesRepository(db));
  if (swept.tempFiles + swept.audio + swept.images > 0) log.info(swept, 'removed leftover and unreferenced blobs');
  if (!demo || !(await isFreshInstall(db))) return;
  const seeded = await seedDemoCatalogue(createCatalogue({ db, dialect }, store), store);
  log.info(seeded, 'seeded the demo catalogue (DEMO=0 turns this off)');
}
