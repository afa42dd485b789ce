import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../scripts/free-port.mjs';

const run = promisify(execFile);
const POSTGRES_ROOT = '/usr/lib/postgresql';

export interface ThrowawayPostgres {
  /** Superuser URL of the maintenance database, used to create and drop per-file test databases. */
  adminUrl: string;
  version: string;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin directory, or null. */
export function findPostgresBin(): { bin: string; version: string } | null {
  if (!existsSync(POSTGRES_ROOT)) return null;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((v) => existsSync(path.join(POSTGRES_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const version = versions[0];
  return version === undefined ? null : { bin: path.join(POSTGRES_ROOT, version, 'bin'), version };
}

async function uidOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * PG_LOG_SLOW_MS (a diagnosis, for benchmarks): the cluster logs every statement slower than that, autovacuum's runs
 * and lock waits, and its log is copied to PG_LOG_DIR (default /tmp) when it stops, as tonearm-pg-<time>.log.
 */
function slowStatementLogging(): string[] {
  const ms = process.env.PG_LOG_SLOW_MS;
  if (ms === undefined || !/^\d+$/.test(ms)) return [];
  return [
    `-c log_min_duration_statement=${ms}`,
    '-c log_autovacuum_min_duration=0',
    '-c log_lock_waits=on',
    `-c deadlock_timeout=${ms}ms`,
    "-c log_line_prefix='%m [%p] '",
  ];
}

/**
 * PG_STAT_STATEMENTS=1 (a diagnosis, for benchmarks): the cluster loads pg_stat_statements, so a benchmark can list the
 * statements that took its backends' time (bench:scan prints them after its page phase).
 */
function statementStatistics(): string[] {
  if (process.env.PG_STAT_STATEMENTS !== '1') return [];
  return ['-c shared_preload_libraries=pg_stat_statements', '-c pg_stat_statements.track=all'];
}

async function keepLog(logFile: string): Promise<void> {
  if (slowStatementLogging().length === 0) return;
  const kept = path.join(process.env.PG_LOG_DIR ?? tmpdir(), `tonearm-pg-${String(Date.now())}.log`);
  await copyFile(logFile, kept).catch(() => undefined);
}

/**
 * Starts a private PostgreSQL cluster in a temp dir on a free loopback port (~3 s). PostgreSQL refuses to run as root,
 * so as root the binaries run as the `postgres` system user through runuser. Durability is switched off: the data is
 * thrown away after the run.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const found = findPostgresBin();
  if (found === null) throw new Error(`no PostgreSQL binaries under ${POSTGRES_ROOT}/*/bin`);
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(tmpdir(), 'tonearm-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const exec = async (binary: string, args: string[]) => {
    const file = path.join(found.bin, binary);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  };
  const stop = async () => {
    await exec('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await keepLog(logFile);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) {
      const owner = await uidOf('postgres');
      await chown(dir, owner.uid, owner.gid);
    }
    await exec('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const port = await freePort();
    const serverOptions = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c synchronous_commit=off',
      '-c max_connections=200',
      ...slowStatementLogging(),
      ...statementStatistics(),
    ].join(' ');
    await exec('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '30', 'start']);
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, version: found.version, stop };
  } catch (error) {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    await stop();
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`${detail.trim()}${log ? `\n${log.trim().split('\n').slice(-5).join('\n')}` : ''}`, {
      cause: error,
    });
  }
}
