import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Issue 28, discovery: the tables its parts share.
 * - `song_ratings`, `album_ratings`, `artist_ratings`: a user's 1–5 stars on an item, one row per user and item (the
 *   primary key); deleting the user or the item deletes the rating. `updated_at` is when it was last set.
 * - `listens`: every play that counted (half the song or 4 minutes, whichever first), kept for the listener's
 *   statistics, export and scrobbling; unlike `plays` (the recent list, capped per user) it is never trimmed.
 *   `played_at` is when the listen began (ISO), `listened_ms` how much was heard, `source` `web` or `subsonic`,
 *   `client` the device's or Subsonic app's name. Deleting the user deletes its listens; deleting the song keeps them
 *   (song null) so minutes listened do not shrink.
 * - `song_features`: a song's audio analysis, one row a song, deleted with it. `vector` holds little-endian float32
 *   values (the analyser's own layout, named by `version`); `failed` is the reason when the file could not be analysed
 *   (the row then marks it done for that version, so a bad file is not retried at every start).
 */
export const discoveryMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === 'postgres';
    for (const [table, item, target] of [
      ['song_ratings', 'song_id', 'songs.id'],
      ['album_ratings', 'album_id', 'albums.id'],
      ['artist_ratings', 'artist_id', 'artists.id'],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn(item, 'integer', (c) => c.notNull().references(target).onDelete('cascade'))
        .addColumn('rating', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pkey`, ['user_id', item])
        .addCheckConstraint(`${table}_rating_check`, sqlRatingCheck())
        .execute();
      await db.schema.createIndex(`${table}_${item}_idx`).on(table).column(item).execute();
    }

    await db.schema
      .createTable('listens')
      .addColumn('id', 'integer', (c) =>
        postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('song_id', 'integer', (c) => c.references('songs.id').onDelete('set null'))
      .addColumn('played_at', 'text', (c) => c.notNull())
      .addColumn('listened_ms', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('client', 'text')
      .execute();
    await db.schema.createIndex('listens_user_played_idx').on('listens').columns(['user_id', 'played_at']).execute();
    await db.schema.createIndex('listens_song_id_idx').on('listens').column('song_id').execute();
    await db.schema.createIndex('listens_played_at_idx').on('listens').column('played_at').execute();

    await db.schema
      .createTable('song_features')
      .addColumn('song_id', 'integer', (c) => c.primaryKey().references('songs.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('vector', postgres ? 'bytea' : 'blob')
      .addColumn('failed', 'text')
      .addColumn('analysed_at', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('song_features').execute();
    await db.schema.dropTable('listens').execute();
    for (const table of ['artist_ratings', 'album_ratings', 'song_ratings']) await db.schema.dropTable(table).execute();
  },
};

function sqlRatingCheck() {
  return sql`rating between 1 and 5`;
}
