import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

/** The PostgreSQL advisory locks of the application: arbitrary constants, unique within it. */
export const AdvisoryLocks = {
  /** "Is this the first / last administrator?" and the write that depends on it (users.repository). */
  userRoles: 7_415_001,
  /** The blob sweep: one instance at a time (startup.ts). */
  blobSweep: 7_415_002,
  /** Seeding the demo catalogue of a fresh install: once, whatever the number of instances starting (startup.ts). */
  demoSeed: 7_415_003,
  /** A library's scan: one instance at a time per library; the library's id is added to it. */
  libraryScan: 7_416_000_000,
  /** A song's audio analysis: one instance at a time per song (issue 28); the song's id is added to it. */
  songAnalysis: 7_500_000_000,
} as const;

export type LockOutcome<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while this process holds the advisory lock `key`, so that instances sharing one PostgreSQL database take
 * turns. `try`: when another instance holds it, `work` does not run ({ ran: false }); `wait`: waits for it. The lock
 * is held by one pooled connection for the length of `work` (a session lock, freed by PostgreSQL if the process dies),
 * while `work` itself may use any connection; it is handed the lock's own (`db` on SQLite), on which its statements
 * need no second connection of the pool. SQLite serves one process by design: the turns are taken within it.
 */
export async function withAdvisoryLock<T>(
  db: Kysely<DB>,
  dialect: Dialect,
  key: number,
  mode: 'try' | 'wait',
  work: (connection: Kysely<DB>) => Promise<T>,
): Promise<LockOutcome<T>> {
  if (dialect === 'sqlite') return withProcessLock(db, key, mode, () => work(db));
  return db.connection().execute(async (connection) => {
    if (mode === 'wait') await sql`select pg_advisory_lock(${key})`.execute(connection);
    else {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(
        connection,
      );
      if (rows[0]?.locked !== true) return { ran: false };
    }
    try {
      return { ran: true, value: await work(connection) };
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

/** The locks held in this process, per database: SQLite's stand-in for advisory locks. */
const processLocks = new WeakMap<Kysely<DB>, Map<number, Promise<unknown>>>();

async function withProcessLock<T>(
  db: Kysely<DB>,
  key: number,
  mode: 'try' | 'wait',
  work: () => Promise<T>,
): Promise<LockOutcome<T>> {
  const held = processLocks.get(db) ?? new Map<number, Promise<unknown>>();
  processLocks.set(db, held);
  const previous = held.get(key);
  if (previous !== undefined && mode === 'try') return { ran: false };
  const turn = (previous ?? Promise.resolve()).catch(() => undefined).then(work);
  held.set(key, turn);
  try {
    return { ran: true, value: await turn };
  } finally {
    if (held.get(key) === turn) held.delete(key);
  }
}
