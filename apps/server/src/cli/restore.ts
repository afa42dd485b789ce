// `npm run restore -- <file>`: fills an empty DATA_DIR (and an empty PostgreSQL database when DATABASE_URL is set)
// from a backup made by `npm run backup`, after checking every byte of it. See docs/backups.md.
import path from 'node:path';
import { restoreBackup } from '../backup/restore.js';
import { loadConfig } from '../config.js';
import { createBlobStore } from '../storage/create-blob-store.js';
import { runBackupCommand } from './backup-command.js';

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

runBackupCommand('Restore', main);
