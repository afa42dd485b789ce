import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Keyset paging (issue 11): every paged list reads an index in its page order, from the cursor on.
 *
 * Each index ends with the list's tie-breaker (the id). An SQLite index always ends with the rowid, which is the id of
 * songs, playlists and users, so there (artist_id) already serves (artist_id, id); PostgreSQL needs the id spelled
 * out, and gets those indexes only.
 *
 * `catalogue_version` counts the writes that change which songs a list holds (insert, delete, a new artist or genre),
 * whoever makes them (the API, the import CLI in another process, a foreign key action): the song pages' in-memory
 * catalogue (modules/songs/catalogue-index.ts) reloads when it moves.
 */

interface IndexSpec {
  name: string;
  table: string;
  /** Columns, or one SQL expression list. */
  columns: string[] | RawBuilder<unknown>;
}

/** On both dialects. */
const SHARED_INDEXES: IndexSpec[] = [
  // Liked songs, most recently liked first; it replaces likes_user_created_idx (its prefix).
  { name: 'likes_user_created_song_idx', table: 'likes', columns: ['user_id', 'created_at', 'song_id'] },
  // A playlist's songs in playlist order; it replaces playlist_songs_position_idx (its prefix).
  {
    name: 'playlist_songs_order_idx',
    table: 'playlist_songs',
    columns: ['playlist_id', 'position', 'added_at', 'song_id'],
  },
  // A buyer's orders, newest first.
  { name: 'orders_user_created_idx', table: 'orders', columns: ['user_id', 'created_at', 'id'] },
  // The user list by premium end (no premium first): the sort expression of users.repository.
  { name: 'users_premium_until_idx', table: 'users', columns: sql`coalesce(premium_until, ''), id` },
];

/** Indexes of 001 that a shared one above replaces (its prefix): dropped, and made again by down(). */
const REPLACED_INDEXES: IndexSpec[] = [
  { name: 'likes_user_created_idx', table: 'likes', columns: ['user_id', 'created_at'] },
  { name: 'playlist_songs_position_idx', table: 'playlist_songs', columns: ['playlist_id', 'position'] },
];

/** On PostgreSQL only (SQLite's indexes on these tables already end with the id). */
const POSTGRES_INDEXES: IndexSpec[] = [
  { name: 'songs_artist_id_id_idx', table: 'songs', columns: ['artist_id', 'id'] },
  { name: 'songs_genre_id_idx', table: 'songs', columns: ['genre', 'id'] },
  { name: 'playlists_owner_id_id_idx', table: 'playlists', columns: ['owner_id', 'id'] },
  { name: 'users_username_id_idx', table: 'users', columns: sql`lower(username), id` },
  { name: 'users_email_id_idx', table: 'users', columns: ['email', 'id'] },
  { name: 'users_role_id_idx', table: 'users', columns: ['role', 'id'] },
  { name: 'users_created_at_id_idx', table: 'users', columns: ['created_at', 'id'] },
];

async function createIndex(db: Kysely<unknown>, index: IndexSpec): Promise<void> {
  const builder = db.schema.createIndex(index.name).on(index.table);
  await (Array.isArray(index.columns) ? builder.columns(index.columns) : builder.expression(index.columns)).execute();
}

async function sqliteVersionTriggers(db: Kysely<unknown>): Promise<void> {
  const bump = sql.raw('update catalogue_version set version = version + 1');
  await sql`create trigger catalogue_version_after_insert after insert on songs begin ${bump}; end`.execute(db);
  await sql`create trigger catalogue_version_after_delete after delete on songs begin ${bump}; end`.execute(db);
  await sql`create trigger catalogue_version_after_update after update of artist_id, genre on songs
    begin ${bump}; end`.execute(db);
}

async function postgresVersionTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create function tonearm_catalogue_changed() returns trigger language plpgsql as $$
    begin
      update catalogue_version set version = version + 1;
      return null;
    end $$`.execute(db);
  // Once per statement: a batch of an import moves the version once.
  await sql`create trigger catalogue_version_after_change
    after insert or delete or update of artist_id, genre on songs
    for each statement execute function tonearm_catalogue_changed()`.execute(db);
}

export const pagingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === 'postgres';
    for (const index of SHARED_INDEXES) await createIndex(db, index);
    for (const replaced of REPLACED_INDEXES) await db.schema.dropIndex(replaced.name).execute();
    if (postgres) for (const index of POSTGRES_INDEXES) await createIndex(db, index);

    await db.schema
      .createTable('catalogue_version')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into catalogue_version (id, version) values (1, 0)`.execute(db);
    await (postgres ? postgresVersionTriggers(db) : sqliteVersionTriggers(db));
  },

  async down(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') {
      await sql`drop trigger catalogue_version_after_change on songs`.execute(db);
      await sql`drop function tonearm_catalogue_changed()`.execute(db);
      for (const index of POSTGRES_INDEXES) await db.schema.dropIndex(index.name).execute();
    } else {
      for (const event of ['insert', 'delete', 'update']) {
        await sql`drop trigger ${sql.id(`catalogue_version_after_${event}`)}`.execute(db);
      }
    }
    await db.schema.dropTable('catalogue_version').execute();
    for (const replaced of REPLACED_INDEXES) await createIndex(db, replaced);
    for (const index of SHARED_INDEXES) await db.schema.dropIndex(index.name).execute();
  },
};
