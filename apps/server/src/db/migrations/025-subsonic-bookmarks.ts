import type { Kysely, Migration } from 'kysely';

/*
 * Issue 27, Subsonic to the letter of OpenSubsonic:
 * - `subsonic_bookmarks`: a user's resume point in a song (createBookmark, getBookmarks, deleteBookmark), one per user
 *   and song (the primary key, which also serves "my bookmarks"), with its optional comment. Deleting the user or the
 *   song deletes its bookmarks (cascade); the song_id index serves the song's delete.
 * - `subsonic_now_playing` learns what the OpenSubsonic playbackReport extension reports (reportPlayback): the playback
 *   `state`, the `position_ms` reported at `position_at`, the `playback_rate`, and whether this playback has already
 *   counted as a play (`counted`, 0 or 1; a new playback of the song starts at 0). A plain now-playing scrobble leaves
 *   the state columns null.
 */
const NOW_PLAYING_COLUMNS = [
  ['state', 'text'],
  ['position_ms', 'bigint'],
  ['position_at', 'text'],
  ['playback_rate', 'real'],
] as const;

export const subsonicBookmarksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('subsonic_bookmarks')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('position_ms', 'bigint', (c) => c.notNull())
      .addColumn('comment', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('subsonic_bookmarks_pkey', ['user_id', 'song_id'])
      .execute();
    await db.schema.createIndex('subsonic_bookmarks_song_id_idx').on('subsonic_bookmarks').column('song_id').execute();

    for (const [name, type] of NOW_PLAYING_COLUMNS) {
      await db.schema.alterTable('subsonic_now_playing').addColumn(name, type).execute();
    }
    await db.schema
      .alterTable('subsonic_now_playing')
      .addColumn('counted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const name of ['counted', ...NOW_PLAYING_COLUMNS.map(([column]) => column)]) {
      await db.schema.alterTable('subsonic_now_playing').dropColumn(name).execute();
    }
    await db.schema.dropTable('subsonic_bookmarks').execute();
  },
};
