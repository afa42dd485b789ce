import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Where Debian and Ubuntu install each PostgreSQL version's programs, besides PATH. */
const DEBIAN_POSTGRES_DIR = '/usr/lib/postgresql';

/** A missing tool or a tool that failed: the message is fit to print on its own. */
export class PostgresToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresToolError';
  }
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** `/usr/lib/postgresql/<version>/bin`, newest version first (a newer pg_dump reads older servers, not the reverse). */
async function debianBinDirs(): Promise<string[]> {
  const versions = await readdir(DEBIAN_POSTGRES_DIR).catch(() => []);
  return versions
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(DEBIAN_POSTGRES_DIR, version, 'bin'));
}

/** The path of `pg_dump` or `pg_restore`: from PATH, else the newest /usr/lib/postgresql/<version>/bin. */
export async function findPostgresTool(name: 'pg_dump' | 'pg_restore'): Promise<string> {
  const pathDirs = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
  for (const dir of [...pathDirs, ...(await debianBinDirs())]) {
    const file = path.join(dir, name);
    if (await isExecutable(file)) return file;
  }
  throw new PostgresToolError(
    `${name} was not found in PATH or ${DEBIAN_POSTGRES_DIR}/*/bin: install the PostgreSQL client programs ` +
      '(for instance apt-get install postgresql-client), of the same major version as the server or newer.',
  );
}

/**
 * The connection for a libpq program: the URL without its password, which goes in PGPASSWORD instead, so it never
 * shows in the process list.
 */
function libpqConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password === '' ? {} : { PGPASSWORD: password } };
}

async function runTool(name: 'pg_dump' | 'pg_restore', databaseUrl: string, args: string[]): Promise<void> {
  const program = await findPostgresTool(name);
  const { url, env } = libpqConnection(databaseUrl);
  const child = spawn(program, [...args, `--dbname=${url}`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new PostgresToolError(`${name} failed (exit ${code}): ${errors.trim() || 'no message'}`);
}

/** Dumps the database as of `snapshot` (an id from pg_export_snapshot) to `file`, in pg_dump's custom format. */
export function pgDump(databaseUrl: string, snapshot: string, file: string): Promise<void> {
  return runTool('pg_dump', databaseUrl, ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`]);
}

/**
 * Loads a custom-format dump into the (empty) database, all in one transaction: when it fails, nothing was loaded.
 * Owners and grants are left out, so the dump loads under whichever role the DATABASE_URL names.
 */
export function pgRestore(databaseUrl: string, file: string): Promise<void> {
  return runTool('pg_restore', databaseUrl, [
    '--single-transaction',
    '--exit-on-error',
    '--no-owner',
    '--no-privileges',
    file,
  ]);
}
