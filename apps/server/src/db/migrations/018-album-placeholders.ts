import { sql, type Kysely, type Migration } from 'kysely';

/*
 * Every song is on an album (issue 25). A song without an album tag is on its artist's placeholder album, "Unknown
 * album" (the contract's UNKNOWN_ALBUM; null artist: "Unknown artist"'s), marked by `albums.is_placeholder` (0 or 1)
 * so that lists where it would be noise (random, newest, played, search) can leave it out and it never borrows a
 * track's cover. The albums' unique index on (coalesce(artist_id, 0), name) keeps one per album artist.
 *
 * Up: the column; the albums already named "Unknown album" become their artist's placeholder (an import of files
 * tagged so made them, and they are what the name now means); every song on no album goes on its artist's placeholder,
 * made where missing. Down puts those songs back on no album and drops the placeholders with the column. The SQL is
 * this migration's own (a migration never changes once shipped): db/album-placeholders.ts writes the same rule for the
 * running server.
 */
const NAME = 'Unknown album';

export const albumPlaceholdersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('albums')
      .addColumn('is_placeholder', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update albums set is_placeholder = 1 where name = ${NAME}`.execute(db);
    const createdAt = new Date().toISOString();
    await sql`insert into albums (name, artist_id, year, image_key, created_at, is_placeholder)
      select ${NAME}, loose.artist_id, null, null, ${createdAt}, 1
      from (select distinct songs.artist_id from songs
            where not exists (select 1 from album_tracks where album_tracks.song_id = songs.id)) as loose
      where not exists (select 1 from albums
                        where coalesce(albums.artist_id, 0) = coalesce(loose.artist_id, 0) and albums.name = ${NAME})`.execute(
      db,
    );
    await sql`insert into album_tracks (song_id, album_id, disc_number, track_number)
      select songs.id, albums.id, null, null
      from songs join albums on coalesce(albums.artist_id, 0) = coalesce(songs.artist_id, 0) and albums.name = ${NAME}
      where not exists (select 1 from album_tracks where album_tracks.song_id = songs.id)`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await sql`delete from album_tracks
      where album_id in (select id from albums where is_placeholder = 1)`.execute(db);
    await sql`delete from albums where is_placeholder = 1`.execute(db);
    await db.schema.alterTable('albums').dropColumn('is_placeholder').execute();
  },
};
