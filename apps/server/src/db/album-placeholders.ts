import { UNKNOWN_ALBUM } from '@tonearm/contract';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.js';
import type { DB } from './schema.js';

/*
 * Every song is on exactly one album (issue 25). A song without an album of its own is on its artist's placeholder
 * album: named UNKNOWN_ALBUM, `is_placeholder = 1`, one per album artist (null: "Unknown artist"'s), made when first
 * needed and deleted once no song is left on it. The albums' unique index on (coalesce(artist_id, 0), name) is what
 * keeps it one, so a placeholder is found by its artist and that reserved name. The songs, albums and import writes go
 * through these (they sit below the modules because those modules may not import one another both ways); migration 018
 * wrote the same rule in SQL of its own for the songs that were on no album before it.
 *
 * Concurrent writers: each of these runs in the transaction that writes the songs' places, after a write to songs,
 * albums or album_tracks, and migration 016's triggers make every such write update the one catalogue_rows_version row.
 * On PostgreSQL that row's lock therefore puts such transactions one after the other: a placeholder found is not
 * deleted before the song put on it is committed, and a deletion that comes second sees that song (each statement of a
 * read-committed transaction reads what was committed before it). SQLite runs one write transaction at a time.
 */

/** The stored name of every placeholder album: reserved, no other album may take it. */
export const PLACEHOLDER_NAME = UNKNOWN_ALBUM;

/** Whether an album of this name is (or would be) its artist's placeholder. */
export function isPlaceholderName(name: string): boolean {
  return name === PLACEHOLDER_NAME;
}

/** How many song ids one statement names at most. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

/**
 * Takes the catalogue_rows_version row's lock (PostgreSQL) for a transaction whose first step only reads what it is
 * about to change (an album's tracks before the album goes): the catalogue writes of other transactions then wait for it
 * (see above). SQLite runs one write transaction at a time.
 */
export async function queueCatalogueWrite(db: Kysely<DB>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.selectFrom('catalogue_rows_version').select('version').where('id', '=', 1).forUpdate().execute();
}

/** Makes the placeholder albums of these album artists that do not exist yet (null: "Unknown artist"'s). */
export async function ensurePlaceholders(db: Kysely<DB>, artistIds: readonly (number | null)[]): Promise<void> {
  const distinct = [...new Set(artistIds)];
  if (distinct.length === 0) return;
  const createdAt = new Date().toISOString();
  await db
    .insertInto('albums')
    .values(
      distinct.map((artistId) => ({
        name: PLACEHOLDER_NAME,
        artist_id: artistId,
        year: null,
        image_key: null,
        created_at: createdAt,
        is_placeholder: 1,
      })),
    )
    // Another writer may make the same one meanwhile: its row is the one (the unique index keeps one).
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/** The id of the artist's placeholder album (null: "Unknown artist"'s), made when it has none. */
export async function placeholderAlbumId(db: Kysely<DB>, artistId: number | null): Promise<number> {
  const find = () =>
    db
      .selectFrom('albums')
      .select('id')
      .where(sql<number>`coalesce(artist_id, 0)`, '=', artistId ?? 0)
      .where('name', '=', PLACEHOLDER_NAME)
      .executeTakeFirst();
  const found = await find();
  if (found !== undefined) return found.id;
  await ensurePlaceholders(db, [artistId]);
  const made = await find();
  if (made === undefined) throw new Error(`The placeholder album of artist ${artistId ?? 'none'} was not made`);
  return made.id;
}

/**
 * Puts each of the songs on its own artist's placeholder album (made where missing), with no disc or track number,
 * replacing whatever place it had. Songs that do not exist are skipped.
 */
export async function moveToPlaceholders(db: Kysely<DB>, songIds: readonly number[]): Promise<void> {
  for (const chunk of chunks([...new Set(songIds)])) {
    const artists = await db.selectFrom('songs').select('artist_id').distinct().where('id', 'in', chunk).execute();
    await ensurePlaceholders(
      db,
      artists.map((row) => row.artist_id),
    );
    await db.deleteFrom('album_tracks').where('song_id', 'in', chunk).execute();
    await db
      .insertInto('album_tracks')
      .columns(['song_id', 'album_id', 'disc_number', 'track_number'])
      .expression(
        db
          .selectFrom('songs')
          .innerJoin('albums', (join) =>
            join
              .on(sql<number>`coalesce(albums.artist_id, 0)`, '=', sql<number>`coalesce(songs.artist_id, 0)`)
              .on('albums.name', '=', PLACEHOLDER_NAME),
          )
          .select([
            'songs.id',
            'albums.id as album_id',
            sql<null>`null`.as('disc_number'),
            sql<null>`null`.as('track_number'),
          ])
          .where('songs.id', 'in', chunk),
      )
      .execute();
  }
}

/**
 * Puts every song that is on no album on its artist's placeholder: set-based, for writers that insert songs straight
 * into the tables (the synthetic library). Answers how many songs it placed.
 */
export async function placeSongsWithoutAlbum(db: Kysely<DB>): Promise<number> {
  const createdAt = new Date().toISOString();
  await sql`insert into albums (name, artist_id, year, image_key, created_at, is_placeholder)
    select ${PLACEHOLDER_NAME}, loose.artist_id, null, null, ${createdAt}, 1
    from (select distinct songs.artist_id from songs
          where not exists (select 1 from album_tracks where album_tracks.song_id = songs.id)) as loose
    where not exists (select 1 from albums
                      where coalesce(albums.artist_id, 0) = coalesce(loose.artist_id, 0)
                        and albums.name = ${PLACEHOLDER_NAME})`.execute(db);
  const placed = await sql`insert into album_tracks (song_id, album_id, disc_number, track_number)
    select songs.id, albums.id, null, null
    from songs join albums on coalesce(albums.artist_id, 0) = coalesce(songs.artist_id, 0)
                          and albums.name = ${PLACEHOLDER_NAME}
    where not exists (select 1 from album_tracks where album_tracks.song_id = songs.id)`.execute(db);
  return Number(placed.numAffectedRows ?? 0n);
}

/** Deletes those of the albums that are placeholders with no song left on them; answers their cover keys. */
export async function deleteEmptyPlaceholders(db: Kysely<DB>, albumIds: readonly number[]): Promise<(string | null)[]> {
  if (albumIds.length === 0) return [];
  const deleted = await db
    .deleteFrom('albums')
    .where('id', 'in', [...new Set(albumIds)])
    .where('is_placeholder', '=', 1)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('album_tracks').select('song_id').whereRef('album_tracks.album_id', '=', 'albums.id')),
      ),
    )
    .returning('image_key')
    .execute();
  return deleted.map((row) => row.image_key);
}
