import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A key's count in its current window, and when that window ends (epoch ms). */
export interface CounterHit {
  count: number;
  resetsAtMs: number;
}

/**
 * The shared counters of migration 013. Every change is one statement, atomic on both dialects (an upsert with
 * RETURNING), so instances counting the same key at once never lose a hit.
 */
export interface RateCountersRepository {
  /** Counts a hit; a window of `windowMs` starts at `nowMs` when none is running. */
  hit(key: string, windowMs: number, nowMs: number): Promise<CounterHit>;
  /** Counts a hit only while the running window holds fewer than `max`; undefined (nothing counted) otherwise. */
  hitBelow(key: string, max: number, windowMs: number, nowMs: number): Promise<CounterHit | undefined>;
  /** Takes one hit back, if the window that ends at `resetsAtMs` is still the key's window. */
  takeBack(key: string, resetsAtMs: number): Promise<void>;
  find(key: string): Promise<CounterHit | undefined>;
  delete(key: string): Promise<void>;
  /** Removes the rows whose window has ended. */
  deleteEnded(nowMs: number): Promise<void>;
}

/** The columns a hit sets on an existing row: a row whose window ended starts a new one. */
function onHit(windowMs: number, nowMs: number) {
  const ended = sql<boolean>`rate_counters.resets_at <= ${nowMs}`;
  return {
    count: sql<number>`case when ${ended} then 1 else rate_counters.count + 1 end`,
    resets_at: sql<number>`case when ${ended} then ${nowMs + windowMs} else rate_counters.resets_at end`,
  };
}

/** pg answers bigint columns as numbers (database.ts), as SQLite does. */
const asHit = (row: { count: number; resets_at: number }): CounterHit => ({
  count: row.count,
  resetsAtMs: row.resets_at,
});

export function createRateCountersRepository(db: Kysely<DB>): RateCountersRepository {
  const insertHit = (key: string, windowMs: number, nowMs: number) =>
    db.insertInto('rate_counters').values({ key, count: 1, resets_at: nowMs + windowMs });

  return {
    async hit(key, windowMs, nowMs) {
      const row = await insertHit(key, windowMs, nowMs)
        .onConflict((oc) => oc.column('key').doUpdateSet(onHit(windowMs, nowMs)))
        .returning(['count', 'resets_at'])
        .executeTakeFirstOrThrow();
      return asHit(row);
    },

    async hitBelow(key, max, windowMs, nowMs) {
      if (max <= 0) return undefined;
      const row = await insertHit(key, windowMs, nowMs)
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet(onHit(windowMs, nowMs))
            .where(sql<boolean>`rate_counters.resets_at <= ${nowMs} or rate_counters.count < ${max}`),
        )
        .returning(['count', 'resets_at'])
        .executeTakeFirst();
      return row === undefined ? undefined : asHit(row);
    },

    async takeBack(key, resetsAtMs) {
      await db
        .updateTable('rate_counters')
        .set({ count: sql<number>`count - 1` })
        .where('key', '=', key)
        .where('resets_at', '=', resetsAtMs)
        .where('count', '>', 0)
        .execute();
    },

    async find(key) {
      const row = await db
        .selectFrom('rate_counters')
        .select(['count', 'resets_at'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row === undefined ? undefined : asHit(row);
    },

    async delete(key) {
      await db.deleteFrom('rate_counters').where('key', '=', key).execute();
    },

    async deleteEnded(nowMs) {
      await db.deleteFrom('rate_counters').where('resets_at', '<=', nowMs).execute();
    },
  };
}
