import { Album, AlbumPage, SongAlbumMessages, Song, UNKNOWN_ALBUM } from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { picture, toneWav, type FormValue } from '../../../test/media.js';
import { blobCounts, songCount } from '../../../test/stored.js';

/** Issue 12: the song form's optional Album, Track, Disc and Year fields, on create and edit. */
describeEachDialect('song form album fields (%s)', (t) => {
  let admin: TestUser;
  let artistId: number;
  let otherArtistId: number;
  let frequency = 700;

  const files = async (): Promise<Record<string, FormValue>> => ({
    songFile: { data: toneWav((frequency += 13)), filename: 'song.wav', type: 'audio/wav' },
    imageFile: { data: await picture(frequency), filename: 'cover.png', type: 'image/png' },
  });
  const post = async (fields: Record<string, string>) =>
    t.as(admin).form('POST', '/api/songs', { genre: 'Pop', artistId: String(artistId), ...fields, ...(await files()) });
  const put = (id: number, fields: Record<string, string>) =>
    t.as(admin).form('PUT', `/api/songs/${id}`, { genre: 'Pop', ...fields });
  const songNamed = async (name: string) => {
    const row = await t.db.selectFrom('songs').select('id').where('name', '=', name).executeTakeFirstOrThrow();
    return t.as(admin).json(`/api/songs/${row.id}`, Song);
  };
  const albumsNamed = async (name: string) =>
    AlbumPage.parse((await t.as(admin).get(`/api/albums?q=${encodeURIComponent(name)}`)).json()).items;

  const expectRefused = (response: LightMyRequestResponse, message: string, field: string) => {
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body)).toMatchObject({ message, field });
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    artistId = await makeArtist(t, admin, 'Form Artist');
    otherArtistId = await makeArtist(t, admin, 'Other Form Artist');
  });

  /** The artist's albums as GET /api/albums lists them by name. */
  const albumsOf = async (artist: number) =>
    AlbumPage.parse((await t.as(admin).get(`/api/albums?artistId=${artist}`)).json()).items;

  it('keeps the SPEC form working without them: the song goes on its artist’s placeholder album', async () => {
    const response = await post({ name: 'Plain Upload' });
    expect(response.statusCode, response.body).toBe(201);
    const plain = await songNamed('Plain Upload');
    expect(plain).toMatchObject({ albumName: UNKNOWN_ALBUM, trackNumber: null, discNumber: null, year: null });
    const blank = await post({ name: 'Blank Fields', album: '', trackNumber: '', discNumber: '', year: '' });
    expect(blank.statusCode, blank.body).toBe(201);
    expect(await songNamed('Blank Fields')).toMatchObject({ albumId: plain.albumId, year: null });
    // One placeholder for the artist, listed under it, with no cover of its own (never a track's).
    expect(await albumsOf(artistId)).toEqual([
      {
        id: plain.albumId,
        name: UNKNOWN_ALBUM,
        artistId,
        artistName: 'Form Artist',
        year: null,
        imgLink: '',
        songCount: 2,
        durationMs: expect.any(Number) as number,
        placeholder: true,
      },
    ]);
    const album = await t.as(admin).json(`/api/albums/${plain.albumId ?? 0}`, Album);
    expect(album.songs.map((song) => song.name).sort()).toEqual(['Blank Fields', 'Plain Upload']);
    // The placeholder's name in the form is no album of its own either.
    const named = await post({ name: 'Named Unknown', album: UNKNOWN_ALBUM, year: '1990' });
    expect(named.statusCode, named.body).toBe(201);
    expect(await songNamed('Named Unknown')).toMatchObject({ albumId: plain.albumId, year: 1990 });
    expect((await albumsOf(artistId)).map((a) => [a.name, a.year, a.songCount])).toEqual([[UNKNOWN_ALBUM, null, 3]]);
  });

  it('creates the album under the song’s artist once, and finds it again for the next track', async () => {
    const first = await post({
      name: 'Opening',
      album: 'Tidal Hours',
      trackNumber: '2',
      discNumber: '1',
      year: '2019',
    });
    expect(first.statusCode, first.body).toBe(201);
    const second = await post({ name: 'Closing', album: ' Tidal Hours ', trackNumber: '1', year: '2019' });
    expect(second.statusCode, second.body).toBe(201);
    const [album] = await albumsNamed('Tidal Hours');
    expect(await albumsNamed('Tidal Hours')).toHaveLength(1);
    expect(album).toMatchObject({ artistId, artistName: 'Form Artist', year: 2019, songCount: 2 });
    const full = t.as(admin).json(`/api/albums/${album?.id ?? 0}`, Album);
    expect((await full).songs.map((song) => [song.name, song.discNumber, song.trackNumber])).toEqual([
      ['Opening', 1, 2],
      ['Closing', null, 1],
    ]);
    expect(await songNamed('Opening')).toMatchObject({ albumName: 'Tidal Hours', year: 2019 });
    // The same name under another artist is another album.
    const elsewhere = await post({ name: 'Elsewhere', album: 'Tidal Hours', artistId: String(otherArtistId) });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect((await albumsNamed('Tidal Hours')).map((a) => a.artistId).sort()).toEqual([artistId, otherArtistId].sort());
  });

  it('refuses bad values by field with clear messages, leaving no row, album or blob behind', async () => {
    const before = { rows: await songCount(t.db), blobs: await blobCounts(t.dataDir) };
    const albumsBefore = await t.db.selectFrom('albums').select('id').execute();
    const cases: [Record<string, string>, string, string][] = [
      [{ year: '999' }, SongAlbumMessages.year, 'year'],
      [{ year: '10000' }, SongAlbumMessages.year, 'year'],
      [{ year: 'soon' }, SongAlbumMessages.year, 'year'],
      [{ album: 'A', trackNumber: '0' }, SongAlbumMessages.trackNumber, 'trackNumber'],
      [{ album: 'A', trackNumber: '1000' }, SongAlbumMessages.trackNumber, 'trackNumber'],
      [{ album: 'A', trackNumber: '2.5' }, SongAlbumMessages.trackNumber, 'trackNumber'],
      [{ album: 'A', discNumber: 'x' }, SongAlbumMessages.discNumber, 'discNumber'],
      [{ album: 'x'.repeat(500) }, SongAlbumMessages.album, 'album'],
      [{ trackNumber: '3' }, SongAlbumMessages.albumForTrack, 'trackNumber'],
      [{ album: '', discNumber: '2' }, SongAlbumMessages.albumForTrack, 'discNumber'],
    ];
    for (const [fields, message, field] of cases) {
      expectRefused(await post({ name: 'Refused Album Fields', ...fields }), message, field);
    }
    expect({ rows: await songCount(t.db), blobs: await blobCounts(t.dataDir) }).toEqual(before);
    expect(await t.db.selectFrom('albums').select('id').execute()).toEqual(albumsBefore);
  });

  it('edits: absent fields keep the album, new ones move the song, empty ones clear it', async () => {
    expect((await post({ name: 'Wanderer', album: 'First Home', trackNumber: '4', year: '2001' })).statusCode).toBe(
      201,
    );
    const { id } = await songNamed('Wanderer');

    // The SPEC form (name, genre, files): the album, track and year stay.
    expect((await put(id, { name: 'Wanderer' })).statusCode).toBe(200);
    expect(await songNamed('Wanderer')).toMatchObject({ albumName: 'First Home', trackNumber: 4, year: 2001 });

    expect((await put(id, { name: 'Wanderer', trackNumber: '5' })).statusCode).toBe(200);
    expect(await songNamed('Wanderer')).toMatchObject({ albumName: 'First Home', trackNumber: 5 });

    const moved = await put(id, { name: 'Wanderer', album: 'Second Home', discNumber: '2', year: '2003' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await songNamed('Wanderer')).toMatchObject({
      albumName: 'Second Home',
      discNumber: 2,
      trackNumber: 5,
      year: 2003,
    });
    expect((await albumsNamed('Second Home'))[0]).toMatchObject({ artistId, year: 2003, songCount: 1 });

    expectRefused(await put(id, { name: 'Wanderer', year: '12' }), SongAlbumMessages.year, 'year');
    expect(await songNamed('Wanderer')).toMatchObject({ albumName: 'Second Home', year: 2003 });

    const cleared = await put(id, { name: 'Wanderer', album: '', trackNumber: '', discNumber: '', year: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const placeholder = (await albumsOf(artistId)).find((album) => album.placeholder);
    expect(await songNamed('Wanderer')).toMatchObject({
      albumId: placeholder?.id,
      albumName: UNKNOWN_ALBUM,
      trackNumber: null,
      discNumber: null,
      year: null,
    });
    // A placeholder has no track numbers: they need an album of the song's own.
    expectRefused(
      await put(id, { name: 'Wanderer', trackNumber: '1' }),
      SongAlbumMessages.albumForTrack,
      'trackNumber',
    );
  });

  it('moves a song on a placeholder to its new artist’s placeholder, and the emptied one goes', async () => {
    const before = await makeArtist(t, admin, 'Placeholder Before');
    const after = await makeArtist(t, admin, 'Placeholder After');
    const created = await post({ name: 'Drifter', artistId: String(before) });
    expect(created.statusCode, created.body).toBe(201);
    const drifter = await songNamed('Drifter');
    expect((await albumsOf(before)).map((a) => [a.id, a.placeholder])).toEqual([[drifter.albumId, true]]);

    const moved = await put(drifter.id, { name: 'Drifter', artistId: String(after) });
    expect(moved.statusCode, moved.body).toBe(200);
    const onAfter = await albumsOf(after);
    expect(onAfter.map((a) => [a.name, a.placeholder, a.songCount])).toEqual([[UNKNOWN_ALBUM, true, 1]]);
    expect(await songNamed('Drifter')).toMatchObject({ artistId: after, albumId: onAfter[0]?.id });
    expect(await albumsOf(before)).toEqual([]);
    expect((await t.as(admin).get(`/api/albums/${drifter.albumId ?? 0}`)).statusCode).toBe(404);

    // A song on an album of its own stays there when its artist changes (a compilation's track).
    const kept = await post({ name: 'Settler', artistId: String(after), album: 'Homestead', trackNumber: '1' });
    expect(kept.statusCode, kept.body).toBe(201);
    const settler = await songNamed('Settler');
    expect((await put(settler.id, { name: 'Settler', artistId: String(before) })).statusCode).toBe(200);
    expect(await songNamed('Settler')).toMatchObject({ artistId: before, albumId: settler.albumId, trackNumber: 1 });
  });

  it('deletes the placeholder with its last song, and only then', async () => {
    const loner = await makeArtist(t, admin, 'Placeholder Loner');
    for (const name of ['Last One', 'Last Two']) {
      expect((await post({ name, artistId: String(loner) })).statusCode).toBe(201);
    }
    const [first, second] = [await songNamed('Last One'), await songNamed('Last Two')];
    expect((await t.as(admin).delete(`/api/songs/${first.id}`)).statusCode).toBe(200);
    expect((await albumsOf(loner)).map((a) => [a.id, a.songCount])).toEqual([[second.albumId, 1]]);
    expect((await t.as(admin).delete(`/api/songs/${second.id}`)).statusCode).toBe(200);
    expect(await albumsOf(loner)).toEqual([]);
    expect(
      await t.db
        .selectFrom('albums')
        .select('id')
        .where('id', '=', second.albumId ?? 0)
        .execute(),
    ).toEqual([]);
  });
});
