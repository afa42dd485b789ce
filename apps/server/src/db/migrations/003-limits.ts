import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Per-user limits (issue 9). `image_uploads` records each image a user stored (profile photo, playlist cover) with its
 * size, so the daily allowance is counted in the database: it holds across restarts and across several instances.
 * Rows older than the window are pruned as the user uploads again; they go with the user (ON DELETE CASCADE).
 */
export const limitsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const primaryId = (c: ColumnDefinitionBuilder) =>
      dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();

    await db.schema
      .createTable('image_uploads')
      .addColumn('id', 'integer', primaryId)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('image_uploads_user_created_idx')
      .on('image_uploads')
      .columns(['user_id', 'created_at'])
      .execute();
    // Counting a user's unfinished checkouts (PENDING_ORDERS_PER_USER) stays an index lookup however many orders exist.
    await db.schema
      .createIndex('orders_user_status_created_idx')
      .on('orders')
      .columns(['user_id', 'status', 'created_at'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('orders_user_status_created_idx').execute();
    await db.schema.dropTable('image_uploads').execute();
  },
};
