import { AlbumMessages, AlbumSummary, ServerMessages } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { picture, type FormValue } from '../../../test/media.js';
import { blobCounts } from '../../../test/stored.js';

describeEachDialect('album covers (%s)', (t) => {
  let admin: TestUser;
  let user: TestUser;
  let albumId: number;

  const png = async (seed: number): Promise<Record<string, FormValue>> => ({
    image: { data: await picture(seed), filename: 'cover.png', type: 'image/png' },
  });
  const upload = (fields: Record<string, FormValue>, who = admin, id = albumId) =>
    t.as(who).form('PUT', `/api/albums/${id}/cover`, fields);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    user = await makeUser(t);
    const created = await t.as(admin).post('/api/albums', { name: 'Covered' });
    albumId = AlbumSummary.parse(created.json()).id;
  });

  it('sets and replaces the cover, served as thumbnails; the replaced one goes', async () => {
    const before = await blobCounts(t.dataDir);
    const first = await upload(await png(11));
    expect(first.statusCode, first.body).toBe(200);
    const album = AlbumSummary.parse(first.json());
    expect(album.imgLink).toMatch(/^\/media\/images\/.+\?w=300$/);
    const thumbnail = await t.as(user).get(album.imgLink);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const withCover = await blobCounts(t.dataDir);
    expect(withCover.image).toBeGreaterThan(before.image);

    const second = AlbumSummary.parse((await upload(await png(12))).json());
    expect(second.imgLink).not.toBe(album.imgLink);
    expect((await t.as(user).get(`/api/albums/${albumId}`)).json()).toMatchObject({
      imgLink: second.imgLink.replace('w=300', 'w=640'),
    });
    // The first cover's blobs went with it: as many image files as with one cover.
    expect(await blobCounts(t.dataDir)).toEqual(withCover);
  });

  it('refuses listeners, missing albums, a missing image and what is not an image, leaving nothing behind', async () => {
    const before = await blobCounts(t.dataDir);
    expect((await upload(await png(13), user)).statusCode).toBe(403);
    const missing = await upload(await png(14), admin, 999_999);
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing.body).message).toBe(ServerMessages.albumNotFound);
    const empty = await upload({});
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty.body)).toMatchObject({ message: AlbumMessages.coverRequired, field: 'image' });
    const text = await upload({ image: { data: Buffer.from('not a picture'), filename: 'x.png', type: 'image/png' } });
    expect(text.statusCode).toBe(415);
    expect(await blobCounts(t.dataDir)).toEqual(before);
  });
});
