import { buildAppWith } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations/index.js';
import { prepareCatalogueStorage } from './startup.js';
import { SetupCode, setupUrl } from './setup-code.js';
import { createBlobStore } from './storage/create-blob-store.js';

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line an operator can act on; a stack trace would only bury it.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const database = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrateToLatest(database.db);
  const blobs = await createBlobStore(config);

  const setupCode = new SetupCode();
  const { app, composition } = await buildAppWith({
    config,
    db: database.db,
    dialect: database.dialect,
    blobs,
    setupCode,
    poolUse: database.poolUse,
    // The shuffled song pages' in-memory index loads once the app is ready, in chunks between requests, so the first
    // listener's first page does not wait for the whole load (100 000 songs take about 0.3 s).
    warmCatalogue: true,
  });
  // Before listen: the sweep must not race live uploads, and a new install opens with music.
  await prepareCatalogueStorage({
    db: database.db,
    dialect: database.dialect,
    store: blobs,
    demo: config.demo,
    log: app.log,
    catalogue: composition.catalogue,
  });

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => database.destroy())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ dialect: database.dialect, dataDir: config.dataDir }, 'Tonearm is listening');
  const admins = await composition.usersRepository.countAdmins();
  if (admins === 0 && setupCode.value !== null) {
    // Warn level, so it shows whatever LOG_LEVEL: without it nobody but the machine itself can claim the server.
    app.log.warn(
      `No administrator yet. Open ${setupUrl(setupCode.value, config.publicUrl, config.port)} to create the ` +
        `administrator account (or sign up in a browser on this machine, http://localhost:${config.port}). ` +
        'The link works once.',
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Tonearm failed to start: ${error.message}` : error);
  process.exit(1);
});
