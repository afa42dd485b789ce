import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

type ColumnBuilderCallback = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** Every table of DESIGN §3. Timestamps are ISO-8601 text and booleans 0/1 integers on both dialects. */
export const initialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const primaryId: ColumnBuilderCallback =
      dialectOf(db) === 'postgres'
        ? (c) => c.primaryKey().generatedByDefaultAsIdentity()
        : (c) => c.primaryKey().autoIncrement();

    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', primaryId)
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('gender', 'text')
      .addColumn('address', 'text')
      .addColumn('role', 'text', (c) =>
        c
          .notNull()
          .defaultTo('USER')
          .check(sql`role in ('USER', 'ADMIN')`),
      )
      .addColumn('premium_until', 'text')
      .addColumn('image_key', 'text')
      .addColumn('subsonic_secret', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // lower() is ASCII folding on SQLite; usernames are ASCII by the contract's rule, so both dialects agree.
    await db.schema
      .createIndex('users_username_lower_unique')
      .on('users')
      .unique()
      .expression(sql`lower(username)`)
      .execute();
    await db.schema.createIndex('users_role_idx').on('users').column('role').execute();
    await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('artists')
      .addColumn('id', 'integer', primaryId)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('image_key', 'text')
      .execute();

    await db.schema
      .createTable('songs')
      .addColumn('id', 'integer', primaryId)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('genre', 'text', (c) => c.notNull())
      .addColumn('artist_id', 'integer', (c) => c.references('artists.id').onDelete('set null'))
      .addColumn('audio_key', 'text', (c) => c.notNull())
      .addColumn('audio_sha256', 'text', (c) => c.notNull().unique())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'integer', (c) => c.notNull())
      .addColumn('duration_ms', 'integer')
      .addColumn('image_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('songs_artist_id_idx').on('songs').column('artist_id').execute();
    await db.schema.createIndex('songs_genre_idx').on('songs').column('genre').execute();
    await db.schema.createIndex('songs_created_at_idx').on('songs').column('created_at').execute();

    await db.schema
      .createTable('playlists')
      .addColumn('id', 'integer', primaryId)
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_public', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`is_public in (0, 1)`),
      )
      .addColumn('image_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('playlists_owner_id_idx').on('playlists').column('owner_id').execute();
    await db.schema.createIndex('playlists_is_public_idx').on('playlists').column('is_public').execute();

    await db.schema
      .createTable('playlist_songs')
      .addColumn('playlist_id', 'integer', (c) => c.notNull().references('playlists.id').onDelete('cascade'))
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('added_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('playlist_songs_pk', ['playlist_id', 'song_id'])
      .execute();
    await db.schema
      .createIndex('playlist_songs_position_idx')
      .on('playlist_songs')
      .columns(['playlist_id', 'position'])
      .execute();
    await db.schema.createIndex('playlist_songs_song_id_idx').on('playlist_songs').column('song_id').execute();

    await db.schema
      .createTable('likes')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('likes_pk', ['user_id', 'song_id'])
      .execute();
    await db.schema.createIndex('likes_user_created_idx').on('likes').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('likes_song_id_idx').on('likes').column('song_id').execute();

    await db.schema
      .createTable('plays')
      .addColumn('id', 'integer', primaryId)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('played_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plays_user_played_idx').on('plays').columns(['user_id', 'played_at']).execute();
    await db.schema.createIndex('plays_song_id_idx').on('plays').column('song_id').execute();

    await db.schema
      .createTable('orders')
      .addColumn('id', 'integer', primaryId)
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('amount_cents', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_ref', 'text')
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`status in ('pending', 'paid', 'failed')`),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('paid_at', 'text')
      .execute();
    await db.schema.createIndex('orders_user_id_idx').on('orders').column('user_id').execute();
    await db.schema.createIndex('orders_provider_ref_unique').on('orders').column('provider_ref').unique().execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['orders', 'plays', 'likes', 'playlist_songs', 'playlists', 'songs', 'artists', 'sessions']) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropTable('users').execute();
  },
};
