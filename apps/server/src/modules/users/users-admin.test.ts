import { ServerMessages, User, UserListResponse } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asAdmin,
  asUser,
  createTestApp,
  errorOf,
  testDatabases,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../../../test/harness.js';
import { insertSongs } from '../playlists/test-fixtures.js';

/*
 * The admin user-list screen (/dashboard/user-list) end to end on the users API: search, sort, paging, premium and
 * role changes as an admin makes them, and what a deletion takes with it in the playlist, plays and payments tables.
 */
describe.each(testDatabases())('admin user list (%s)', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let premium: TestUser;
  const tag = uniqueName('crew').toLowerCase();
  const members: TestUser[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { PAYMENT_PROVIDER: 'demo' } });
    admin = await asAdmin(t);
    premium = await asUser(t, { premium: true });
    for (let i = 0; i < 5; i += 1) members.push(await asUser(t, { username: `${tag}_${i}` }));
  });

  afterAll(async () => {
    await t.close();
  });

  const list = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/users?${query}`, headers: admin.headers });
    expect(response.statusCode, response.body).toBe(200);
    return UserListResponse.parse(response.json());
  };
  const put = (id: number, payload: object, user: TestUser = admin) =>
    t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: user.headers, payload });

  it('pages through a search: the total counts every match and the pages neither overlap nor miss one', async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const page = await list(`q=${tag}&sort=username&limit=2&offset=${offset}`);
      expect(page.total).toBe(5);
      seen.push(...page.users.map((u) => u.id));
    }
    expect(seen).toEqual(members.map((m) => m.id));
  });

  it('sorts premium members first when sorting by premiumUntil descending, last when ascending', async () => {
    const [first, second] = members;
    if (first === undefined || second === undefined) throw new Error('no members');
    await put(first.id, { premiumUntil: '2098-01-01T00:00:00.000Z' });
    await put(second.id, { premiumUntil: '2099-01-01T00:00:00.000Z' });
    try {
      const descending = await list(`q=${tag}&sort=premiumUntil&order=desc`);
      expect(descending.users.slice(0, 2).map((u) => [u.id, u.premium])).toEqual([
        [second.id, true],
        [first.id, true],
      ]);
      const ascending = await list(`q=${tag}&sort=premiumUntil&order=asc`);
      expect(ascending.users.slice(-2).map((u) => u.id)).toEqual([first.id, second.id]);
      expect(ascending.users.slice(0, 3).every((u) => !u.premium)).toBe(true);
    } finally {
      await put(first.id, { premium: false });
      await put(second.id, { premium: false });
    }
  });

  it('grants and revokes premium from the list; the member sees it and downloads follow it', async () => {
    const member = members[2];
    if (member === undefined) throw new Error('no member');
    const [song] = await insertSongs(t.db, 1);
    if (song === undefined) throw new Error('no song');
    const download = () =>
      t.app.inject({ method: 'GET', url: `/api/songs/${song.id}/download`, headers: member.headers });

    expect((await download()).statusCode).toBe(403);
    expect(User.parse((await put(member.id, { premium: true })).json()).premium).toBe(true);
    expect((await list(`q=${member.username}`)).users[0]?.premium).toBe(true);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: member.headers });
    expect(User.parse(me.json()).premium).toBe(true);
    // Past the premium check; the test song has no audio blob, hence 404 rather than the file.
    expect((await download()).statusCode).toBe(404);

    expect(User.parse((await put(member.id, { premium: false })).json()).premium).toBe(false);
    expect((await list(`q=${member.username}`)).users[0]?.premium).toBe(false);
    expect((await download()).statusCode).toBe(403);
  });

  it('changes roles from the list: a promoted member can open the list, a demoted one cannot', async () => {
    const member = members[3];
    if (member === undefined) throw new Error('no member');
    const open = () => t.app.inject({ method: 'GET', url: '/api/users', headers: member.headers });
    expect((await open()).statusCode).toBe(403);
    expect(User.parse((await put(member.id, { role: 'ADMIN' })).json()).role).toBe('ADMIN');
    expect((await open()).statusCode).toBe(200);
    expect((await list(`q=${member.username}&sort=role`)).users[0]?.role).toBe('ADMIN');
    expect(User.parse((await put(member.id, { role: 'USER' })).json()).role).toBe('USER');
    expect((await open()).statusCode).toBe(403);
  });

  it('premium is no privilege here: a premium user cannot list, edit or delete other users', async () => {
    const target = members[4];
    if (target === undefined) throw new Error('no member');
    const before = await t.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: premium.headers })).statusCode).toBe(403);
    const edit = await put(target.id, { premium: true, address: 'somewhere' }, premium);
    expect(edit.statusCode).toBe(404);
    expect(errorOf(edit.body).message).toBe(ServerMessages.notFound);
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/users/${target.id}`, headers: premium.headers });
    expect(remove.statusCode).toBe(404);
    expect(await t.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow()).toEqual(
      before,
    );
  });

  it('deleting a user removes their playlists and plays but keeps their payment records', async () => {
    const doomed = await asUser(t);
    const [song] = await insertSongs(t.db, 1);
    if (song === undefined) throw new Error('no song');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: doomed.headers,
      payload: { name: 'Soon gone', songs: [song.id] },
    });
    expect(created.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: '/api/plays', headers: doomed.headers, payload: { songId: song.id } });
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/payment/checkout',
      headers: doomed.headers,
      payload: { plan: 'monthly' },
    });
    const orderId = checkout.json<{ order: { id: number } }>().order.id;

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/users/${doomed.id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    expect(await t.db.selectFrom('playlists').select('id').where('owner_id', '=', doomed.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('plays').select('id').where('user_id', '=', doomed.id).execute()).toEqual([]);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ user_id: null, amount_cents: 499 });
  });
});
