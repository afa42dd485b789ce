import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement as KyselySqliteStatement } from 'kysely';

/**
 * The one door to SQLite. better-sqlite3 12 runs on Node 20 and 22 but aborts the process on Node 24 when the garbage
 * collector frees a statement (Node 24 changed ObjectWrap; better-sqlite3 13 fixes it but needs Node 22+), so Node 24
 * and later use Node's own `node:sqlite`. Each library is loaded only on the Node that uses it: Node 24 never loads
 * better-sqlite3's binary, Node 20 never touches node:sqlite. Both answer the same way: rows as objects (with a null
 * prototype on node:sqlite), integers as numbers, errors with SQLite's code name (`SQLITE_BUSY`,
 * `SQLITE_CONSTRAINT_UNIQUE`, ...) in `code`. Blobs come back as Uint8Array (a Buffer on better-sqlite3); the server
 * keeps none in SQLite.
 */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** sqlite3_backup_step's page count per step: everything in one step, so writers in between cannot restart it. */
const ALL_PAGES = 0x7fffffff;

/** A prepared statement; `parameters` bind to its `?` in order. Kysely's SqliteDialect runs these. */
export interface SqliteStatement extends KyselySqliteStatement {
  /** The first row, or undefined. */
  get(parameters: readonly unknown[]): unknown;
}

/** One connection to one SQLite file. */
export interface SqliteConnection extends KyselySqliteDatabase {
  readonly driver: SqliteDriverName;
  prepare(sql: string): SqliteStatement;
  /** Runs one or more statements that answer no rows (pragmas, `begin immediate`, DDL). */
  exec(sql: string): void;
  close(): void;
  /** A consistent copy of the whole database in `file` (SQLite's online backup API, in one step). */
  backup(file: string): Promise<void>;
}

export interface OpenOptions {
  /** Fail rather than create the file when it is missing. */
  mustExist?: boolean;
  readOnly?: boolean;
}

/** Which library runs SQLite on Node `nodeVersion` ("24.21.0"). */
export function sqliteDriverFor(nodeVersion: string): SqliteDriverName {
  return Number(nodeVersion.split('.')[0]) >= 24 ? 'node:sqlite' : 'better-sqlite3';
}

const load = createRequire(import.meta.url);

/** Opens `file` (':memory:' for a private in-memory database) with this Node's driver and the busy timeout. */
export function openSqliteFile(file: string, options: OpenOptions = {}): SqliteConnection {
  if (options.mustExist === true && file !== ':memory:' && !existsSync(file)) {
    throw new Error(`SQLite database ${file} does not exist`);
  }
  return sqliteDriverFor(process.versions.node) === 'node:sqlite'
    ? openWithNodeSqlite(file, options)
    : openWithBetterSqlite3(file, options);
}

// better-sqlite3 ----------------------------------------------------------------------------------------------------

function openWithBetterSqlite3(file: string, options: OpenOptions): SqliteConnection {
  const Database = load('better-sqlite3') as typeof BetterSqlite3;
  const sqlite = new Database(file, {
    readonly: options.readOnly === true,
    fileMustExist: options.mustExist === true,
    timeout: SQLITE_BUSY_TIMEOUT_MS,
  });
  return {
    driver: 'better-sqlite3',
    // Its statements already take the parameters as one array and carry `reader`: handed out as they are, for speed.
    prepare: (sql) => sqlite.prepare(sql),
    exec: (sql) => {
      sqlite.exec(sql);
    },
    close: () => {
      sqlite.close();
    },
    backup: async (target) => {
      await sqlite.backup(target, { progress: () => ALL_PAGES });
    },
  };
}

// node:sqlite -------------------------------------------------------------------------------------------------------

/** What this file uses of node:sqlite (the project's @types/node is Node 20's, which has no node:sqlite). */
interface NodeSqliteStatement {
  all(...parameters: unknown[]): unknown[];
  get(...parameters: unknown[]): unknown;
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  columns(): unknown[];
}

interface NodeSqliteDatabase {
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (
    file: string,
    options: { readOnly: boolean; timeout: number; enableForeignKeyConstraints: boolean },
  ) => NodeSqliteDatabase;
  backup: (source: NodeSqliteDatabase, file: string, options: { rate: number }) => Promise<number>;
}

