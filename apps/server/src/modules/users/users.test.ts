import { ErrorCodes, ServerMessages, User, UserListResponse } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf, login, uniqueName } from '../../../test/harness.js';
import { PREMIUM_FOREVER } from './users.service.js';

describeEachDialect('users API on %s', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
  });

  const get = (url: string, user?: TestUser) => t.as(user).get(url);
  const put = (id: number, payload: object, user?: TestUser) => t.as(user).put(`/api/users/${id}`, payload);
  const del = (id: number, user?: TestUser, payload?: object) => t.as(user).delete(`/api/users/${id}`, payload);
  const expectWrongCurrentPassword = (response: { statusCode: number; body: string }) => {
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body)).toEqual({
      code: ErrorCodes.validation,
      message: ServerMessages.wrongCurrentPassword,
      field: 'currentPassword',
    });
  };

  function expectError(response: { statusCode: number; body: string }, status: number, code: string, message: string) {
    expect(response.statusCode, response.body).toBe(status);
    expect(errorOf(response.body)).toMatchObject({ code, message });
  }

  describe('GET /api/users', () => {
    it('answers 401 to anonymous and 403 to a regular user', async () => {
      expectError(await get('/api/users'), 401, ErrorCodes.unauthorized, ServerMessages.notAuthenticated);
      expectError(await get('/api/users', alice), 403, ErrorCodes.forbidden, ServerMessages.forbidden);
    });

    it('lists every user with the total for an admin', async () => {
      const response = await get('/api/users?limit=500', admin);
      expect(response.statusCode).toBe(200);
      const body = UserListResponse.parse(response.json());
      expect(body.total).toBeGreaterThanOrEqual(3);
      expect(body.users.map((u) => u.id)).toEqual(expect.arrayContaining([admin.id, alice.id, bob.id]));
      expect(JSON.stringify(body)).not.toContain('argon2');
    });

    it('searches usernames and emails case-insensitively, with LIKE characters taken literally', async () => {
      const tag = uniqueName('Needle');
      const target = await makeUser(t, { username: tag });
      const byName = UserListResponse.parse((await get(`/api/users?q=${tag.toUpperCase()}`, admin)).json());
      expect(byName.users.map((u) => u.id)).toEqual([target.id]);
      expect(byName.total).toBe(1);
      const byEmail = UserListResponse.parse(
        (await get(`/api/users?q=${encodeURIComponent(`${tag}@example`)}`, admin)).json(),
      );
      expect(byEmail.users.map((u) => u.id)).toEqual([target.id]);
      const wildcard = UserListResponse.parse((await get('/api/users?q=%25', admin)).json());
      expect(wildcard.total).toBe(0);
    });

    it('sorts, orders and pages', async () => {
      const ascending = UserListResponse.parse(
        (await get('/api/users?sort=username&order=asc&limit=500', admin)).json(),
      );
      const names = ascending.users.map((u) => u.username.toLowerCase());
      expect(names).toEqual([...names].sort());
      const descending = UserListResponse.parse(
        (await get('/api/users?sort=createdAt&order=desc&limit=500', admin)).json(),
      );
      expect(descending.users[0]?.id).toBe(Math.max(...descending.users.map((u) => u.id)));
      const page = UserListResponse.parse((await get('/api/users?sort=username&limit=2&offset=1', admin)).json());
      expect(page.users.map((u) => u.id)).toEqual(ascending.users.slice(1, 3).map((u) => u.id));
      expect(page.total).toBe(ascending.total);
    });

    it.each(['sort=password', 'order=up', 'limit=0', 'limit=501', 'offset=-1', `q=${'x'.repeat(101)}`])(
      'answers 400 for %s',
      async (query) => {
        const response = await get(`/api/users?${query}`, admin);
        expect(response.statusCode).toBe(400);
        expect(errorOf(response.body).code).toBe(ErrorCodes.validation);
      },
    );
  });

  describe('GET /api/users/id/{id}', () => {
    it('answers 401 to anonymous', async () => {
      expectError(
        await get(`/api/users/id/${alice.id}`),
        401,
        ErrorCodes.unauthorized,
        ServerMessages.notAuthenticated,
      );
    });

    it('answers the user to themself and to an admin', async () => {
      for (const viewer of [alice, admin]) {
        const response = await get(`/api/users/id/${alice.id}`, viewer);
        expect(response.statusCode).toBe(200);
        expect(User.parse(response.json())).toMatchObject({ id: alice.id, username: alice.username, role: 'USER' });
      }
    });

    it('answers 404 to another regular user, exactly as for an id that does not exist', async () => {
      expectError(await get(`/api/users/id/${bob.id}`, alice), 404, ErrorCodes.notFound, ServerMessages.notFound);
      expectError(await get('/api/users/id/999999', alice), 404, ErrorCodes.notFound, ServerMessages.notFound);
    });

    it('answers 404 to an admin for an unknown id and 400 for a malformed one', async () => {
      expectError(await get('/api/users/id/999999', admin), 404, ErrorCodes.notFound, ServerMessages.notFound);
      const malformed = await get('/api/users/id/abc', admin);
      expect(malformed.statusCode).toBe(400);
      expect(errorOf(malformed.body).field).toBe('id');
    });
  });

  describe('GET /api/users/username/{username}', () => {
    it('answers 401 to anonymous', async () => {
      expect((await get(`/api/users/username/${alice.username}`)).statusCode).toBe(401);
    });

    it('answers the user to themself (any case) and to an admin', async () => {
      for (const viewer of [alice, admin]) {
        const response = await get(`/api/users/username/${alice.username.toUpperCase()}`, viewer);
        expect(response.statusCode).toBe(200);
        expect(User.parse(response.json()).id).toBe(alice.id);
      }
    });

    it('answers 404 to another regular user and to an admin for an unknown name', async () => {
      expectError(
        await get(`/api/users/username/${bob.username}`, alice),
        404,
        ErrorCodes.notFound,
        ServerMessages.notFound,
      );
      expectError(
        await get('/api/users/username/nobody_at_all', admin),
        404,
        ErrorCodes.notFound,
        ServerMessages.notFound,
      );
    });
  });

  describe('PUT /api/users/{id}', () => {
    it('answers 401 to anonymous and 404 to another regular user', async () => {
      expectError(await put(alice.id, { address: 'x' }), 401, ErrorCodes.unauthorized, ServerMessages.notAuthenticated);
      expectError(await put(alice.id, { address: 'x' }, bob), 404, ErrorCodes.notFound, ServerMessages.notFound);
    });

    it('lets a user change their own profile', async () => {
      const user = await makeUser(t);
      const username = uniqueName('Renamed');
      const response = await put(
        user.id,
        {
          username,
          email: `${username}@New.Example`,
          gender: 'other',
          address: '2 Side Street',
          currentPassword: user.password,
        },
        user,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(User.parse(response.json())).toMatchObject({
        id: user.id,
        username,
        email: `${username.toLowerCase()}@new.example`,
        gender: 'other',
        address: '2 Side Street',
      });
      const cleared = await put(user.id, { gender: null, address: null }, user);
      expect(User.parse(cleared.json())).toMatchObject({ gender: null, address: null });
      // Changing only the case of one's own name is not a conflict with oneself.
      const recased = await put(user.id, { username: username.toUpperCase(), currentPassword: user.password }, user);
      expect(recased.statusCode).toBe(200);
    });

    it('requires the current password to change one’s own username or email, not to resend them unchanged', async () => {
      const user = await makeUser(t);
      for (const changes of [{ username: uniqueName('taken_over') }, { email: 'thief@example.test' }]) {
        expectWrongCurrentPassword(await put(user.id, changes, user));
        expectWrongCurrentPassword(await put(user.id, { ...changes, currentPassword: 'not my password' }, user));
      }
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ username: user.username, email: user.email });
      // A client that posts the whole profile back sends the same username and email: no password needed for that.
      const same = await put(
        user.id,
        { username: user.username, email: user.email.toUpperCase(), address: 'Here' },
        user,
      );
      expect(same.statusCode, same.body).toBe(200);
      const email = `${uniqueName('moved')}@example.test`;
      const moved = await put(user.id, { email, currentPassword: user.password }, user);
      expect(User.parse(moved.json()).email).toBe(email);
    });

    it('asks an admin for their own current password, but not when they change another account', async () => {
      const self = await makeAdmin(t);
      const username = uniqueName('boss');
      expectWrongCurrentPassword(await put(self.id, { username }, self));
      expectWrongCurrentPassword(await put(self.id, { password: 'a brand new secret' }, self));
      expect((await put(self.id, { username, currentPassword: self.password }, self)).statusCode).toBe(200);
      const other = await makeUser(t);
      const renamed = await put(other.id, { username: uniqueName('renamed'), email: 'x.y@example.test' }, self);
      expect(renamed.statusCode, renamed.body).toBe(200);
    });

    it('lets an admin edit another user', async () => {
      const user = await makeUser(t);
      const response = await put(user.id, { address: 'Set by admin' }, admin);
      expect(response.statusCode).toBe(200);
      expect(User.parse(response.json()).address).toBe('Set by admin');
    });

    it('answers 409 for a taken username or email, whatever the case', async () => {
      const user = await makeUser(t);
      const currentPassword = user.password;
      const takenName = await put(user.id, { username: alice.username.toUpperCase(), currentPassword }, user);
      expect(takenName.statusCode).toBe(409);
      expect(errorOf(takenName.body)).toEqual({
        code: ErrorCodes.conflict,
        message: ServerMessages.usernameTaken,
        field: 'username',
      });
      const takenEmail = await put(user.id, { email: alice.email.toUpperCase(), currentPassword }, user);
      expect(takenEmail.statusCode).toBe(409);
      expect(errorOf(takenEmail.body)).toEqual({
        code: ErrorCodes.conflict,
        message: ServerMessages.emailTaken,
        field: 'email',
      });
    });

    it('requires the correct current password to change one’s own password', async () => {
      const user = await makeUser(t);
      for (const payload of [
        { password: 'a brand new secret' },
        { password: 'a brand new secret', currentPassword: 'not my password' },
      ]) {
        const response = await put(user.id, payload, user);
        expect(response.statusCode).toBe(400);
        expect(errorOf(response.body)).toEqual({
          code: ErrorCodes.validation,
          message: ServerMessages.wrongCurrentPassword,
          field: 'currentPassword',
        });
      }
      const otherSession = await login(t.app, user.username);
      const changed = await put(user.id, { password: 'a brand new secret', currentPassword: user.password }, user);
      expect(changed.statusCode).toBe(200);
      // The session that changed it stays; every other session of the user ends.
      expect((await get('/api/auth/me', user)).statusCode).toBe(200);
      expect((await t.as({ cookie: otherSession }).get('/api/auth/me')).statusCode).toBe(401);
      const oldLogin = await t.as(null).post('/api/auth/login', { username: user.username, password: user.password });
      expect(oldLogin.statusCode).toBe(401);
      await login(t.app, user.username, 'a brand new secret');
    });

    it('lets an admin reset another user’s password without the old one, ending their sessions', async () => {
      const user = await makeUser(t);
      const response = await put(user.id, { password: 'reset by the admin' }, admin);
      expect(response.statusCode).toBe(200);
      expect((await get('/api/auth/me', user)).statusCode).toBe(401);
      await login(t.app, user.username, 'reset by the admin');
    });

    it.each([{ role: 'ADMIN' }, { premium: true }, { premiumUntil: '2099-01-01T00:00:00.000Z' }])(
      'answers 403 when a regular user sends %j',
      async (payload) => {
        const user = await makeUser(t);
        const response = await put(user.id, payload, user);
        expectError(response, 403, ErrorCodes.forbidden, ServerMessages.onlyAdminChangesRole);
        const me = User.parse((await get('/api/auth/me', user)).json());
        expect(me).toMatchObject({ role: 'USER', premium: false });
      },
    );

    it('lets an admin grant and revoke premium and change roles', async () => {
      const user = await makeUser(t);
      const granted = User.parse((await put(user.id, { premium: true }, admin)).json());
      expect(granted).toMatchObject({ premium: true, premiumUntil: PREMIUM_FOREVER });
      const until = User.parse((await put(user.id, { premiumUntil: '2099-06-01T12:00:00Z' }, admin)).json());
      expect(until).toMatchObject({ premium: true, premiumUntil: '2099-06-01T12:00:00.000Z' });
      const revoked = User.parse((await put(user.id, { premium: false }, admin)).json());
      expect(revoked).toMatchObject({ premium: false, premiumUntil: null });
      const promoted = User.parse((await put(user.id, { role: 'ADMIN' }, admin)).json());
      expect(promoted.role).toBe('ADMIN');
      const demoted = User.parse((await put(user.id, { role: 'USER' }, admin)).json());
      expect(demoted.role).toBe('USER');
    });

    it('answers 400 for unknown fields, bad values and over-long strings', async () => {
      for (const [payload, field] of [
        [{ nickname: 'x' }, 'nickname'],
        [{ role: 'ROOT' }, 'role'],
        [{ address: 'a'.repeat(301) }, 'address'],
        [{ username: 'u'.repeat(33) }, 'username'],
        [{ premiumUntil: 'tomorrow' }, 'premiumUntil'],
      ] as const) {
        const response = await put(alice.id, payload, admin);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(errorOf(response.body).field).toBe(field);
      }
    });

    it('answers 404 to an admin for an unknown id', async () => {
      expectError(await put(999999, { address: 'x' }, admin), 404, ErrorCodes.notFound, ServerMessages.notFound);
    });
  });

  describe('DELETE /api/users/{id}', () => {
    it('answers 401 to anonymous and 404 to another regular user', async () => {
      expectError(await del(alice.id), 401, ErrorCodes.unauthorized, ServerMessages.notAuthenticated);
      expectError(await del(alice.id, bob), 404, ErrorCodes.notFound, ServerMessages.notFound);
    });

    it('lets a user delete their own account with the current password, ending the session', async () => {
      const user = await makeUser(t);
      expectWrongCurrentPassword(await del(user.id, user));
      expectWrongCurrentPassword(await del(user.id, user, {}));
      expectWrongCurrentPassword(await del(user.id, user, { currentPassword: 'not my password' }));
      expect((await get('/api/auth/me', user)).statusCode).toBe(200);
      const response = await del(user.id, user, { currentPassword: user.password });
      expect(response.statusCode).toBe(204);
      expect(response.cookies.find((c) => c.name === 'tonearm_session')?.value).toBe('');
      expect((await get('/api/auth/me', user)).statusCode).toBe(401);
      expect(await t.db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeUndefined();
    });

    it('lets an admin delete a user, whose sessions stop working at once', async () => {
      const user = await makeUser(t);
      expect((await get('/api/auth/me', user)).statusCode).toBe(200);
      expect((await del(user.id, admin)).statusCode).toBe(204);
      expect((await get('/api/auth/me', user)).statusCode).toBe(401);
      expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('answers 404 to an admin for an unknown id', async () => {
      expectError(await del(999999, admin), 404, ErrorCodes.notFound, ServerMessages.notFound);
    });

    it('asks an admin deleting their own account for the password too', async () => {
      const self = await makeAdmin(t);
      expectWrongCurrentPassword(await del(self.id, self));
      expect((await del(self.id, self, { currentPassword: self.password })).statusCode).toBe(204);
    });
  });

  describe('the last administrator', () => {
    it('can be neither demoted nor deleted, while one of two can', async () => {
      await t.withApp({}, async (fresh) => {
        const only = await makeAdmin(fresh);
        const demote = await fresh.as(only).put(`/api/users/${only.id}`, { role: 'USER' });
        expectError(demote, 409, ErrorCodes.conflict, ServerMessages.lastAdmin);
        const remove = await fresh.as(only).delete(`/api/users/${only.id}`, { currentPassword: only.password });
        expectError(remove, 409, ErrorCodes.conflict, ServerMessages.lastAdmin);

        const second = await makeAdmin(fresh);
        const demoted = await fresh.as(second).put(`/api/users/${only.id}`, { role: 'USER' });
        expect(demoted.statusCode).toBe(200);
        const removeLast = await fresh
          .as(second)
          .delete(`/api/users/${second.id}`, { currentPassword: second.password });
        expectError(removeLast, 409, ErrorCodes.conflict, ServerMessages.lastAdmin);
      });
    });

    it('survives two admins demoting each other at the same time', async () => {
      await t.withApp({}, async (fresh) => {
        const first = await makeAdmin(fresh);
        const second = await makeAdmin(fresh);
        const [a, b] = await Promise.all([
          fresh.as(first).put(`/api/users/${second.id}`, { role: 'USER' }),
          fresh.as(second).put(`/api/users/${first.id}`, { role: 'USER' }),
        ]);
        // The loser is refused either as no longer an admin (403 for the role field, or 404: another account is not
        // theirs to see any more) or as the last admin's would-be demoter (409).
        const statuses = [a.statusCode, b.statusCode].sort();
        expect(statuses[0]).toBe(200);
        expect([403, 404, 409]).toContain(statuses[1]);
        const admins = await fresh.db.selectFrom('users').select('id').where('role', '=', 'ADMIN').execute();
        expect(admins).toHaveLength(1);
      });
    });
  });
});
