import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Albums (issue 12). An album is a name under an album artist (null: "Unknown artist"), with a year and a cover; its
 * song count and length are read from its songs, never stored, so they cannot drift. `album_tracks` puts a song on
 * one album at a disc and track number (a table of its own rather than columns of songs: SQLite can drop neither a
 * foreign-key column nor an indexed one, and this migration must revert cleanly). Songs gain what their tags say of
 * them: the year, the bitrate, the sample rate, the container format and the genre tag's own text (the catalogue genre
 * stays one of SPEC §5's list).
 *
 * Everything new is empty or null ("unknown"), so a database made by an earlier version moves forward with its rows as
 * they were: no song is on an album until an import or an administrator puts it on one.
 */

const SONG_COLUMNS = [
  ['year', 'integer'],
  ['bitrate_kbps', 'integer'],
  ['sample_rate_hz', 'integer'],
  ['format', 'text'],
  ['genre_tag', 'text'],
] as const;

export const albumsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const primaryId = (c: ColumnDefinitionBuilder) =>
      dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
    await db.schema
      .createTable('albums')
      .addColumn('id', 'integer', primaryId)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('artist_id', 'integer', (c) => c.references('artists.id').onDelete('set null'))
      .addColumn('year', 'integer')
      .addColumn('image_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One album of a name per album artist (the import finds it again by these); unknown artists share the 0.
    await sql`create unique index albums_artist_name_idx on albums (coalesce(artist_id, 0), name)`.execute(db);
    await db.schema.createIndex('albums_name_id_idx').on('albums').columns(['name', 'id']).execute();
    await db.schema.createIndex('albums_artist_id_idx').on('albums').column('artist_id').execute();
    await db.schema.createIndex('albums_image_key_idx').on('albums').column('image_key').execute();

    await db.schema
      .createTable('album_tracks')
      .addColumn('song_id', 'integer', (c) => c.primaryKey().references('songs.id').onDelete('cascade'))
      .addColumn('album_id', 'integer', (c) => c.notNull().references('albums.id').onDelete('cascade'))
      .addColumn('disc_number', 'integer')
      .addColumn('track_number', 'integer')
      .execute();
    // An album's tracks in disc and track order (unknown numbers last, then by song).
    await db.schema
      .createIndex('album_tracks_order_idx')
      .on('album_tracks')
      .columns(['album_id', 'disc_number', 'track_number', 'song_id'])
      .execute();

    for (const [name, type] of SONG_COLUMNS) await db.schema.alterTable('songs').addColumn(name, type).execute();
  },

  async down(db: Kysely<unknown>) {
    for (const [name] of [...SONG_COLUMNS].reverse()) await db.schema.alterTable('songs').dropColumn(name).execute();
    await db.schema.dropTable('album_tracks').execute();
    await db.schema.dropTable('albums').execute();
  },
};
