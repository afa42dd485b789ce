import type { Kysely, Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * What Subsonic apps report of their listening (issue 13), kept in the database so that several instances of the
 * server share it:
 * - `subsonic_now_playing`: one row per user and client app (`c`), the song it last said it plays (scrobble with
 *   submission=false) and when; getNowPlaying lists the recent ones. Its id is the entry's `playerId`.
 * - `play_queues` / `play_queue_songs`: the queue a user saved (savePlayQueue) to resume on another device. A deleted
 *   user leaves no rows; a deleted song leaves the queue (and stops being its current song).
 */
export const subsonicActivityMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('subsonic_now_playing')
      .addColumn('id', 'integer', (c) =>
        dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('client', 'text', (c) => c.notNull())
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('reported_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('subsonic_now_playing_user_client_key', ['user_id', 'client'])
      .execute();
    await db.schema
      .createIndex('subsonic_now_playing_reported_at_idx')
      .on('subsonic_now_playing')
      .column('reported_at')
      .execute();
    await db.schema
      .createIndex('subsonic_now_playing_song_id_idx')
      .on('subsonic_now_playing')
      .column('song_id')
      .execute();

    await db.schema
      .createTable('play_queues')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('current_song_id', 'integer', (c) => c.references('songs.id').onDelete('set null'))
      .addColumn('position_ms', 'bigint', (c) => c.notNull())
      .addColumn('changed_at', 'text', (c) => c.notNull())
      .addColumn('changed_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('play_queues_current_song_id_idx')
      .on('play_queues')
      .column('current_song_id')
      .execute();
    await db.schema
      .createTable('play_queue_songs')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('play_queues.user_id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('play_queue_songs_pkey', ['user_id', 'position'])
      .execute();
    await db.schema.createIndex('play_queue_songs_song_id_idx').on('play_queue_songs').column('song_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('play_queue_songs').execute();
    await db.schema.dropTable('play_queues').execute();
    await db.schema.dropTable('subsonic_now_playing').execute();
  },
};
