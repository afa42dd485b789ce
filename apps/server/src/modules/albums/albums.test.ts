import { Album, AlbumPage, AlbumSummary, ServerMessages, Song, UNKNOWN_ARTIST } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';

describeEachDialect('albums API (%s)', (t) => {
  let user: TestUser;
  let admin: TestUser;
  let artistId: number;
  let blue: number;
  let kind: number;
  const tracks: number[] = [];

  /** An album row, straight into the database (imports and admin edits come with later work of issue 12). */
  const insertAlbum = async (name: string, artist: number | null, year: number | null) =>
    (
      await t.db
        .insertInto('albums')
        .values({ name, artist_id: artist, year, image_key: null, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    user = await makeUser(t);
    admin = await makeAdmin(t);
    const songs = await insertSongs(t, 5, 'Miles Quartet');
    const row = await t.db
      .selectFrom('songs')
      .select('artist_id')
      .where('id', '=', songs[0]?.id ?? 0)
      .executeTakeFirstOrThrow();
    artistId = row.artist_id ?? 0;
    blue = await insertAlbum('Kind of Blue Skies', artistId, 1959);
    kind = await insertAlbum('A Kind Gesture', null, null);
    await insertAlbum('Zebra Songs', artistId, 2001);
    // Disc 2 track 1, disc 1 track 2, disc 1 track 1, and one with no numbers: it comes last.
    const placement: [number, number | null, number | null][] = [
      [songs[0]?.id ?? 0, 2, 1],
      [songs[1]?.id ?? 0, 1, 2],
      [songs[2]?.id ?? 0, 1, 1],
      [songs[3]?.id ?? 0, null, null],
    ];
    for (const [songId, disc, track] of placement) {
      await t.db
        .insertInto('album_tracks')
        .values({ song_id: songId, album_id: blue, disc_number: disc, track_number: track })
        .execute();
    }
    await t.db
      .updateTable('songs')
      .set({ year: 1959 })
      .where('id', '=', songs[2]?.id ?? 0)
      .execute();
    tracks.push(songs[2]?.id ?? 0, songs[1]?.id ?? 0, songs[0]?.id ?? 0, songs[3]?.id ?? 0);
  });

  it('needs a session', async () => {
    expect((await t.as(null).get('/api/albums')).statusCode).toBe(401);
    expect((await t.as(null).get(`/api/albums/${blue}`)).statusCode).toBe(401);
  });

  it('pages albums by name with a cursor, with their artist, year, song count and length', async () => {
    const first = AlbumPage.parse((await t.as(user).get('/api/albums?limit=2')).json());
    expect(first.total).toBe(3);
    expect(first.items.map((album) => album.name)).toEqual(['A Kind Gesture', 'Kind of Blue Skies']);
    expect(first.items[0]).toEqual({
      id: kind,
      name: 'A Kind Gesture',
      artistId: null,
      artistName: UNKNOWN_ARTIST,
      year: null,
      imgLink: '',
      songCount: 0,
      durationMs: 0,
    });
    expect(first.items[1]).toMatchObject({ artistId, artistName: 'Miles Quartet', year: 1959, songCount: 4 });
    expect(first.items[1]?.durationMs).toBe(4000);
    const next = await t.as(user).get(`/api/albums?limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(AlbumPage.parse(next.json())).toMatchObject({ items: [{ name: 'Zebra Songs' }], nextCursor: null });
  });

  it('narrows to one album artist and to names holding every word; a cursor belongs to its filter', async () => {
    const byArtist = AlbumPage.parse((await t.as(user).get(`/api/albums?artistId=${artistId}&limit=1`)).json());
    expect(byArtist).toMatchObject({ total: 2, items: [{ name: 'Kind of Blue Skies' }] });
    const words = AlbumPage.parse((await t.as(user).get('/api/albums?q=kind%20BLUE')).json());
    expect(words.items.map((album) => album.id)).toEqual([blue]);
    const none = AlbumPage.parse((await t.as(user).get('/api/albums?q=100%25')).json());
    expect(none).toEqual({ items: [], nextCursor: null, total: 0 });
    const foreign = await t.as(user).get(`/api/albums?cursor=${byArtist.nextCursor ?? ''}`);
    expect(foreign.statusCode).toBe(400);
  });

  it('matches words anywhere in a name, short or with LIKE wildcards, after renames and deletes', async () => {
    const names = async (q: string) => {
      const response = await t.as(user).get(`/api/albums?q=${encodeURIComponent(q)}&limit=50`);
      return AlbumPage.parse(response.json()).items.map((album) => album.name);
    };
    const odd = await insertAlbum('Take_5 at 100% Abcd', null, null);
    const split = await insertAlbum('abc bcd', null, null);
    try {
      expect(await names('IND of')).toEqual(['Kind of Blue Skies']);
      expect(await names('ind')).toEqual(['A Kind Gesture', 'Kind of Blue Skies']);
      expect(await names('abcd')).toEqual(['Take_5 at 100% Abcd']);
      expect(await names('e_5 0%')).toEqual(['Take_5 at 100% Abcd']);
      expect(await names('e%5')).toEqual([]);
      expect(await names('ke_')).toEqual(['Take_5 at 100% Abcd']);
      await t.db.updateTable('albums').set({ name: 'Renamed Gesture' }).where('id', '=', kind).execute();
      expect(await names('kind')).toEqual(['Kind of Blue Skies']);
      expect(await names('named gest')).toEqual(['Renamed Gesture']);
      await t.db.deleteFrom('albums').where('id', 'in', [odd, split]).execute();
      expect(await names('abc')).toEqual([]);
    } finally {
      await t.db.updateTable('albums').set({ name: 'A Kind Gesture' }).where('id', '=', kind).execute();
      await t.db.deleteFrom('albums').where('id', 'in', [odd, split]).execute();
    }
  });

  it('answers an album with its songs in disc and track order, each Song with its album fields', async () => {
    const album = Album.parse((await t.as(user).get(`/api/albums/${blue}`)).json());
    expect(album).toMatchObject({ id: blue, name: 'Kind of Blue Skies', artistName: 'Miles Quartet', year: 1959 });
    expect(album.durationMs).toBe(4000);
    expect(album.songs.map((song) => song.id)).toEqual(tracks);
    expect(album.songs[0]).toMatchObject({
      albumId: blue,
      albumName: 'Kind of Blue Skies',
      discNumber: 1,
      trackNumber: 1,
      year: 1959,
    });
    expect(album.songs[3]).toMatchObject({ albumId: blue, discNumber: null, trackNumber: null, year: null });
    const loose = Song.parse((await t.as(user).get(`/api/songs/${tracks[0] ?? 0}`)).json());
    expect(loose.albumName).toBe('Kind of Blue Skies');
    expect((await t.as(user).get('/api/albums/999999')).statusCode).toBe(404);
    expect((await t.as(user).get('/api/albums/abc')).statusCode).toBe(400);
  });

  it('keeps the songs when an album goes, and the album when its artist goes', async () => {
    const doomed = await insertAlbum('Short Lived', null, null);
    const [song] = await insertSongs(t, 1, 'Lone Artist');
    await t.db
      .insertInto('album_tracks')
      .values({ song_id: song?.id ?? 0, album_id: doomed, disc_number: 1, track_number: 1 })
      .execute();
    await t.db.deleteFrom('albums').where('id', '=', doomed).execute();
    const after = Song.parse((await t.as(user).get(`/api/songs/${song?.id ?? 0}`)).json());
    expect(after).toMatchObject({ albumId: null, albumName: null, trackNumber: null });
  });

  it('lets admins create, edit and delete albums, and refuses listeners, duplicates and unknown artists', async () => {
    const body = { name: 'Live at the Harbour', artistId, year: 1999 };
    expect((await t.as(user).post('/api/albums', body)).statusCode).toBe(403);
    const created = await t.as(admin).post('/api/albums', body);
    expect(created.statusCode, created.body).toBe(201);
    const album = AlbumSummary.parse(created.json());
    expect(album).toMatchObject({ name: 'Live at the Harbour', artistId, year: 1999, songCount: 0, durationMs: 0 });

    const twice = await t.as(admin).post('/api/albums', { ...body, year: 2000 });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice.body)).toMatchObject({ message: ServerMessages.albumExists, field: 'name' });
    // The same name under another artist (here: none) is another album.
    expect((await t.as(admin).post('/api/albums', { name: body.name })).statusCode).toBe(201);
    const ghost = await t.as(admin).post('/api/albums', { name: 'Ghost', artistId: 999_999 });
    expect(ghost.statusCode).toBe(400);
    expect(errorOf(ghost.body)).toMatchObject({ message: ServerMessages.artistNotFound, field: 'artistId' });
    expect((await t.as(admin).post('/api/albums', { name: '  ' })).statusCode).toBe(400);
    expect((await t.as(admin).post('/api/albums', { name: 'Old', year: 99 })).statusCode).toBe(400);

    const edited = await t.as(admin).put(`/api/albums/${album.id}`, { year: null, name: 'Live at the Lighthouse' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(AlbumSummary.parse(edited.json())).toMatchObject({ name: 'Live at the Lighthouse', artistId, year: null });
    expect((await t.as(admin).put(`/api/albums/${album.id}`, { artistId: null })).json()).toMatchObject({
      artistId: null,
      artistName: UNKNOWN_ARTIST,
    });
    expect((await t.as(admin).put('/api/albums/999999', { name: 'Nowhere' })).statusCode).toBe(404);
    expect((await t.as(user).put(`/api/albums/${album.id}`, { name: 'Mine' })).statusCode).toBe(403);

    expect((await t.as(user).delete(`/api/albums/${album.id}`)).statusCode).toBe(403);
    expect((await t.as(admin).delete(`/api/albums/${album.id}`)).statusCode).toBe(204);
    expect((await t.as(admin).delete(`/api/albums/${album.id}`)).statusCode).toBe(404);
    expect((await t.as(user).get(`/api/albums/${album.id}`)).statusCode).toBe(404);
  });

  it('moves a song between albums, and off any, with its disc and track', async () => {
    const [song] = await insertSongs(t, 1, 'Wanderer');
    const songId = song?.id ?? 0;
    const other = AlbumSummary.parse((await t.as(admin).post('/api/albums', { name: 'Second Home' })).json());
    const put = (body: Record<string, unknown>, who = admin) => t.as(who).put(`/api/songs/${songId}/album`, body);

    const first = await put({ albumId: blue, discNumber: 3, trackNumber: 7 });
    expect(first.statusCode, first.body).toBe(200);
    expect(Song.parse(first.json())).toMatchObject({ id: songId, albumId: blue, discNumber: 3, trackNumber: 7 });
    const moved = Song.parse((await put({ albumId: other.id, trackNumber: 1 })).json());
    expect(moved).toMatchObject({ albumId: other.id, albumName: 'Second Home', discNumber: null, trackNumber: 1 });
    const onBlue = Album.parse((await t.as(user).get(`/api/albums/${blue}`)).json());
    expect(onBlue.songs.map((s) => s.id)).not.toContain(songId);
    expect(Song.parse((await put({ albumId: null })).json())).toMatchObject({ albumId: null, trackNumber: null });

    expect((await put({ albumId: blue }, user)).statusCode).toBe(403);
    const missingAlbum = await put({ albumId: 999_999 });
    expect(missingAlbum.statusCode).toBe(400);
    expect(errorOf(missingAlbum.body)).toMatchObject({ message: ServerMessages.albumNotFound, field: 'albumId' });
    expect((await t.as(admin).put('/api/songs/999999/album', { albumId: blue })).statusCode).toBe(404);
    expect((await put({ albumId: blue, trackNumber: 0 })).statusCode).toBe(400);
    expect((await put({})).statusCode).toBe(400);
  });
});
