import { Artist, ServerMessages, Song, UNKNOWN_ARTIST } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { picture, type FormValue } from '../../../test/media.js';
import { artistCount, blobCounts } from '../../../test/stored.js';
import { ImageMessages } from '../../media/media.formats.js';

describeEachDialect('artists API (%s)', (t) => {
  let admin: TestUser;
  let user: TestUser;

  const send = (method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue>, who?: TestUser) =>
    t.as(who).form(method, url, fields);
  const png = async (seed: number): Promise<FormValue> => ({
    data: await picture(seed),
    filename: 'a.png',
    type: 'image/png',
  });
  const getArtist = (id: number) => t.as(user).json(`/artists/${id}`, Artist);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    user = await makeUser(t);
  });

  it('GET /artists and /artists/{id} need a session; a listener may read', async () => {
    expect((await t.as(null).get('/artists')).statusCode).toBe(401);
    expect((await t.as(null).get('/artists/1')).statusCode).toBe(401);
    const list = await t.as(user).get('/artists');
    expect(list.statusCode).toBe(200);
    expect(z.array(Artist).parse(list.json())).toEqual([]);
    const missing = await t.as(user).get('/artists/999999');
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing.body).message).toBe(ServerMessages.artistNotFound);
  });

  it('POST /artists: admin creates with name and image → 201 Artist with a thumbnail URL and no songs', async () => {
    const response = await send('POST', '/artists', { name: 'Nova Choir', image: await png(1) }, admin);
    expect(response.statusCode, response.body).toBe(201);
    const artist = Artist.parse(response.json());
    expect(artist).toMatchObject({ name: 'Nova Choir', songs: [] });
    expect(artist.image).toMatch(/^\/media\/images\/[0-9a-f]{64}\.png\?w=300$/);
    const image = await t.as(null).get(artist.image ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    // The one artist's answer adds the caller's stars (issue 28): none yet.
    expect(await getArtist(artist.id)).toEqual({ ...artist, rating: null });
  });

  it('POST /artists: the image is optional', async () => {
    const response = await send('POST', '/artists', { name: 'Faceless' }, admin);
    expect(response.statusCode).toBe(201);
    expect(Artist.parse(response.json()).image).toBeNull();
  });

  it('POST /artists refuses: anonymous 401, user 403, no name 400, taken name 409 (any case), bad image 415', async () => {
    const rows = await artistCount(t.db);
    const blobs = await blobCounts(t.dataDir);
    expect((await send('POST', '/artists', { name: 'Anon', image: await png(2) })).statusCode).toBe(401);
    expect((await send('POST', '/artists', { name: 'Listener', image: await png(3) }, user)).statusCode).toBe(403);
    const noName = await send('POST', '/artists', { image: await png(4) }, admin);
    expect(noName.statusCode).toBe(400);
    expect(errorOf(noName.body)).toMatchObject({ field: 'name', message: 'Name is required' });
    const blank = await send('POST', '/artists', { name: '   ' }, admin);
    expect(blank.statusCode).toBe(400);
    const taken = await send('POST', '/artists', { name: 'NOVA choir', image: await png(5) }, admin);
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken.body)).toMatchObject({ field: 'name', message: ServerMessages.artistExists });
    const text: FormValue = { data: Buffer.from('hello'), filename: 'a.png', type: 'image/png' };
    const badImage = await send('POST', '/artists', { name: 'Bad Image', image: text }, admin);
    expect(badImage.statusCode).toBe(415);
    expect(errorOf(badImage.body)).toMatchObject({ field: 'image', message: ImageMessages.wrongType });
    expect(await artistCount(t.db)).toBe(rows);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
  });

  it('PUT /artists/{id}: renames, replaces the image and removes the old one', async () => {
    const id = await makeArtist(t, admin, 'Old Name', await picture(10));
    const old = await getArtist(id);
    const images = (await blobCounts(t.dataDir)).image;
    const response = await send('PUT', `/artists/${id}`, { name: 'New Name', image: await png(11) }, admin);
    expect(response.statusCode, response.body).toBe(200);
    const updated = Artist.parse(response.json());
    expect(updated.name).toBe('New Name');
    expect(updated.image).not.toBe(old.image);
    expect((await t.as(null).get(old.image ?? '')).statusCode).toBe(404);
    expect((await blobCounts(t.dataDir)).image).toBe(images);

    const renameOnly = await send('PUT', `/artists/${id}`, { name: 'Newer Name' }, admin);
    expect(Artist.parse(renameOnly.json())).toMatchObject({ name: 'Newer Name', image: updated.image });
  });

  it('PUT /artists/{id} refuses: anonymous 401, user 403, unknown 404, a taken name 409', async () => {
    const id = await makeArtist(t, admin, 'Stay Put');
    expect((await send('PUT', `/artists/${id}`, { name: 'X' })).statusCode).toBe(401);
    expect((await send('PUT', `/artists/${id}`, { name: 'X' }, user)).statusCode).toBe(403);
    expect((await send('PUT', '/artists/999999', { name: 'X' }, admin)).statusCode).toBe(404);
    const taken = await send('PUT', `/artists/${id}`, { name: 'nova CHOIR' }, admin);
    expect(taken.statusCode).toBe(409);
    expect((await getArtist(id)).name).toBe('Stay Put');
    expect((await send('PUT', `/artists/${id}`, { name: 'stay put' }, admin)).statusCode).toBe(200);
  });

  it('lists artists by name with the ids of their songs', async () => {
    const id = await makeArtist(t, admin, 'Aardvark Sound');
    const first = await makeSong(t, admin, { artistId: id });
    const second = await makeSong(t, admin, { artistId: id });
    const list = await t.as(user).json('/artists', z.array(Artist));
    expect(list[0]?.name).toBe('Aardvark Sound');
    expect(list[0]?.songs).toEqual([first, second]);
    expect(list.map((a) => a.name)).toEqual([...list.map((a) => a.name)].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('GET /artists?limit=N answers the first N of the same list; a bad limit is a 400', async () => {
    await makeArtist(t, admin, 'Aaa First Of All');
    await makeArtist(t, admin, 'Aab Second');
    const whole = await t.as(user).json('/artists', z.array(Artist));
    expect(whole.length).toBeGreaterThan(2);
    expect(await t.as(user).json('/artists?limit=2', z.array(Artist))).toEqual(whole.slice(0, 2));
    expect(await t.as(user).json(`/artists?limit=${whole.length + 5}`, z.array(Artist))).toEqual(whole);
    for (const limit of ['0', '-1', 'x', '501', '1.5']) {
      expect((await t.as(user).get(`/artists?limit=${limit}`)).statusCode).toBe(400);
    }
  });

  it('DELETE /artists/{id}: admin only; songs stay playable as "Unknown artist"; the image goes', async () => {
    const id = await makeArtist(t, admin, 'Farewell Tour', await picture(20));
    const songId = await makeSong(t, admin, { artistId: id });
    const image = (await getArtist(id)).image ?? '';
    const del = (who?: TestUser) => t.as(who).delete(`/artists/${id}`);
    expect((await del()).statusCode).toBe(401);
    expect((await del(user)).statusCode).toBe(403);
    expect((await del(admin)).statusCode).toBe(204);
    expect((await del(admin)).statusCode).toBe(404);
    expect((await t.as(user).get(`/artists/${id}`)).statusCode).toBe(404);
    expect((await t.as(null).get(image)).statusCode).toBe(404);

    const song = await t.as(user).json(`/api/songs/${songId}`, Song);
    expect(song).toMatchObject({ artistId: null, artistName: UNKNOWN_ARTIST });
    const audio = await t.as(user).get(song.link);
    expect(audio.statusCode).toBe(200);
  });
});
