import { randomBytes } from 'node:crypto';
import { ErrorCodes, LimitMessages, User, type CheckoutResponse } from '@tonearm/contract';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, type AppSuiteOptions } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf, login, type TestApp } from '../../../test/harness.js';
import { claimedPng, picture, type FormValue } from '../../../test/media.js';
import { blobCounts } from '../../../test/stored.js';
import { imagesBusy, WorkGate } from '../../media/image-work.js';

/*
 * Every per-user limit through the API (issue 9): the refusal, its status, code and message, that nothing is left half
 * written (no row, no blob, no allowance used), and that another user is unaffected.
 */

let seed = 0;
/** A distinct small PNG each call (images are content-addressed: the same bytes twice would share blobs). */
async function png(): Promise<FormValue> {
  seed += 1;
  return { data: await picture(seed, 'png', 48 + (seed % 40)), filename: 'p.png', type: 'image/png' };
}

/** About `bytes` of incompressible PNG. */
async function noisePng(bytes: number): Promise<FormValue> {
  const width = 400;
  const height = Math.ceil(bytes / (width * 3));
  const data = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { data, filename: 'noise.png', type: 'image/png' };
}

const uploadPhoto = (t: TestApp, user: TestUser, image: FormValue) =>
  t.as(user).form('PUT', `/api/users/${user.id}/update-photo`, { image });

const createPlaylist = (t: TestApp, user: TestUser, fields: Record<string, FormValue>) =>
  t.as(user).form('POST', '/api/playlists', fields);

const jsonPlaylist = (t: TestApp, user: TestUser, name: string) => t.as(user).post('/api/playlists', { name });

const checkout = (t: TestApp, user: TestUser) => t.as(user).post('/api/payment/checkout', { plan: 'monthly' });

async function count(
  t: TestApp,
  table: 'image_uploads' | 'playlists' | 'orders' | 'sessions',
  column: 'user_id' | 'owner_id',
  userId: number,
): Promise<number> {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column, '=', userId)
    .executeTakeFirstOrThrow();
  return row.n;
}

const uploadsOf = (t: TestApp, user: TestUser) => count(t, 'image_uploads', 'user_id', user.id);
const playlistsOf = (t: TestApp, user: TestUser) => count(t, 'playlists', 'owner_id', user.id);

async function pendingOrdersOf(t: TestApp, user: TestUser): Promise<number> {
  const row = await t.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.id)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return row.n;
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

function expectRefusal(
  response: { statusCode: number; body: string },
  status: number,
  code: string,
  message: string,
): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(errorOf(response.body)).toMatchObject({ code, message });
}

const gate = new WorkGate(1, 0, imagesBusy);

const limited: AppSuiteOptions = {
  env: {
    IMAGE_UPLOADS_PER_DAY: '3',
    PLAYLISTS_PER_USER: '2',
    PENDING_ORDERS_PER_USER: '2',
    SESSIONS_PER_USER: '2',
    PAYMENT_PROVIDER: 'demo',
  },
  images: { maxPixels: 40_000_000, gate },
};

