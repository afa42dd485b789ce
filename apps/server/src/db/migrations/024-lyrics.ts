import { sql, type Kysely, type Migration } from 'kysely';

/*
 * Issue 27: a song's lyrics, one row a song (`song_lyrics`), deleted with the song.
 * - `source`: `embedded` (the audio file's tags), `sidecar` (the `.lrc`/`.txt` file beside it in a library folder) or
 *   `uploaded` (an administrator's, PUT /api/songs/:id/lyrics). A scan or an import replaces the first two with what
 *   the file now says, and never touches an uploaded row.
 * - `lang`: ISO 639 code, null when unknown; `synced`: 0/1; `offset_ms`: LRC's `[offset:]`, the line times kept as
 *   written beside it.
 * - `lines`: JSON text, `[{ startMs?, text, words?: [{ startMs, text }] }]`. Lines are always read and written whole
 *   (one song's lyrics, at most LYRICS_MAX_BYTES of text) and never searched or joined line by line, so one row holds
 *   them: one read per song, a replace in one statement, and the same text column on SQLite and PostgreSQL.
 * - `library_files.lyrics_file`: the sidecar the file's lyrics were last read with (`name:size:mtime`), null when
 *   there was none; a rescan that finds another one (new, changed, gone) reads the file again. `!` asks for that too
 *   (lyrics removed by an administrator: the file's own come back at the next scan). The files already scanned get
 *   `!`: the first scan after this migration reads each of them once more, for the lyrics in their tags.
 */
export const lyricsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('song_lyrics')
      .addColumn('song_id', 'integer', (c) => c.primaryKey().references('songs.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('lang', 'text')
      .addColumn('synced', 'integer', (c) => c.notNull())
      .addColumn('offset_ms', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lines', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('library_files').addColumn('lyrics_file', 'text').execute();
    await sql`update library_files set lyrics_file = '!'`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('library_files').dropColumn('lyrics_file').execute();
    await db.schema.dropTable('song_lyrics').execute();
  },
};
