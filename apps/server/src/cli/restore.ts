// `npm run restore -- <file>`: fills an empty DATA_DIR (and an empty PostgreSQL database when DATABASE_URL is set)
// from a backup made by `npm run backup`, after checking every byte of it. See README, "Backup and restore".
import path from 'node:path';
import { BackupError } from '../backup/backup-error.js';
import { PostgresToolError } from '../backup/postgres-tools.js';
import { restoreBackup } from '../backup/restore.js';
import { ConfigError, loadConfig } from '../config.js';
import { createBlobStore } from '../storage/create-blob-store.js';

const USAGE = 'Usage: npm run restore -- <file>';

async function main(): Promise<number> {
  const [source, ...extra] = process.argv.slice(2);
  if (source === undefined || extra.length > 0 || source.startsWith('-')) {
    console.error(USAGE);
    return 2;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(cwd, source);
  const config = loadConfig(process.env, cwd);
  const store = await createBlobStore(config);
  const { manifest, blobsWritten } = await restoreBackup(file, {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    store,
  });
  console.log(
    `Restored the backup of ${manifest.createdAt} (schema ${manifest.database.migrations.at(-1) ?? 'empty'}, ` +
      `${manifest.blobs.items.length} blobs${blobsWritten === 0 && manifest.blobs.items.length > 0 ? ' checked in the store' : ''}) ` +
      `into ${config.databaseUrl === null ? config.dataDir : `PostgreSQL and ${config.dataDir}`}. ` +
      'Start the server with the same DATA_DIR and DATABASE_URL.',
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    const known = error instanceof BackupError || error instanceof PostgresToolError;
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!known && error instanceof Error && error.stack) console.error(error.stack);
    process.exitCode = 1;
  },
);
