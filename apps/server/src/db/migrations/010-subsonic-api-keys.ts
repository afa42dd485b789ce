import type { Kysely, Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * API keys for Subsonic apps (issue 13, OpenSubsonic's apiKeyAuthentication): only the sha256 of each key is kept,
 * so a copy of the database lets nobody sign in. `key_hash` is unique and indexed: /rest/ finds the key by it on every
 * call. Deleting the user deletes their keys (cascade); `user_id` is indexed for the owner's list.
 */
export const subsonicApiKeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('subsonic_api_keys')
      .addColumn('id', 'integer', (c) =>
        dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('subsonic_api_keys_user_id_idx').on('subsonic_api_keys').column('user_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('subsonic_api_keys').execute();
  },
};
