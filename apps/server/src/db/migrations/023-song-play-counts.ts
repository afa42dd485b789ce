import { sql, type Kysely, type Migration } from 'kysely';

/*
 * Issue 26: the song lists' "Plays" column. `songs.play_count` counts every play of the song by anyone (the web
 * player's and a Subsonic app's scrobbles: plays.repository.ts `record` adds one in the play's own transaction), and
 * the index holds (play_count, id) so GET /api/songs/page?order=plays reads a page from its cursor on.
 *
 * The backfill counts the plays table, which keeps only each user's newest plays (PLAY_HISTORY_MAX, trimmed as they
 * listen): the counts start from what history is left, so a long-played song starts lower than it was really played.
 * From here on every play counts, trimmed or not.
 */
export const songPlayCountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('songs')
      .addColumn('play_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update songs set play_count = (select count(*) from plays where plays.song_id = songs.id)
      where exists (select 1 from plays where plays.song_id = songs.id)`.execute(db);
    await sql`create index songs_play_count_sort_idx on songs (play_count, id)`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await sql`drop index if exists songs_play_count_sort_idx`.execute(db);
    await db.schema.alterTable('songs').dropColumn('play_count').execute();
  },
};
