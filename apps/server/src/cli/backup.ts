// `npm run backup -- <file>`: writes a consistent backup of the configured database and blobs (the same environment
// variables as the server) to <file>, a tar archive, while the server keeps running. See docs/backups.md.
import path from 'node:path';
import { createBackup, storesBlobsLocally } from '../backup/backup.js';
import { loadConfig } from '../config.js';
import { createBlobStore } from '../storage/create-blob-store.js';
import { runBackupCommand } from './backup-command.js';

const USAGE = 'Usage: npm run backup -- <file>';

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function main(): Promise<number> {
  const [target, ...extra] = process.argv.slice(2);
  if (target === undefined || extra.length > 0 || target.startsWith('-')) {
    console.error(USAGE);
    return 2;
  }
  // Paths are meant from where the user typed the command (npm runs workspace scripts in apps/server).
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(cwd, target);
  const config = loadConfig(process.env, cwd);
  // The same blob location as the server (main.ts).
  const store = await createBlobStore(config);
  const started = Date.now();
  const result = await createBackup(file, { dataDir: config.dataDir, databaseUrl: config.databaseUrl, store });
  const { database, blobs } = result.manifest;
  const blobBytes = blobs.items.reduce((sum, item) => sum + item.size, 0);
  console.log(
    `Backed up the ${database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database (schema ` +
      `${database.migrations.at(-1) ?? 'empty'}) and ${blobs.items.length} blobs (${mebibytes(blobBytes)}` +
      `${storesBlobsLocally(store) ? '' : ', listed only: they stay in the remote store'}) to ${file} ` +
      `(${mebibytes(result.bytes)}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  // Read in place: their files stay in their folders, which a restore expects at the same paths (or is told where).
  for (const library of result.manifest.libraries) {
    console.log(
      `Listed library ${library.id} "${library.name}" at ${library.path} (${library.files} files, ` +
        `${mebibytes(library.bytes)}), not copied: back its folder up on its own.`,
    );
  }
  return 0;
}

runBackupCommand('Backup', main);
