// `npm run restore -- [--library-path <id or old path>=<new path>]… [--allow-missing-libraries] <file>`: fills an empty
// DATA_DIR (and an empty PostgreSQL database when DATABASE_URL is set) from a backup made by `npm run backup`, after
// checking every byte of it and that every library's folder is there. See docs/backups.md.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { restoreBackup } from '../backup/restore.js';
import { loadConfig } from '../config.js';
import { createBlobStore } from '../storage/create-blob-store.js';
import { runBackupCommand } from './backup-command.js';

const USAGE =
  'Usage: npm run restore -- [--library-path <library id or old path>=<new path>]... [--allow-missing-libraries] <file>';

function parse(args: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'library-path': { type: 'string', multiple: true },
        'allow-missing-libraries': { type: 'boolean' },
      },
    });
    const [source, ...extra] = positionals;
    if (source === undefined || extra.length > 0) return null;
    return {
      source,
      libraryPaths: values['library-path'] ?? [],
      allowMissingLibraries: values['allow-missing-libraries'] === true,
    };
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const parsed = parse(process.argv.slice(2));
  if (parsed === null) {
    console.error(USAGE);
    return 2;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(cwd, parsed.source);
  const config = loadConfig(process.env, cwd);
  const store = await createBlobStore(config);
  const { manifest, blobsWritten, libraries } = await restoreBackup(file, {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    store,
    libraryPaths: parsed.libraryPaths,
    allowMissingLibraries: parsed.allowMissingLibraries,
  });
  console.log(
    `Restored the backup of ${manifest.createdAt} (schema ${manifest.database.migrations.at(-1) ?? 'empty'}, ` +
      `${manifest.blobs.items.length} blobs${blobsWritten === 0 && manifest.blobs.items.length > 0 ? ' checked in the store' : ''}) ` +
      `into ${config.databaseUrl === null ? config.dataDir : `PostgreSQL and ${config.dataDir}`}. ` +
      'Start the server with the same DATA_DIR and DATABASE_URL.',
  );
  for (const { library, path: folder, moved, problem } of libraries) {
    const where = moved ? `moved from ${library.path} to ${folder}` : `at ${folder}`;
    const state = problem === null ? '' : ` — ${problem}: its songs show as missing until the folder is back`;
    console.log(`Library ${library.id} "${library.name}" (${library.files} files) ${where}${state}.`);
  }
  return 0;
}

runBackupCommand('Restore', main);