function openWithNodeSqlite(file: string, options: OpenOptions): SqliteConnection {
  const { DatabaseSync, backup } = load('node:sqlite') as NodeSqliteModule;
  // Foreign keys on at open, as better-sqlite3 builds SQLite (the server also turns them on by pragma).
  const sqlite = translated(
    () =>
      new DatabaseSync(file, {
        readOnly: options.readOnly === true,
        timeout: SQLITE_BUSY_TIMEOUT_MS,
        enableForeignKeyConstraints: true,
      }),
  );
  return {
    driver: 'node:sqlite',
    prepare: (sql) => new NodeStatement(translated(() => sqlite.prepare(sql))),
    exec: (sql) => {
      translated(() => {
        sqlite.exec(sql);
      });
    },
    close: () => {
      sqlite.close();
    },
    backup: async (target) => {
      try {
        await backup(sqlite, target, { rate: ALL_PAGES });
      } catch (error) {
        throw withSqliteCode(error);
      }
    },
  };
}

/** A node:sqlite statement with better-sqlite3's calling convention (parameters as one array) and `reader`. */
class NodeStatement implements SqliteStatement {
  readonly reader: boolean;

  constructor(private readonly statement: NodeSqliteStatement) {
    this.reader = statement.columns().length > 0;
  }

  all(parameters: readonly unknown[]): unknown[] {
    return translated(() => this.statement.all(...parameters));
  }

  get(parameters: readonly unknown[]): unknown {
    return translated(() => this.statement.get(...parameters));
  }

  run(parameters: readonly unknown[]) {
    return translated(() => this.statement.run(...parameters));
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    const rows = translated(() => this.statement.iterate(...parameters));
    for (;;) {
      const next = translated(() => rows.next());
      if (next.done === true) return;
      yield next.value;
    }
  }
}

function translated<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw withSqliteCode(error);
  }
}

/**
 * node:sqlite reports every SQLite failure as code ERR_SQLITE_ERROR with the number in `errcode`; callers (db/errors.ts,
 * db/without-waiting.ts) read better-sqlite3's names. The extended name when it is one of those SQLite defines for the
 * codes a caller can act on, else the primary one.
 */
function withSqliteCode(error: unknown): unknown {
  const failure = error as { code?: unknown; errcode?: unknown } | null;
  if (failure?.code !== 'ERR_SQLITE_ERROR' || typeof failure.errcode !== 'number') return error;
  const extended = EXTENDED_CODES.get(failure.errcode);
  // Primary codes are the low byte of the extended ones.
  const primary = PRIMARY_CODES[failure.errcode & 0xff];
  failure.code = extended ?? (primary === undefined ? 'SQLITE_ERROR' : `SQLITE_${primary}`);
  return error;
}

/** SQLite's primary result codes, by number (https://sqlite.org/rescode.html). */
const PRIMARY_CODES = [
  'OK',
  'ERROR',
  'INTERNAL',
  'PERM',
  'ABORT',
  'BUSY',
  'LOCKED',
  'NOMEM',
  'READONLY',
  'INTERRUPT',
  'IOERR',
  'CORRUPT',
  'NOTFOUND',
  'FULL',
  'CANTOPEN',
  'PROTOCOL',
  'EMPTY',
  'SCHEMA',
  'TOOBIG',
  'CONSTRAINT',
  'MISMATCH',
  'MISUSE',
  'NOLFS',
  'AUTH',
  'FORMAT',
  'RANGE',
  'NOTADB',
  'NOTICE',
  'WARNING',
];

/** The extended codes of the busy and constraint families (what the server tells apart). */
const EXTENDED_CODES = new Map<number, string>([
  [261, 'SQLITE_BUSY_RECOVERY'],
  [517, 'SQLITE_BUSY_SNAPSHOT'],
  [773, 'SQLITE_BUSY_TIMEOUT'],
  [275, 'SQLITE_CONSTRAINT_CHECK'],
  [531, 'SQLITE_CONSTRAINT_COMMITHOOK'],
  [787, 'SQLITE_CONSTRAINT_FOREIGNKEY'],
  [1043, 'SQLITE_CONSTRAINT_FUNCTION'],
  [1299, 'SQLITE_CONSTRAINT_NOTNULL'],
  [1555, 'SQLITE_CONSTRAINT_PRIMARYKEY'],
  [1811, 'SQLITE_CONSTRAINT_TRIGGER'],
  [2067, 'SQLITE_CONSTRAINT_UNIQUE'],
  [2323, 'SQLITE_CONSTRAINT_VTAB'],
  [2579, 'SQLITE_CONSTRAINT_ROWID'],
  [3091, 'SQLITE_CONSTRAINT_DATATYPE'],
]);
