import { Song, THUMBNAIL_WIDTHS, UNKNOWN_ALBUM } from '@tonearm/contract';
import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser } from '../../test/factories.js';
import { blobCounts, testBlobStore } from '../../test/stored.js';
import { appliedMigrations, migrateDown, migrations } from '../db/migrations/index.js';
import type { DB } from '../db/schema.js';
import { seedAndMigrate, seedSyntheticLibrary, SYNTHETIC_WORDS } from './synthetic-library.js';

const SONGS = 400;

/** How many songs there are, how many are on an album, and how many on an album of their own artist. */
async function placements(db: Kysely<DB>) {
  const rows = await db
    .selectFrom('songs')
    .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
    .leftJoin('albums', 'albums.id', 'album_tracks.album_id')
    .select(['songs.artist_id', 'album_tracks.album_id', 'albums.artist_id as album_artist'])
    .execute();
  return {
    songs: rows.length,
    placed: rows.filter((row) => row.album_id !== null).length,
    onOwnArtist: rows.filter((row) => row.album_id !== null && row.album_artist === row.artist_id).length,
  };
}

async function artistsWithSongs(db: Kysely<DB>): Promise<number> {
  return (await db.selectFrom('songs').select('artist_id').distinct().execute()).length;
}

describeEachDialect('a synthetic library (%s)', (t) => {
  it('writes songs, artists, playlists and likes with shared real media, in the search index', async () => {
    const listener = await makeUser(t);
    const summary = await seedSyntheticLibrary(t.db, {
      songs: SONGS,
      playlists: { owners: [listener.id], count: 3, size: 10 },
      likes: { userId: listener.id, count: 5 },
      media: { store: testBlobStore(t.dataDir), distinct: 3 },
    });
    expect(summary).toMatchObject({ songs: SONGS, artists: SONGS / 20, playlists: 3, likes: 5 });

    const songs = await t.db.selectFrom('songs').select(['id', 'name', 'audio_key', 'audio_sha256']).execute();
    expect(songs).toHaveLength(SONGS);
    expect(new Set(songs.map((s) => s.audio_sha256)).size).toBe(SONGS);
    expect(new Set(songs.map((s) => s.audio_key)).size).toBe(3);
    const words = new Set<string>(SYNTHETIC_WORDS);
    expect(songs.every((s) => s.name.split(' ').every((word) => words.has(word.toLowerCase())))).toBe(true);
    // Three audio files, three covers with their thumbnails; nothing left staged.
    expect(await blobCounts(t.dataDir)).toEqual({ audio: 3, image: 3 * (1 + THUMBNAIL_WIDTHS.length), tmp: 0 });

    const page = await t.as(listener).json('/api/songs?limit=5', z.array(Song));
    expect(page).toHaveLength(5);
    const audio = await t.as(listener).get(page[0]?.link ?? '');
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect((await t.as(null).get(page[0]?.imgLink ?? '')).statusCode).toBe(200);
    const liked = await t.as(listener).json('/api/songs/liked', z.array(Song));
    expect(liked).toHaveLength(5);

    const first = songs.find((s) => s.id === 1);
    const hits = await t.as(listener).json(`/api/songs?q=${encodeURIComponent(first?.name ?? '')}`, z.array(Song));
    expect(hits.map((s) => s.id)).toContain(1);
    const indexed = async (table: string) =>
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.db)).rows[0]?.n;
    expect(Number(await indexed('search_songs'))).toBe(SONGS);
    expect(Number(await indexed('search_artists'))).toBe(SONGS / 20);
    // Every song on an album (issue 25): here its artist's placeholder, one per artist that has songs.
    expect(await placements(t.db)).toEqual({ songs: SONGS, placed: SONGS, onOwnArtist: SONGS });
    const placeholders = await t.db.selectFrom('albums').select(['name', 'is_placeholder']).execute();
    expect(placeholders.every((album) => album.name === UNKNOWN_ALBUM && album.is_placeholder === 1)).toBe(true);
    expect(placeholders.length).toBe(await artistsWithSongs(t.db));
  });

  it('makes the same library every time', async () => {
    const names = async (db: typeof t.db) =>
      (await db.selectFrom('songs').select('name').orderBy('id').execute()).map((row) => row.name);
    const seeded = await t.withApp({}, async (other) => {
      await seedSyntheticLibrary(other.db, { songs: 50 });
      return names(other.db);
    });
    const again = await t.withApp({}, async (other) => {
      await seedSyntheticLibrary(other.db, { songs: 50 });
      return names(other.db);
    });
    expect(seeded).toHaveLength(50);
    expect(again).toEqual(seeded);
  });
});

describeEachDialect('a synthetic library on a fresh database (%s)', { uses: 'database' }, (t) => {
  it('is seeded before the search index and migrated: the index holds every row', async () => {
    while ((await migrateDown(t.db)).length > 0);
    expect(await appliedMigrations(t.db)).toEqual([]);

    const summary = await seedAndMigrate(t.database, { songs: 300 });
    expect(summary).toMatchObject({ songs: 300, artists: 15 });
    expect(await appliedMigrations(t.db)).toEqual(Object.keys(migrations));
    const counted = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.db)).rows[0]?.n);
    expect(await counted('search_songs')).toBe(300);
    expect(await counted('search_artists')).toBe(15);
    // And the triggers are there for whatever is written next.
    await t.db.insertInto('artists').values({ name: 'Written Later' }).execute();
    expect(await counted('search_artists')).toBe(16);
    // Migration 018 put every song on its artist's placeholder album.
    expect(await placements(t.db)).toEqual({ songs: 300, placed: 300, onOwnArtist: 300 });
  });

  it("makes albums of each artist's songs when asked, after the album tables exist", async () => {
    while ((await migrateDown(t.db)).length > 0);
    const summary = await seedAndMigrate(t.database, { songs: 300, albums: { size: 4 } });
    const albums = await t.db.selectFrom('albums').select(['id', 'artist_id', 'year']).execute();
    expect(summary.albums).toBe(albums.length);
    const tracks = await t.db
      .selectFrom('album_tracks')
      .innerJoin('songs', 'songs.id', 'album_tracks.song_id')
      .innerJoin('albums', 'albums.id', 'album_tracks.album_id')
      .select([
        'album_tracks.album_id',
        'album_tracks.track_number',
        'songs.artist_id',
        'albums.artist_id as album_artist',
      ])
      .execute();
    // Every song is on one album of its own artist, at most four an album, numbered from 1; ids from 1, and no
    // placeholder left.
    expect(tracks).toHaveLength(300);
    expect(albums.map((album) => album.id).sort((a, b) => a - b)).toEqual(albums.map((_, index) => index + 1));
    expect(await t.db.selectFrom('albums').select('id').where('is_placeholder', '=', 1).execute()).toEqual([]);
    expect(tracks.every((track) => track.artist_id === track.album_artist)).toBe(true);
    expect(Math.max(...tracks.map((track) => track.track_number ?? 0))).toBe(4);
    expect(albums.length).toBeGreaterThanOrEqual(300 / 4);
    expect(albums.every((album) => album.year !== null && album.year >= 1960)).toBe(true);
  });
});
