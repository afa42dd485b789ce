import type { Kysely, Migration } from 'kysely';

/*
 * Counters that several instances of the server share (issue 14): the per-route rate limits (@fastify/rate-limit's
 * store) and the sign-in failure counts per account and per address, web and Subsonic alike. One row per key and
 * window: `count` hits since the window began, which ends at `resets_at` (epoch milliseconds). Rows whose window
 * ended are pruned by the store now and then; the index on resets_at keeps that a range delete.
 */
export const sharedLimitsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_counters')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('resets_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_counters_resets_at_idx').on('rate_counters').column('resets_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_counters').execute();
  },
};
