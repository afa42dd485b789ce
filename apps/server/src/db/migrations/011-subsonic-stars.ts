import type { Kysely, Migration } from 'kysely';

/*
 * Subsonic stars on albums and artists (issue 13). A song's star is the web app's like (the likes table); albums and
 * artists have no like in the web app, so their stars get tables of their own. One star per user and item (the
 * primary key, which also serves "is this starred by me" and "my starred albums"); deleting the user, the album or
 * the artist deletes its stars (cascade). `created_at` is the date Subsonic answers as `starred`. The (user_id,
 * created_at) index serves a user's stars newest first (getStarred, getAlbumList2 type=starred).
 */
export const subsonicStarsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [table, item, target] of [
      ['album_stars', 'album_id', 'albums.id'],
      ['artist_stars', 'artist_id', 'artists.id'],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn(item, 'integer', (c) => c.notNull().references(target).onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pkey`, ['user_id', item])
        .execute();
      await db.schema.createIndex(`${table}_${item}_idx`).on(table).column(item).execute();
      await db.schema.createIndex(`${table}_user_created_idx`).on(table).columns(['user_id', 'created_at']).execute();
    }
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('artist_stars').execute();
    await db.schema.dropTable('album_stars').execute();
  },
};
