import type { Kysely, Migration } from 'kysely';

/*
 * What the import knows of a song beyond its tags (issue 12):
 * - its loudness, from the file's ReplayGain tags (gain in dB, peak as a fraction of full scale; null when untagged);
 * - `import_sources`: which file of an imported folder each song came from, with the size, modification time and
 *   hash it had. A re-run skips a file whose size and time are unchanged without reading it, and `--watch` knows
 *   which song a changed or removed file is. A song uploaded through the web has no row. Deleting the song deletes
 *   its row (cascade); a file is one song at most (the path is the key).
 *
 * Everything new is null or empty, so a database made by the version before moves forward with its rows as they were.
 */

const SONG_COLUMNS = [
  'replay_gain_track_db',
  'replay_gain_track_peak',
  'replay_gain_album_db',
  'replay_gain_album_peak',
] as const;

export const importSourcesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const name of SONG_COLUMNS) await db.schema.alterTable('songs').addColumn(name, 'real').execute();
    await db.schema
      .createTable('import_sources')
      .addColumn('path', 'text', (c) => c.primaryKey())
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('modified_ms', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('import_sources_song_id_idx').on('import_sources').column('song_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('import_sources').execute();
    for (const name of [...SONG_COLUMNS].reverse()) await db.schema.alterTable('songs').dropColumn(name).execute();
  },
};
