import type { Kysely, Migration } from 'kysely';

/*
 * Playlists from files (issue 25): `.m3u`/`.m3u8` files found in a library become playlists, kept in sync with them.
 * - libraries gain `owner_id`: the administrator who owns the library's scan, and so its playlists (the one who added
 *   it; for MUSIC_DIR's library, made at start before any account exists, the first administrator once there is one).
 *   No foreign key: a scan checks the owner is still an administrator and takes the first one otherwise.
 * - playlists gain `library_id` and `source_path` (the file's path relative to the library): both null for a playlist
 *   made in Tonearm; set, the playlist is read-only and follows its file. One playlist per file. Removing the library
 *   removes them (libraries.repository.ts), as it removes its songs.
 * - library_scans gain `playlists` (files read) and `unmatched_entries` (their entries that matched no song).
 */
export const libraryPlaylistsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('libraries').addColumn('owner_id', 'integer').execute();
    await db.schema.alterTable('playlists').addColumn('library_id', 'integer').execute();
    await db.schema.alterTable('playlists').addColumn('source_path', 'text').execute();
    await db.schema
      .createIndex('playlists_source_idx')
      .on('playlists')
      .columns(['library_id', 'source_path'])
      .unique()
      .execute();
    await db.schema
      .alterTable('library_scans')
      .addColumn('playlists', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('library_scans')
      .addColumn('unmatched_entries', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('library_scans').dropColumn('unmatched_entries').execute();
    await db.schema.alterTable('library_scans').dropColumn('playlists').execute();
    await db.schema.dropIndex('playlists_source_idx').execute();
    // Without their columns they would be ordinary, editable playlists the files no longer follow.
    await (db as Kysely<{ playlists: { library_id: number | null } }>)
      .deleteFrom('playlists')
      .where('library_id', 'is not', null)
      .execute();
    await db.schema.alterTable('playlists').dropColumn('source_path').execute();
    await db.schema.alterTable('playlists').dropColumn('library_id').execute();
    await db.schema.alterTable('libraries').dropColumn('owner_id').execute();
  },
};
