import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { DB } from './schema.js';
import { openSqliteFile, SQLITE_BUSY_TIMEOUT_MS, type SqliteConnection } from './sqlite-driver.js';
import { withStatementCache } from './statement-cache.js';
import { SessionWrites, watchSessionWrites } from './write-watch.js';

export type Dialect = 'sqlite' | 'postgres';

export interface AppDatabase {
  db: Kysely<DB>;
  dialect: Dialect;
  destroy(): Promise<void>;
  /** The PostgreSQL pool's connections now; null on SQLite, which has one connection and no pool. */
  poolUse: () => PoolUse | null;
}

/** A connection pool at one moment (pg's own counts, read without a query). */
export interface PoolUse {
  /** Open connections, idle or busy. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is exhausted while this is above 0. */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

export interface DatabaseOptions {
  /** Where the SQLite file lives (ignored with databaseUrl). */
  dataDir: string;
  /** postgres:// URL; when null or absent the embedded SQLite database is used. */
  databaseUrl?: string | null;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

export const SQLITE_FILE_NAME = 'tonearm.db';

const DEFAULT_POOL_SIZE = 10;

export { SQLITE_BUSY_TIMEOUT_MS };

/*
 * COUNT(*) and other bigint results come back from pg as strings; SQLite gives numbers. Parsing int8 as a number keeps
 * repositories dialect-agnostic; every int8 we produce (counts, sums of sizes) stays far below 2^53.
 */
const INT8_OID = 20;

function pgTypesOf(postgres: typeof pg): pg.CustomTypesConfig {
  const builtinParser = postgres.types.getTypeParser as (id: number, format?: string) => unknown;
  return {
    getTypeParser: ((id: number, format?: string) =>
      id === INT8_OID && format !== 'binary'
        ? (value: string) => Number(value)
        : builtinParser(id, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/** The pg driver is required only when PostgreSQL is configured: an SQLite install never loads it. */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

/**
 * SQLite's page cache for the one connection, in KiB (a negative cache_size): SQLite's 2 MiB default holds little of a
 * large catalogue (65 MB at 100 000 songs), so a page of 50 shuffled songs read most of its B-tree pages from the OS
 * again: 0.71 ms for their rows, 0.39 ms with 32 MiB. It fills only as pages are read.
 */
const SQLITE_CACHE_KIB = 32 * 1024;

/**
 * `${dataDir}/tonearm.db` (created if missing), in WAL mode with foreign keys on and a 32 MiB page cache, through this
 * Node's driver (which also sets the busy timeout).
 */
function openSqlite(dataDir: string): SqliteConnection {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = openSqliteFile(path.join(dataDir, SQLITE_FILE_NAME));
  sqlite.exec('pragma journal_mode = WAL');
  sqlite.exec('pragma foreign_keys = ON');
  sqlite.exec('pragma synchronous = NORMAL');
  sqlite.exec(`pragma cache_size = -${SQLITE_CACHE_KIB}`);
  return sqlite;
}

/** A Kysely on `dialect` whose writes to sessions and users the session store can see (db/write-watch.ts). */
function watched(dialect: PostgresDialect | SqliteDialect): Kysely<DB> {
  const watch = new SessionWrites();
  const db = new Kysely<DB>({ dialect, plugins: [watch] });
  watchSessionWrites(db, watch);
  return db;
}

/** Opens the configured database: PostgreSQL when a URL is given, else `${dataDir}/tonearm.db`. */
export function createDatabase(options: DatabaseOptions): AppDatabase {
  if (options.databaseUrl) {
    const postgres = loadPg();
    const pool = new postgres.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      types: pgTypesOf(postgres),
    });
    // An idle pooled connection that the server ends (restart, failover, an admin's terminate) is reported here; without
    // a listener Node would treat it as an uncaught error and stop the process. The pool drops that client by itself.
    pool.on('error', (error) => {
      console.error(`PostgreSQL connection lost (the pool will reconnect): ${error.message}`);
    });
    const db = watched(new PostgresDialect({ pool }));
    const max = options.poolSize ?? DEFAULT_POOL_SIZE;
    const poolUse = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
    // Kysely's destroy() ends the pool.
    return { db, dialect: 'postgres', destroy: () => db.destroy(), poolUse };
  }
  const sqlite = openSqlite(options.dataDir);
  const db = watched(new SqliteDialect({ database: withStatementCache(sqlite) }));
  return { db, dialect: 'sqlite', destroy: () => db.destroy(), poolUse: () => null };
}