describeEachDialect('per-user limits (%s)', limited, (t) => {
  let admin: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin(t);
  });

  it('counts photos and playlist covers against a daily allowance: past it 429, nothing stored, others unaffected', async () => {
    const alice = await makeUser(t);
    const bob = await makeUser(t);
    expect((await uploadPhoto(t, alice, await png())).statusCode).toBe(200);
    expect((await createPlaylist(t, alice, { name: 'Covered', image: await png() })).statusCode).toBe(201);
    expect((await uploadPhoto(t, alice, await png())).statusCode).toBe(200);
    expect(await uploadsOf(t, alice)).toBe(3);

    const blobs = await blobCounts(t.dataDir);
    const message = LimitMessages.imageUploadsPerDay(3);
    expectRefusal(await uploadPhoto(t, alice, await png()), 429, ErrorCodes.quotaExceeded, message);
    expectRefusal(
      await createPlaylist(t, alice, { name: 'One too many', image: await png() }),
      429,
      ErrorCodes.quotaExceeded,
      message,
    );
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
    expect(await uploadsOf(t, alice)).toBe(3);
    expect(await playlistsOf(t, alice)).toBe(1);
    expect(message).toBe('You can upload at most 3 images in 24 hours. Please try again later.');

    // A playlist without a cover is no upload; another user has their own allowance.
    expect((await jsonPlaylist(t, alice, 'No cover')).statusCode).toBe(201);
    expect((await uploadPhoto(t, bob, await png())).statusCode).toBe(200);
  });

  it('does not count the catalogue: an admin whose own allowance is spent still adds artist pictures', async () => {
    const rows = [0, 1, 2].map(() => ({ user_id: admin.id, bytes: 100, created_at: hoursAgo(1) }));
    await t.db.insertInto('image_uploads').values(rows).execute();
    expectRefusal(
      await uploadPhoto(t, admin, await png()),
      429,
      ErrorCodes.quotaExceeded,
      LimitMessages.imageUploadsPerDay(3),
    );
    const artist = await t.as(admin).form('POST', '/artists', { name: `Band ${seed}`, image: await png() });
    expect(artist.statusCode, artist.body).toBe(201);
    expect(await uploadsOf(t, admin)).toBe(3);
  });

  it('forgets uploads older than 24 hours (the window rolls) and prunes them', async () => {
    const carol = await makeUser(t);
    const rows = [0, 1, 2].map(() => ({ user_id: carol.id, bytes: 100, created_at: hoursAgo(25) }));
    await t.db.insertInto('image_uploads').values(rows).execute();
    expect((await uploadPhoto(t, carol, await png())).statusCode).toBe(200);
    expect(await uploadsOf(t, carol)).toBe(1);
  });

  it('takes the charge back when the write it paid for is refused', async () => {
    const dave = await makeUser(t);
    const blobs = await blobCounts(t.dataDir);
    const response = await createPlaylist(t, dave, { name: 'Ghosts', songs: '[999999]', image: await png() });
    expect(response.statusCode, response.body).toBe(400);
    expect(await uploadsOf(t, dave)).toBe(0);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
  });

  it('caps playlists per user with 409 (also with a cover, leaving no blob), per user, until one is deleted', async () => {
    const erin = await makeUser(t);
    const frank = await makeUser(t);
    const first = (await jsonPlaylist(t, erin, 'One')).json<{ id: number }>();
    expect((await jsonPlaylist(t, erin, 'Two')).statusCode).toBe(201);

    const blobs = await blobCounts(t.dataDir);
    const message = LimitMessages.playlistsPerUser(2);
    expectRefusal(await jsonPlaylist(t, erin, 'Three'), 409, ErrorCodes.limitReached, message);
    expectRefusal(
      await createPlaylist(t, erin, { name: 'Three', image: await png() }),
      409,
      ErrorCodes.limitReached,
      message,
    );
    expect(await playlistsOf(t, erin)).toBe(2);
    expect(await uploadsOf(t, erin)).toBe(0);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
    expect(message).toBe('You can have at most 2 playlists. Delete one to create another.');
    // A smart playlist is a playlist: it counts, and past the cap it is refused the same way.
    const smart = {
      name: 'Smart',
      definition: {
        rules: { match: 'all', rules: [{ field: 'year', op: 'gte', value: 1900 }] },
        sort: { field: 'year', direction: 'asc' },
        limit: null,
      },
    };
    expectRefusal(await t.as(erin).post('/api/playlists/smart', smart), 409, ErrorCodes.limitReached, message);
    expect(await playlistsOf(t, erin)).toBe(2);

    expect((await jsonPlaylist(t, frank, 'Mine')).statusCode).toBe(201);
    const deleted = await t.as(erin).delete(`/api/playlists/${first.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await t.as(erin).post('/api/playlists/smart', smart)).statusCode).toBe(201);
    expectRefusal(await jsonPlaylist(t, erin, 'Three'), 409, ErrorCodes.limitReached, message);
  });

  it('caps unfinished checkouts per user with 409; paid and day-old ones no longer count', async () => {
    const gina = await makeUser(t);
    const hank = await makeUser(t);
    const order = (await checkout(t, gina)).json<CheckoutResponse>().order;
    expect((await checkout(t, gina)).statusCode).toBe(200);
    const message = LimitMessages.pendingOrdersPerUser(2);
    expectRefusal(await checkout(t, gina), 409, ErrorCodes.limitReached, message);
    expect(await pendingOrdersOf(t, gina)).toBe(2);
    expect(await count(t, 'orders', 'user_id', gina.id)).toBe(2);
    expect((await checkout(t, hank)).statusCode).toBe(200);

    const paid = await t
      .as(gina)
      .post(`/api/payment/demo/${order.id}/pay`, { cardNumber: '4242 4242 4242 4242', expiry: '12/99', cvc: '123' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await checkout(t, gina)).statusCode).toBe(200);
    expectRefusal(await checkout(t, gina), 409, ErrorCodes.limitReached, message);

    await t.db
      .updateTable('orders')
      .set({ created_at: hoursAgo(25) })
      .where('user_id', '=', gina.id)
      .where('status', '=', 'pending')
      .execute();
    expect((await checkout(t, gina)).statusCode).toBe(200);
  });

  it('keeps at most SESSIONS_PER_USER sessions: a new login ends the oldest, not another user’s', async () => {
    const ivan = await makeUser(t);
    const jane = await makeUser(t);
    const second = await login(t.app, ivan.username);
    const third = await login(t.app, ivan.username);
    const me = (cookie: string) => t.as({ cookie }).get('/api/auth/me');
    expect((await me(ivan.cookie)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
    expect((await me(third)).statusCode).toBe(200);
    expect(await count(t, 'sessions', 'user_id', ivan.id)).toBe(2);
    expect((await me(jane.cookie)).statusCode).toBe(200);
  });

  it('refuses an upload with 429 while image processing is full, storing and charging nothing', async () => {
    const kate = await makeUser(t);
    const blobs = await blobCounts(t.dataDir);
    const hold: { release?: () => void } = {};
    const busy = gate.run(
      () =>
        new Promise<void>((resolve) => {
          hold.release = resolve;
        }),
    );
    expectRefusal(await uploadPhoto(t, kate, await png()), 429, ErrorCodes.serverBusy, LimitMessages.imagesBusy);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
    expect(await uploadsOf(t, kate)).toBe(0);
    hold.release?.();
    await busy;
    expect((await uploadPhoto(t, kate, await png())).statusCode).toBe(200);
  });

  it('refuses an image of more than 40 megapixels with 413 naming the limit, from its header', async () => {
    const lena = await makeUser(t);
    const blobs = await blobCounts(t.dataDir);
    const bomb = { data: claimedPng(8000, 6000), filename: 'huge.png', type: 'image/png' };
    const response = await uploadPhoto(t, lena, bomb);
    expectRefusal(response, 413, ErrorCodes.payloadTooLarge, 'Images can be at most 40 megapixels');
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
    expect(await uploadsOf(t, lena)).toBe(0);
  });

  it('deletes a deleted user’s photo and playlist covers (with thumbnails) at once, keeping a shared one', async () => {
    const mia = await makeUser(t);
    const nick = await makeUser(t);
    const shared = await png();
    const photo = User.parse((await uploadPhoto(t, mia, await png())).json()).image ?? '';
    const own = (await createPlaylist(t, mia, { name: 'Own', image: await png() })).json<{ imgLink: string }>();
    expect((await createPlaylist(t, mia, { name: 'Shared', image: shared })).statusCode).toBe(201);
    const kept = (await createPlaylist(t, nick, { name: 'Shared too', image: shared })).json<{ imgLink: string }>();
    const before = await blobCounts(t.dataDir);

    const response = await t.as(admin).delete(`/api/users/${mia.id}`);
    expect(response.statusCode).toBe(204);
    // Photo and own cover: original + 3 thumbnails each; the shared cover stays for nick.
    expect((await blobCounts(t.dataDir)).image).toBe(before.image - 8);
    const status = async (url: string) => (await t.as(null).get(url)).statusCode;
    expect(await status(photo)).toBe(404);
    expect(await status(own.imgLink)).toBe(404);
    expect(await status(kept.imgLink)).toBe(200);
    expect(await count(t, 'image_uploads', 'user_id', mia.id)).toBe(0);
  });
});

const rateLimited: AppSuiteOptions = {
  env: { UPLOAD_RATE_LIMIT: '2', CHECKOUT_RATE_LIMIT: '1', IMAGE_UPLOAD_MB_PER_DAY: '1', PAYMENT_PROVIDER: 'demo' },
};

describeEachDialect('per-user rate limits and byte allowance (%s)', rateLimited, (t) => {
  it('rate-limits uploads per user and minute (429), not JSON edits, not another user', async () => {
    const oscar = await makeUser(t);
    const pam = await makeUser(t);
    expect((await uploadPhoto(t, oscar, await png())).statusCode).toBe(200);
    expect((await createPlaylist(t, oscar, { name: 'Covered', image: await png() })).statusCode).toBe(201);
    const blobs = await blobCounts(t.dataDir);
    const refused = await uploadPhoto(t, oscar, await png());
    expectRefusal(refused, 429, ErrorCodes.rateLimited, LimitMessages.tooManyUploads);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
    expect(await uploadsOf(t, oscar)).toBe(2);
    for (const name of ['a', 'b', 'c']) expect((await jsonPlaylist(t, oscar, name)).statusCode).toBe(201);
    expect((await uploadPhoto(t, pam, await png())).statusCode).toBe(200);
  });

  it('rate-limits checkouts per user and minute (429), not another user', async () => {
    const quinn = await makeUser(t);
    const rob = await makeUser(t);
    expect((await checkout(t, quinn)).statusCode).toBe(200);
    expectRefusal(await checkout(t, quinn), 429, ErrorCodes.rateLimited, LimitMessages.tooManyCheckouts);
    expect(await count(t, 'orders', 'user_id', quinn.id)).toBe(1);
    expect((await checkout(t, rob)).statusCode).toBe(200);
  });

  it('caps the bytes of images a user uploads in 24 hours (429 naming the limit), nothing stored past it', async () => {
    const sara = await makeUser(t);
    const first = await uploadPhoto(t, sara, await noisePng(600_000));
    expect(first.statusCode, first.body).toBe(200);
    const blobs = await blobCounts(t.dataDir);
    const message = LimitMessages.imageBytesPerDay(1024 * 1024);
    expectRefusal(await uploadPhoto(t, sara, await noisePng(600_000)), 429, ErrorCodes.quotaExceeded, message);
    expect(message).toBe('You can upload at most 1 MB of images in 24 hours. Please try again later.');
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
    expect(await uploadsOf(t, sara)).toBe(1);
  });
});
