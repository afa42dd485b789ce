import { ErrorCodes, ServerMessages, User } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser } from '../../../test/factories.js';
import { DEFAULT_PASSWORD, errorOf, login, registerUser, uniqueName } from '../../../test/harness.js';
import { hashToken } from '../../sessions/session-store.js';

interface InjectedCookie {
  name: string;
  value: string;
  expires?: Date;
  maxAge?: number;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: string;
  path?: string;
}

function sessionCookieOf(response: { cookies: InjectedCookie[] }): InjectedCookie | undefined {
  return response.cookies.find((c) => c.name === 'tonearm_session');
}

describeEachDialect('auth API on %s', (t) => {
  const register = (payload: unknown) => t.as(null).post('/api/auth/register', payload as object);
  const me = (cookie?: string) => t.as({ cookie }).get('/api/auth/me');

  describe('POST /api/auth/register', () => {
    it('makes the first account ADMIN and later ones USER', async () => {
      await t.withApp({}, async (fresh) => {
        await registerUser(fresh.app, { username: 'founder' });
        await registerUser(fresh.app, { username: 'second' });
        const founder = await fresh.as({ cookie: await login(fresh.app, 'founder') }).get('/api/auth/me');
        const second = await fresh.as({ cookie: await login(fresh.app, 'second') }).get('/api/auth/me');
        expect(User.parse(founder.json()).role).toBe('ADMIN');
        expect(User.parse(second.json()).role).toBe('USER');
      });
    });

    it('makes exactly one ADMIN when the first registrations race', async () => {
      await t.withApp({}, async (fresh) => {
        const names = ['racer_a', 'racer_b', 'racer_c', 'racer_d', 'racer_e'];
        const responses = await Promise.all(
          names.map((username) =>
            fresh.as(null).post('/api/auth/register', {
              username,
              email: `${username}@example.test`,
              password: DEFAULT_PASSWORD,
            }),
          ),
        );
        expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
        const roles = await fresh.db.selectFrom('users').select('role').execute();
        expect(roles.filter((r) => r.role === 'ADMIN')).toHaveLength(1);
      });
    });

    it('answers 201 with the spec text and stores the optional profile fields', async () => {
      const username = uniqueName();
      const response = await register({
        username,
        email: `${username}@Example.TEST`,
        password: DEFAULT_PASSWORD,
        gender: 'female',
        address: '1 Main Street',
      });
      expect(response.statusCode).toBe(201);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toBe(ServerMessages.userRegistered);
      const row = await t.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: `${username}@example.test`, gender: 'female', address: '1 Main Street' });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
    });

    it('refuses a taken username, whatever its case, with 409', async () => {
      const username = uniqueName('Taken');
      await registerUser(t.app, { username });
      const response = await register({
        username: username.toUpperCase(),
        email: `${uniqueName()}@example.test`,
        password: DEFAULT_PASSWORD,
      });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response.body)).toEqual({
        code: ErrorCodes.conflict,
        message: ServerMessages.usernameTaken,
        field: 'username',
      });
    });

    it('refuses a registered email, whatever its case, with 409', async () => {
      const username = uniqueName();
      await registerUser(t.app, { username, email: `${username}@example.test` });
      const response = await register({
        username: uniqueName(),
        email: `${username.toUpperCase()}@EXAMPLE.test`,
        password: DEFAULT_PASSWORD,
      });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response.body)).toEqual({
        code: ErrorCodes.conflict,
        message: ServerMessages.emailTaken,
        field: 'email',
      });
    });

    it.each([
      [{ email: 'a@example.test', password: DEFAULT_PASSWORD }, 'username', 'username is required'],
      [{ username: 'someone', password: DEFAULT_PASSWORD }, 'email', 'email is required'],
      [{ username: 'someone', email: 'a@example.test' }, 'password', 'password is required'],
      [
        { username: 'x'.repeat(33), email: 'a@example.test', password: DEFAULT_PASSWORD },
        'username',
        'Username must be at most 32 characters',
      ],
      [
        { username: 'ab', email: 'a@example.test', password: DEFAULT_PASSWORD },
        'username',
        'Username must be at least 3 characters',
      ],
      [
        { username: 'bad name', email: 'a@example.test', password: DEFAULT_PASSWORD },
        'username',
        'Username may use letters, digits, dot, dash and underscore',
      ],
      [
        { username: 'someone', email: 'not-an-email', password: DEFAULT_PASSWORD },
        'email',
        'Enter a valid email address',
      ],
      [
        { username: 'someone', email: 'a@example.test', password: 'short' },
        'password',
        'Password must be at least 8 characters',
      ],
      [
        { username: 'someone', email: 'a@example.test', password: 'p'.repeat(129) },
        'password',
        'Password must be at most 128 characters',
      ],
      [
        { username: 'someone', email: 'a@example.test', password: DEFAULT_PASSWORD, address: 'a'.repeat(301) },
        'address',
        'Address must be at most 300 characters',
      ],
    ])('answers 400 for %j', async (payload, field, message) => {
      const response = await register(payload);
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body)).toEqual({ code: ErrorCodes.validation, message, field });
    });

    it('answers 400 for an unknown gender', async () => {
      const response = await register({
        username: 'someone',
        email: 'a@example.test',
        password: DEFAULT_PASSWORD,
        gender: 'robot',
      });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body).field).toBe('gender');
    });

    it('answers 400 "Malformed JSON body" for broken JSON and creates nothing', async () => {
      const before = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: '{"username": "x",',
      });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body)).toEqual({ code: ErrorCodes.validation, message: 'Malformed JSON body' });
      const after = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('answers 400 for a missing body', async () => {
      const response = await t.as(null).post('/api/auth/register');
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body).message).toBe('Request body must be a JSON object');
    });

    it('answers 413 for a body over the limit', async () => {
      const response = await register({
        username: 'big',
        email: 'a@example.test',
        password: 'x'.repeat(2 * 1024 * 1024),
      });
      expect(response.statusCode).toBe(413);
      expect(errorOf(response.body).code).toBe(ErrorCodes.payloadTooLarge);
    });

    it('answers 415 for a body that is not JSON', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/xml' },
        payload: '<user/>',
      });
      expect(response.statusCode).toBe(415);
      expect(errorOf(response.body).code).toBe(ErrorCodes.unsupportedMediaType);
    });
  });

  describe('POST /api/auth/login', () => {
    it('answers the User JSON and sets an HttpOnly, SameSite=Lax session cookie', async () => {
      const username = uniqueName();
      await registerUser(t.app, { username });
      const response = await t.as(null).post('/api/auth/login', { username, password: DEFAULT_PASSWORD });
      expect(response.statusCode).toBe(200);
      const user = User.parse(response.json());
      expect(user).toMatchObject({
        username,
        email: `${username}@example.test`,
        role: 'USER',
        premium: false,
        image: null,
      });
      expect(Object.keys(response.json<object>()).sort()).toEqual(Object.keys(User.shape).sort());
      const cookie = sessionCookieOf(response);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: t.config.sessionTtlSeconds });
      expect(cookie?.secure).toBeUndefined();
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Only the hash of the token is stored.
      const stored = await t.db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', hashToken(cookie?.value ?? ''))
        .executeTakeFirst();
      expect(stored?.user_id).toBe(user.id);
      const raw = await t.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', cookie?.value ?? '')
        .executeTakeFirst();
      expect(raw).toBeUndefined();
    });

    it('accepts the email or any case of the username', async () => {
      const username = uniqueName('Mixed');
      await registerUser(t.app, { username });
      await login(t.app, username.toLowerCase());
      await login(t.app, `${username.toUpperCase()}@EXAMPLE.TEST`);
    });

    it('answers 401 with the same message for a wrong password and an unknown user', async () => {
      const username = uniqueName();
      await registerUser(t.app, { username });
      for (const payload of [
        { username, password: 'wrong password' },
        { username: 'nobody_here', password: DEFAULT_PASSWORD },
        { username: 'nobody@example.test', password: DEFAULT_PASSWORD },
      ]) {
        const response = await t.as(null).post('/api/auth/login', payload);
        expect(response.statusCode).toBe(401);
        expect(errorOf(response.body)).toEqual({
          code: ErrorCodes.unauthorized,
          message: ServerMessages.invalidCredentials,
        });
        expect(sessionCookieOf(response)).toBeUndefined();
      }
    });

    it('answers 400 when a field is missing', async () => {
      const response = await t.as(null).post('/api/auth/login', { username: 'x' });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body)).toMatchObject({ field: 'password' });
    });

    it('replaces the browser’s previous session (rotation)', async () => {
      const user = await makeUser(t);
      const response = await t.as(user).post('/api/auth/login', { username: user.username, password: user.password });
      expect(response.statusCode).toBe(200);
      const fresh = sessionCookieOf(response);
      expect(fresh?.value).not.toBe(user.cookie.split('=')[1]);
      expect((await me(user.cookie)).statusCode).toBe(401);
      expect((await me(`tonearm_session=${fresh?.value ?? ''}`)).statusCode).toBe(200);
    });

    it('marks the cookie Secure when PUBLIC_URL is https', async () => {
      await t.withApp({ env: { PUBLIC_URL: 'https://music.example.org' } }, async (secure) => {
        await registerUser(secure.app, { username: 'secure_user' });
        const response = await secure.as(null).post('/api/auth/login', {
          username: 'secure_user',
          password: DEFAULT_PASSWORD,
        });
        expect(sessionCookieOf(response)?.secure).toBe(true);
      });
    });
  });

  describe('rate limit and origin check', () => {
    it('locks an account after too many failed sign-ins from any number of addresses, by username or email', async () => {
      await t.withApp({ env: { AUTH_ACCOUNT_LIMIT: '3' } }, async (limited) => {
        const victim = await makeUser(limited);
        const attempt = (username: string, password: string, address: string) =>
          limited.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: address,
            payload: { username, password },
          });
        expect((await attempt(victim.username, 'wrong-one', '10.0.0.1')).statusCode).toBe(401);
        expect((await attempt(victim.email, 'wrong-two', '10.0.0.2')).statusCode).toBe(401);
        expect((await attempt(victim.username.toUpperCase(), 'wrong-three', '10.0.0.3')).statusCode).toBe(401);
        // Even the right password waits now, from a fresh address: the account is locked, not the address.
        const locked = await attempt(victim.username, victim.password, '10.0.0.4');
        expect(locked.statusCode).toBe(429);
        expect(errorOf(locked.body)).toEqual({ code: ErrorCodes.rateLimited, message: ServerMessages.accountLocked });
        expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
        // Other accounts are not affected.
        const bystander = await makeUser(limited);
        expect((await attempt(bystander.username, bystander.password, '10.0.0.1')).statusCode).toBe(200);
      });
    });

    it('clears an account’s failed sign-ins when it signs in successfully', async () => {
      await t.withApp({ env: { AUTH_ACCOUNT_LIMIT: '2' } }, async (limited) => {
        const user = await makeUser(limited);
        const attempt = (password: string) =>
          limited.as(null).post('/api/auth/login', { username: user.username, password });
        expect((await attempt('wrong-one')).statusCode).toBe(401);
        expect((await attempt(user.password)).statusCode).toBe(200);
        expect((await attempt('wrong-two')).statusCode).toBe(401);
        expect((await attempt(user.password)).statusCode).toBe(200);
      });
    });

    it('answers 429 after too many login attempts from one address', async () => {
      await t.withApp({ env: { AUTH_RATE_LIMIT: '3' } }, async (limited) => {
        const attempt = () => limited.as(null).post('/api/auth/login', { username: 'who', password: 'whatever1' });
        for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
        const blocked = await attempt();
        expect(blocked.statusCode).toBe(429);
        expect(errorOf(blocked.body)).toEqual({ code: ErrorCodes.rateLimited, message: ServerMessages.rateLimited });
        expect(blocked.headers['retry-after']).toBeDefined();
        // Another address still gets through.
        const other = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.0.0.9',
          payload: { username: 'who', password: 'whatever1' },
        });
        expect(other.statusCode).toBe(401);
      });
    });

    it('answers 403 bad-origin to a cross-site POST and lets same-origin and Origin-less ones through', async () => {
      const payload = { username: 'nobody_here', password: 'whatever1' };
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: 'https://evil.example' },
        payload,
      });
      expect(foreign.statusCode).toBe(403);
      expect(errorOf(foreign.body)).toEqual({ code: ErrorCodes.badOrigin, message: ServerMessages.badOrigin });

      const same = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: 'http://music.local:8080', host: 'music.local:8080' },
        payload,
      });
      expect(same.statusCode).toBe(401);
      const defaultPort = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: 'http://music.local', host: 'music.local' },
        payload,
      });
      expect(defaultPort.statusCode).toBe(401);
      const otherPort = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: 'http://music.local:9999', host: 'music.local:8080' },
        payload,
      });
      expect(otherPort.statusCode).toBe(403);
      const opaque = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: 'null' } });
      expect(opaque.statusCode).toBe(403);
      const safe = await t.app.inject({
        method: 'GET',
        url: '/api/auth/ping',
        headers: { origin: 'https://evil.example' },
      });
      expect(safe.statusCode).toBe(200);
    });

    it('wants the full origin: scheme and port count, and a Host without a port means the default one', async () => {
      const payload = { username: 'nobody_here', password: 'whatever1' };
      const post = (headers: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload });
      // An https page is not this http site, whatever the host.
      expect((await post({ origin: 'https://music.local', host: 'music.local' })).statusCode).toBe(403);
      expect((await post({ origin: 'https://music.local:8080', host: 'music.local:8080' })).statusCode).toBe(403);
      // No port in Host: only the default port of the scheme matches.
      expect((await post({ origin: 'http://music.local:8080', host: 'music.local' })).statusCode).toBe(403);
      expect((await post({ origin: 'http://music.local:80', host: 'music.local' })).statusCode).toBe(401);
      expect((await post({ origin: 'http://music.local.evil:80', host: 'music.local' })).statusCode).toBe(403);
    });

    it('refuses writes a browser marks as cross-site or same-site, whatever the Origin says', async () => {
      const payload = { username: 'nobody_here', password: 'whatever1' };
      const post = (headers: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload });
      const host = 'music.local:8080';
      const origin = 'http://music.local:8080';
      const crossSite = await post({ host, 'sec-fetch-site': 'cross-site' });
      expect(crossSite.statusCode).toBe(403);
      expect(errorOf(crossSite.body).code).toBe(ErrorCodes.badOrigin);
      expect((await post({ host, origin, 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
      expect((await post({ host, origin, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(401);
      // Reads are not affected: a cross-site <img> or link still loads.
      const read = await t.app.inject({
        method: 'GET',
        url: '/api/auth/ping',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(read.statusCode).toBe(200);
    });

    it('accepts the PUBLIC_URL origin behind a proxy that rewrites Host', async () => {
      await t.withApp({ env: { PUBLIC_URL: 'https://music.example.org' } }, async (proxied) => {
        const response = await proxied.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { origin: 'https://music.example.org', host: '127.0.0.1:4000' },
        });
        expect(response.statusCode).toBe(204);
      });
    });
  });

  describe('POST /api/auth/logout', () => {
    it('answers 204, deletes the session row and clears the cookie', async () => {
      const user = await makeUser(t);
      const token = user.cookie.split('=')[1] ?? '';
      const response = await t.as(user).post('/api/auth/logout');
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const cleared = sessionCookieOf(response);
      expect(cleared?.value).toBe('');
      expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
      expect(
        await t.db.selectFrom('sessions').select('id').where('id', '=', hashToken(token)).executeTakeFirst(),
      ).toBeUndefined();
      const after = await me(user.cookie);
      expect(after.statusCode).toBe(401);
    });

    it('answers 204 without a session too', async () => {
      expect((await t.as(null).post('/api/auth/logout')).statusCode).toBe(204);
    });
  });

  describe('GET /api/auth/me', () => {
    it('answers the signed-in user', async () => {
      const user = await makeUser(t, { premium: true });
      const response = await me(user.cookie);
      expect(response.statusCode).toBe(200);
      expect(User.parse(response.json())).toMatchObject({ id: user.id, username: user.username, premium: true });
    });

    it('answers 401 without a session, with a forged token and with a malformed cookie', async () => {
      for (const cookie of [undefined, `tonearm_session=${'A'.repeat(43)}`, 'tonearm_session=%%%']) {
        const response = await me(cookie);
        expect(response.statusCode).toBe(401);
        expect(errorOf(response.body)).toEqual({
          code: ErrorCodes.unauthorized,
          message: ServerMessages.notAuthenticated,
        });
      }
    });

    it('answers 401 for an expired session and deletes it', async () => {
      const user = await makeUser(t);
      await t.db
        .updateTable('sessions')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('user_id', '=', user.id)
        .execute();
      expect((await me(user.cookie)).statusCode).toBe(401);
      const left = await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
      expect(left).toEqual([]);
    });

    it('answers premium false once premium_until has passed', async () => {
      const user = await makeUser(t, { premium: '2001-01-01T00:00:00.000Z' });
      expect(User.parse((await me(user.cookie)).json())).toMatchObject({
        premium: false,
        premiumUntil: '2001-01-01T00:00:00.000Z',
      });
    });
  });

  describe('GET /api/auth/ping', () => {
    it('answers text "pong" to anyone', async () => {
      const response = await t.as(null).get('/api/auth/ping');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toBe(ServerMessages.pong);
    });
  });
});
