import type { Kysely, Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Issue 27, one queue across devices:
 * - `devices`: every signed-in web client (`key`: `web:` and the random key it keeps) and Subsonic app (`subsonic:`
 *   and its `c`) of a user, with the name the user sees, when it was last seen, and what it last said it plays
 *   (`state`, `song_id`, `position_ms` at `position_at`, `volume`). Deleting the user deletes its devices; deleting
 *   the song leaves the device (its song becomes null).
 * - `play_queues` (migration 012, the queue Subsonic's savePlayQueue saves) is now every device's: `device_id` names
 *   the device that saved it last, `current_index` its current place (a queue may hold a song twice:
 *   savePlayQueueByIndex). No foreign key on `device_id`: SQLite cannot drop a column that has one (the way down), so
 *   the repository that removes a device clears it, and readers join devices by it (a stale id names nothing).
 */
export const devicesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('devices')
      .addColumn('id', 'integer', (c) =>
        dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('song_id', 'integer', (c) => c.references('songs.id').onDelete('set null'))
      .addColumn('position_ms', 'bigint')
      .addColumn('position_at', 'text')
      .addColumn('volume', 'real')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('devices_user_key_key', ['user_id', 'key'])
      .execute();
    await db.schema.createIndex('devices_song_id_idx').on('devices').column('song_id').execute();

    await db.schema.alterTable('play_queues').addColumn('device_id', 'integer').execute();
    await db.schema.alterTable('play_queues').addColumn('current_index', 'integer').execute();
    await db.schema.createIndex('play_queues_device_id_idx').on('play_queues').column('device_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('play_queues_device_id_idx').execute();
    await db.schema.alterTable('play_queues').dropColumn('current_index').execute();
    await db.schema.alterTable('play_queues').dropColumn('device_id').execute();
    await db.schema.dropTable('devices').execute();
  },
};
