import { ServerMessages, User } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { picture, type FormValue } from '../../../test/media.js';
import { blobCounts } from '../../../test/stored.js';
import { ImageMessages } from '../../media/media.formats.js';
import { PHOTO_REQUIRED_MESSAGE } from './users-photo.routes.js';

describeEachDialect('profile photo API (%s)', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  const upload = (target: TestUser, who: TestUser | undefined, image?: FormValue) =>
    t.as(who).form('PUT', `/api/users/${target.id}/update-photo`, image === undefined ? {} : { image });
  const remove = (target: TestUser, who?: TestUser) => t.as(who).delete(`/api/users/${target.id}/remove-photo`);
  const jpeg = async (seed: number): Promise<FormValue> => ({
    data: await picture(seed, 'jpeg', 400),
    filename: 'me.jpg',
    type: 'image/jpeg',
  });

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
  });

  it('lets a user set their own photo; the User answer links a public image', async () => {
    const response = await upload(alice, alice, await jpeg(1));
    expect(response.statusCode, response.body).toBe(200);
    const user = User.parse(response.json());
    expect(user.id).toBe(alice.id);
    expect(user.image).toMatch(/^\/media\/images\/[0-9a-f]{64}\.jpg/);
    const image = await t.as(null).get(user.image ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('replacing the photo removes the old one', async () => {
    const first = User.parse((await upload(alice, alice, await jpeg(2))).json()).image ?? '';
    const images = (await blobCounts(t.dataDir)).image;
    const second = User.parse((await upload(alice, alice, await jpeg(3))).json()).image ?? '';
    expect(second).not.toBe(first);
    expect((await t.as(null).get(first)).statusCode).toBe(404);
    expect((await blobCounts(t.dataDir)).image).toBe(images);
  });

  it('lets an admin change anyone’s photo; another user gets 404 as for an unknown user, anonymous 401', async () => {
    expect((await upload(bob, admin, await jpeg(4))).statusCode).toBe(200);
    const blobs = await blobCounts(t.dataDir);
    const forbidden = await upload(bob, alice, await jpeg(5));
    expect(forbidden.statusCode).toBe(404);
    expect(errorOf(forbidden.body).message).toBe(ServerMessages.notFound);
    expect((await upload(bob, undefined, await jpeg(6))).statusCode).toBe(401);
    const ghost = { ...bob, id: 999999 };
    expect((await upload(ghost, admin, await jpeg(7))).statusCode).toBe(404);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
  });

  it('refuses a missing image (400) and a non-image (415), leaving nothing behind', async () => {
    const blobs = await blobCounts(t.dataDir);
    const missing = await upload(alice, alice);
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing.body)).toMatchObject({ field: 'image', message: PHOTO_REQUIRED_MESSAGE });
    const text = await upload(alice, alice, { data: Buffer.from('GIF89a-but-not-really'), filename: 'a.gif' });
    expect(text.statusCode).toBe(415);
    expect(errorOf(text.body).message).toBe(ImageMessages.wrongType);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
  });

  it('DELETE remove-photo: self or admin; the image is gone afterwards', async () => {
    const image = User.parse((await upload(alice, alice, await jpeg(8))).json()).image ?? '';
    expect((await remove(alice)).statusCode).toBe(401);
    expect((await remove(alice, bob)).statusCode).toBe(404);
    const response = await remove(alice, alice);
    expect(response.statusCode).toBe(200);
    expect(User.parse(response.json()).image).toBeNull();
    expect((await t.as(null).get(image)).statusCode).toBe(404);
    expect((await remove(bob, admin)).statusCode).toBe(200);
    expect((await remove(alice, alice)).statusCode).toBe(200);
  });
});
