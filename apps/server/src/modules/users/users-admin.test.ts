import { ServerMessages, User, UserListResponse } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeAdmin, makePlaylist, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf, uniqueName } from '../../../test/harness.js';

/*
 * The admin user-list screen (/dashboard/user-list) end to end on the users API: search, sort, paging, premium and
 * role changes as an admin makes them, and what a deletion takes with it in the playlist, plays and payments tables.
 */
describeEachDialect('admin user list (%s)', { env: { PAYMENT_PROVIDER: 'demo' } }, (t) => {
  let admin: TestUser;
  let premium: TestUser;
  const tag = uniqueName('crew').toLowerCase();
  const members: TestUser[] = [];

  beforeAll(async () => {
    admin = await makeAdmin(t);
    premium = await makeUser(t, { premium: true });
    for (let i = 0; i < 5; i += 1) members.push(await makeUser(t, { username: `${tag}_${i}` }));
  });

  const list = async (query: string) => {
    const response = await t.as(admin).get(`/api/users?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return UserListResponse.parse(response.json());
  };
  const put = (id: number, payload: object, user: TestUser = admin) => t.as(user).put(`/api/users/${id}`, payload);

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
    const [song] = await insertSongs(t, 1);
    if (song === undefined) throw new Error('no song');
    const download = () => t.as(member).get(`/api/songs/${song.id}/download`);

    expect((await download()).statusCode).toBe(403);
    expect(User.parse((await put(member.id, { premium: true })).json()).premium).toBe(true);
    expect((await list(`q=${member.username}`)).users[0]?.premium).toBe(true);
    const me = await t.as(member).get('/api/auth/me');
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
    const open = () => t.as(member).get('/api/users');
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
    expect((await t.as(premium).get('/api/users')).statusCode).toBe(403);
    const edit = await put(target.id, { premium: true, address: 'somewhere' }, premium);
    expect(edit.statusCode).toBe(404);
    expect(errorOf(edit.body).message).toBe(ServerMessages.notFound);
    const remove = await t.as(premium).delete(`/api/users/${target.id}`);
    expect(remove.statusCode).toBe(404);
    expect(await t.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow()).toEqual(
      before,
    );
  });

  it('deleting a user removes their playlists and plays but keeps their payment records', async () => {
    const doomed = await makeUser(t);
    const [song] = await insertSongs(t, 1);
    if (song === undefined) throw new Error('no song');
    await makePlaylist(t, doomed, { name: 'Soon gone', songs: [song.id] });
    await t.as(doomed).post('/api/plays', { songId: song.id });
    const checkout = await t.as(doomed).post('/api/payment/checkout', { plan: 'monthly' });
    const orderId = checkout.json<{ order: { id: number } }>().order.id;

    const removed = await t.as(admin).delete(`/api/users/${doomed.id}`);
    expect(removed.statusCode).toBe(204);
    expect(await t.db.selectFrom('playlists').select('id').where('owner_id', '=', doomed.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('plays').select('id').where('user_id', '=', doomed.id).execute()).toEqual([]);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ user_id: null, amount_cents: 499 });
  });
});
