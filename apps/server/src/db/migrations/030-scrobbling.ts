import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Issue 28, scrobbling out: a listener's accounts at ListenBrainz and Last.fm, and what waits to be sent to them.
 * - `scrobble_accounts`: one per user and service. `secrets` is the service's credentials as JSON sealed by the
 *   SecretBox (AES-GCM, bound to the user and service): never answered, never logged. `remote_name` is the name the
 *   service knows the listener by; `state` `ok`, or `attention` once the service refused the credentials (nothing is
 *   sent until the listener connects again; what waits is kept). `connected_at`: only listens after it are queued.
 * - `scrobble_queue`: one row per account and listen (`kind` `listen`) or song started (`now_playing`), with the
 *   artist, title, album and length captured when queued (a song deleted meanwhile is still sent as it was). A row is
 *   claimed by an instance until `claimed_until`, deleted once the service accepted it, or put back with
 *   `next_attempt_at` later (backoff) and `attempts` + 1. `listen_id` is unique per account: one listen is queued once.
 * - `listens` gets a unique (user, song, start): the same listen reported twice is stored once.
 */
export const scrobblingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const id = (c: ColumnDefinitionBuilder) =>
      dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
    await db.schema
      .createTable('scrobble_accounts')
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('secrets', 'text', (c) => c.notNull())
      .addColumn('remote_name', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('last_sent_at', 'text')
      .addColumn('connected_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('scrobble_accounts_user_service_key', ['user_id', 'service'])
      .execute();

    await db.schema
      .createTable('scrobble_queue')
      .addColumn('id', 'integer', id)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('scrobble_accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('listen_id', 'integer')
      .addColumn('artist', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('album', 'text')
      .addColumn('duration_ms', 'integer')
      .addColumn('played_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('scrobble_queue_account_listen_key', ['account_id', 'listen_id'])
      .execute();
    await db.schema
      .createIndex('scrobble_queue_due_idx')
      .on('scrobble_queue')
      .columns(['next_attempt_at', 'id'])
      .execute();
    // One listen per user, song and start: a scrobble reported twice (an app's retry) counts and is sent once.
    await db.schema
      .createIndex('listens_user_song_played_key')
      .on('listens')
      .columns(['user_id', 'song_id', 'played_at'])
      .unique()
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('listens_user_song_played_key').execute();
    await db.schema.dropTable('scrobble_queue').execute();
    await db.schema.dropTable('scrobble_accounts').execute();
  },
};
