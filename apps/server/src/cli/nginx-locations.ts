// `npm run nginx-locations`: prints the nginx locations MEDIA_OFFLOAD=nginx needs for the libraries of the configured
// database (the same environment variables as the server), one line each, to paste inside
// `location /_tonearm_library/ { … }` of docs/deploy/nginx.conf. See docs/deploy/README.md, "MEDIA_OFFLOAD=nginx".
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { createDatabase, SQLITE_FILE_NAME } from '../db/database.js';
import { nginxLibraryLocations } from '../media/nginx-offload.js';
import { createLibrariesRepository } from '../modules/libraries/libraries.repository.js';
import { createSongsRepository } from '../modules/songs/songs.repository.js';
import { runBackupCommand } from './backup-command.js';

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    console.error('Usage: npm run nginx-locations');
    return 2;
  }
  const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
  if (config.databaseUrl === null && !existsSync(path.join(config.dataDir, SQLITE_FILE_NAME))) {
    console.error(`There is no database in ${config.dataDir} (check DATA_DIR).`);
    return 1;
  }
  const database = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: 1 });
  try {
    const libraries = await createLibrariesRepository(database.db, (trx) => createSongsRepository(trx, null)).list();
    if (libraries.length === 0) console.error('There is no library yet: nginx needs no location for one.');
    for (const line of nginxLibraryLocations(libraries)) console.log(line);
    return 0;
  } finally {
    await database.destroy();
  }
}

runBackupCommand('Listing the libraries', main);
