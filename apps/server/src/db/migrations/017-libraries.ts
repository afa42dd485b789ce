import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Libraries: music folders on the server read in place (nothing copied).
 * - `libraries`: a name and an absolute folder path, each unique.
 * - `library_files`: the file a library song is, by its path relative to the library, with the size and modification
 *   time it had when read (a re-scan skips a file whose two are unchanged) and a fingerprint of its bytes (a file found
 *   under a new path with the fingerprint of a vanished one is that song moved). Deleting the song deletes its row.
 * - `library_images`: where the original of a cover read from a library is (a picture embedded in a file, or an image
 *   file beside it): only its thumbnails are made, on demand, into the blob store.
 * - `library_scans`: each scan's counts and report, and the heartbeat of the instance running it.
 * - songs gain `library_id` (null: a stored upload or import) and `missing_since` (its file is gone: it leaves lists
 *   and search, and comes back with everything when the file does).
 */

function identity(db: Kysely<unknown>) {
  return (c: ColumnDefinitionBuilder) =>
    dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export const librariesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('libraries')
      .addColumn('id', 'integer', identity(db))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`create unique index libraries_name_idx on libraries (lower(name))`.execute(db);

    await db.schema.alterTable('songs').addColumn('library_id', 'integer').execute();
    await db.schema.alterTable('songs').addColumn('missing_since', 'text').execute();
    await db.schema.createIndex('songs_library_id_idx').on('songs').column('library_id').execute();

    await db.schema
      .createTable('library_files')
      .addColumn('song_id', 'integer', (c) => c.primaryKey().references('songs.id').onDelete('cascade'))
      .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('modified_ms', 'bigint', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addUniqueConstraint('library_files_path_key', ['library_id', 'path'])
      .execute();

    await db.schema
      .createTable('library_images')
      .addColumn('image_key', 'text', (c) => c.primaryKey())
      .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('embedded', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('library_scans')
      .addColumn('id', 'integer', identity(db))
      .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('heartbeat_at', 'text', (c) => c.notNull())
      .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('added', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('moved', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('missing', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('errors', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('problems', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .createIndex('library_scans_library_idx')
      .on('library_scans')
      .columns(['library_id', 'id'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('library_scans').execute();
    await db.schema.dropTable('library_images').execute();
    await db.schema.dropTable('library_files').execute();
    // Songs of libraries have no file any more once the tables are gone.
    await sql`delete from songs where library_id is not null`.execute(db);
    await db.schema.dropIndex('songs_library_id_idx').execute();
    await db.schema.alterTable('songs').dropColumn('missing_since').execute();
    await db.schema.alterTable('songs').dropColumn('library_id').execute();
    await db.schema.dropTable('libraries').execute();
  },
};
