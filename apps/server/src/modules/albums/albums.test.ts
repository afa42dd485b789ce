import {
  Album,
  AlbumMessages,
  AlbumPage,
  AlbumSummary,
  ServerMessages,
  Song,
  UNKNOWN_ALBUM,
  UNKNOWN_ARTIST,
} from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import {
  insertManySongs,
  insertSongs,
  makeAdmin,
  makeUser,
  placeOnAlbum,
  type TestUser,
} from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';

describeEachDialect('albums API (%s)', (t) => {
  let user: TestUser;
  let admin: TestUser;
  let artistId: number;
  let blue: number;
  let kind: number;
  /** The quartet's placeholder album, where its fifth song (on no album of its own) is. */
  let loose: number;
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
    for (const [songId, disc, track] of placement) await placeOnAlbum(t, songId, blue, disc, track);
    loose = (await t.as(user).json(`/api/songs/${songs[4]?.id ?? 0}`, Song)).albumId ?? 0;
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
    expect(first.total).toBe(4);
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
      placeholder: false,
    });
    expect(first.items[1]).toMatchObject({ artistId, artistName: 'Miles Quartet', year: 1959, songCount: 4 });
    expect(first.items[1]?.durationMs).toBe(4000);
    const next = await t.as(user).get(`/api/albums?limit=2&cursor=${first.nextCursor ?? ''}`);
    // The quartet's fifth song is on no album of its own: on its placeholder, listed by name like any album.
    expect(AlbumPage.parse(next.json())).toMatchObject({
      items: [
        { id: loose, name: UNKNOWN_ALBUM, artistId, placeholder: true, songCount: 1, imgLink: '' },
        { name: 'Zebra Songs', placeholder: false },
      ],
      nextCursor: null,
    });
  });

  it('leaves the placeholder albums out of the newest first and of searches by name', async () => {
    const recent = AlbumPage.parse((await t.as(user).get('/api/albums?sort=recent')).json());
    expect(recent.total).toBe(3);
    expect(recent.items.map((album) => album.id)).not.toContain(loose);
    const search = AlbumPage.parse((await t.as(user).get('/api/albums?q=unknown')).json());
    expect(search).toEqual({ items: [], nextCursor: null, total: 0 });
    const byArtist = AlbumPage.parse((await t.as(user).get(`/api/albums?artistId=${artistId}&sort=recent`)).json());
    expect(byArtist.items.map((album) => album.name)).toEqual(['Zebra Songs', 'Kind of Blue Skies']);
  });

  it('narrows to one album artist and to names holding every word; a cursor belongs to its filter', async () => {
    const byArtist = AlbumPage.parse((await t.as(user).get(`/api/albums?artistId=${artistId}&limit=1`)).json());
    expect(byArtist).toMatchObject({ total: 3, items: [{ name: 'Kind of Blue Skies' }] });
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

  it('keeps the songs when an album goes, on their artist’s placeholder, and the album when its artist goes', async () => {
    const [song, other] = await insertSongs(t, 2, 'Lone Artist');
    const songId = song?.id ?? 0;
    const lone = (await t.as(user).json(`/api/songs/${songId}`, Song)).artistId ?? 0;
    const doomed = await insertAlbum('Short Lived', lone, null);
    await placeOnAlbum(t, songId, doomed, 1, 1);
    await placeOnAlbum(t, other?.id ?? 0, doomed, 1, 2);
    // Both songs left the placeholder insertSongs put them on: it went.
    expect(AlbumPage.parse((await t.as(user).get(`/api/albums?artistId=${lone}`)).json()).items).toMatchObject([
      { id: doomed, songCount: 2 },
    ]);
    expect((await t.as(admin).delete(`/api/albums/${doomed}`)).statusCode).toBe(204);
    const after = await t.as(user).json(`/api/songs/${songId}`, Song);
    expect(after).toMatchObject({ albumName: UNKNOWN_ALBUM, trackNumber: null, discNumber: null });
    const [placeholder] = AlbumPage.parse((await t.as(user).get(`/api/albums?artistId=${lone}`)).json()).items;
    expect(placeholder).toMatchObject({ id: after.albumId, name: UNKNOWN_ALBUM, placeholder: true, songCount: 2 });

    // The artist goes: its songs keep playing as "Unknown artist", its albums stay under it, and its placeholder
    // joins the one "Unknown artist" already has.
    const [orphan] = await insertManySongs(t, 1);
    const unknownPlaceholder = (await t.as(user).json(`/api/songs/${orphan ?? 0}`, Song)).albumId;
    const kept = await insertAlbum('Kept Record', lone, 2000);
    expect((await t.as(admin).delete(`/artists/${lone}`)).statusCode).toBe(204);
    const gone = await t.as(user).json(`/api/songs/${songId}`, Song);
    expect(gone).toMatchObject({ artistId: null, artistName: UNKNOWN_ARTIST, albumId: unknownPlaceholder });
    expect(await t.as(user).json(`/api/albums/${unknownPlaceholder ?? 0}`, Album)).toMatchObject({
      artistId: null,
      placeholder: true,
    });
    expect((await t.as(user).get(`/api/albums/${placeholder?.id ?? 0}`)).statusCode).toBe(404);
    expect(await t.as(user).json(`/api/albums/${kept}`, Album)).toMatchObject({ name: 'Kept Record', artistId: null });
  });

  it('keeps the placeholder’s name for it, makes a renamed placeholder an album, and keeps one holding songs', async () => {
    const reserved = await t.as(admin).post('/api/albums', { name: UNKNOWN_ALBUM, artistId });
    expect(reserved.statusCode).toBe(400);
    expect(errorOf(reserved.body)).toMatchObject({ message: AlbumMessages.nameReserved, field: 'name' });
    const renamed = await t.as(admin).put(`/api/albums/${kind}`, { name: UNKNOWN_ALBUM });
    expect(renamed.statusCode).toBe(400);
    expect(errorOf(renamed.body)).toMatchObject({ message: AlbumMessages.nameReserved, field: 'name' });

    const [song] = await insertSongs(t, 1, 'Named At Last');
    const songId = song?.id ?? 0;
    const { albumId } = await t.as(user).json(`/api/songs/${songId}`, Song);
    const held = await t.as(admin).delete(`/api/albums/${albumId ?? 0}`);
    expect(held.statusCode).toBe(409);
    expect(errorOf(held.body)).toMatchObject({ message: AlbumMessages.placeholderHoldsSongs });
    // Its own name again is no change; another makes it an album of its own, with its songs.
    expect((await t.as(admin).put(`/api/albums/${albumId ?? 0}`, { name: UNKNOWN_ALBUM })).statusCode).toBe(200);
    const named = await t.as(admin).put(`/api/albums/${albumId ?? 0}`, { name: 'Found Tapes', year: 1977 });
    expect(named.statusCode, named.body).toBe(200);
    expect(AlbumSummary.parse(named.json())).toMatchObject({ name: 'Found Tapes', placeholder: false, songCount: 1 });
    expect(await t.as(user).json(`/api/songs/${songId}`, Song)).toMatchObject({ albumId, albumName: 'Found Tapes' });
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

  it('moves a song between albums, and off any onto its artist’s placeholder, with its disc and track', async () => {
    const [song] = await insertSongs(t, 1, 'Wanderer');
    const songId = song?.id ?? 0;
    const start = await t.as(user).json(`/api/songs/${songId}`, Song);
    expect(start).toMatchObject({ albumName: UNKNOWN_ALBUM, trackNumber: null });
    const other = AlbumSummary.parse((await t.as(admin).post('/api/albums', { name: 'Second Home' })).json());
    const put = (body: Record<string, unknown>, who = admin) => t.as(who).put(`/api/songs/${songId}/album`, body);

    const first = await put({ albumId: blue, discNumber: 3, trackNumber: 7 });
    expect(first.statusCode, first.body).toBe(200);
    expect(Song.parse(first.json())).toMatchObject({ id: songId, albumId: blue, discNumber: 3, trackNumber: 7 });
    const moved = Song.parse((await put({ albumId: other.id, trackNumber: 1 })).json());
    expect(moved).toMatchObject({ albumId: other.id, albumName: 'Second Home', discNumber: null, trackNumber: 1 });
    const onBlue = Album.parse((await t.as(user).get(`/api/albums/${blue}`)).json());
    expect(onBlue.songs.map((s) => s.id)).not.toContain(songId);
    // The placeholder it was on went when it left; taken off its album, the song is on a new one.
    expect((await t.as(user).get(`/api/albums/${start.albumId ?? 0}`)).statusCode).toBe(404);
    const off = Song.parse((await put({ albumId: null })).json());
    expect(off).toMatchObject({ albumName: UNKNOWN_ALBUM, discNumber: null, trackNumber: null });
    expect(await t.as(user).json(`/api/albums/${off.albumId ?? 0}`, Album)).toMatchObject({
      artistId: start.artistId,
      placeholder: true,
      songs: [{ id: songId }],
    });

    expect((await put({ albumId: blue }, user)).statusCode).toBe(403);
    const missingAlbum = await put({ albumId: 999_999 });
    expect(missingAlbum.statusCode).toBe(400);
    expect(errorOf(missingAlbum.body)).toMatchObject({ message: ServerMessages.albumNotFound, field: 'albumId' });
    expect((await t.as(admin).put('/api/songs/999999/album', { albumId: blue })).statusCode).toBe(404);
    expect((await put({ albumId: blue, trackNumber: 0 })).statusCode).toBe(400);
    expect((await put({})).statusCode).toBe(400);
  });
});
