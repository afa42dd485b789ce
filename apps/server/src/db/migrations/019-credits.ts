import type { Kysely, Migration } from 'kysely';

/*
 * Many artists per track, with roles, and MusicBrainz ids (read from the tags of library files and imports):
 * - `song_artists`: a song's credits beyond its main artist (`songs.artist_id`, which stays): the other artists of the
 *   track (role `artist`, position 1…), its album artists beyond the album's own (`albumartist`), and the contributors
 *   (composer, lyricist, arranger, conductor, performer with the instrument as sub-role, producer, remixer, mixer,
 *   engineer, djmixer). A song uploaded through the web form has none, so everything written before reads as it did.
 * - songs: the artist as the file displays it ("A feat. B"), the MusicBrainz recording and track ids, the original date.
 * - albums: the MusicBrainz release and release group ids, the release types, compilation, the original date.
 * - artists: the MusicBrainz artist id.
 */
export const creditsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('song_artists')
      .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
      .addColumn('artist_id', 'integer', (c) => c.notNull().references('artists.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      // '' when the role has none: part of the key.
      .addColumn('sub_role', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('song_artists_pkey', ['song_id', 'role', 'sub_role', 'artist_id'])
      .execute();
    await db.schema.createIndex('song_artists_artist_idx').on('song_artists').columns(['artist_id', 'role']).execute();
    for (const column of ['display_artist', 'mb_recording_id', 'mb_track_id', 'original_date']) {
      await db.schema.alterTable('songs').addColumn(column, 'text').execute();
    }
    for (const column of ['mb_release_id', 'mb_release_group_id', 'release_types', 'original_date']) {
      await db.schema.alterTable('albums').addColumn(column, 'text').execute();
    }
    await db.schema
      .alterTable('albums')
      .addColumn('is_compilation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('artists').addColumn('mb_artist_id', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('artists').dropColumn('mb_artist_id').execute();
    for (const column of ['is_compilation', 'original_date', 'release_types', 'mb_release_group_id', 'mb_release_id']) {
      await db.schema.alterTable('albums').dropColumn(column).execute();
    }
    for (const column of ['original_date', 'mb_track_id', 'mb_recording_id', 'display_artist']) {
      await db.schema.alterTable('songs').dropColumn(column).execute();
    }
    await db.schema.dropTable('song_artists').execute();
  },
};
