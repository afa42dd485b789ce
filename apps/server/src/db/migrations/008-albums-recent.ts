import type { Kysely, Migration } from 'kysely';

/*
 * Albums newest first (issue 12, the home page's shelf): GET /api/albums?sort=recent pages by (created_at, id)
 * descending, and this index keeps each page a bounded index walk rather than a sort of every album.
 */
export const albumsRecentMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('albums_created_id_idx').on('albums').columns(['created_at', 'id']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('albums_created_id_idx').execute();
  },
};
