import { sql, type Kysely, type Transaction } from 'kysely';
import { SQLITE_BUSY_TIMEOUT_MS } from './database.js';
import { dialectOf } from './dialect.js';
import type { DB } from './schema.js';

/** SQLite's answer when another connection holds the write lock and the write chose not to wait for it. */
export function isLockBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}

/**
 * Runs `work` in one transaction that never waits for another connection's write lock. On SQLite, both drivers wait
 * synchronously, holding the event loop, and an import in another process holds the lock a batch at a time; so here
 * a locked database fails the first write at once with SQLITE_BUSY (isLockBusy), and the caller does without or tries
 * later. The busy timeout is set back before the transaction ends, so no other statement ever runs without it.
 * PostgreSQL's waits do not hold the event loop: there the transaction is an ordinary one.
 */
export function inTransactionWithoutWaiting<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const sqlite = dialectOf(db) === 'sqlite';
  return db.transaction().execute(async (trx) => {
    if (!sqlite) return work(trx);
    await sql`pragma busy_timeout = 0`.execute(trx);
    try {
      return await work(trx);
    } finally {
      await sql.raw(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`).execute(trx);
    }
  });
}
