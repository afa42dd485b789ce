import type { Kysely, Migration } from 'kysely';

/*
 * Who sees which library (issue 25): a library is seen by every user (`everyone`, the first library's default) or only
 * by the users listed in `library_members`; administrators see every library. Songs held in the blob store (uploads,
 * copy imports, the demo catalogue) belong to no library and are seen by everyone, as before.
 * Existing libraries stay seen by everyone, so nothing anyone sees changes.
 */
export const libraryAccessMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('libraries')
      .addColumn('everyone', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createTable('library_members')
      .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('library_members_pkey', ['library_id', 'user_id'])
      .execute();
    await db.schema.createIndex('library_members_user_idx').on('library_members').column('user_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('library_members').execute();
    await db.schema.alterTable('libraries').dropColumn('everyone').execute();
  },
};
