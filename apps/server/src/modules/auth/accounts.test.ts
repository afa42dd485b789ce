import { AccountMessages, AuthOptions, CreatedAppPassword, ErrorCodes, ServerMessages, User } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { DEFAULT_PASSWORD, errorOf, login, uniqueName, type TestApp } from '../../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../../test/subsonic.js';

/** An address that is not this machine. */
const REMOTE = '203.0.113.7';

interface RegisterOptions {
  from?: string;
  headers?: Record<string, string>;
  setupCode?: string;
}

function register(t: TestApp, username: string, { from, headers, setupCode }: RegisterOptions = {}) {
  const payload = {
    username,
    email: `${username.toLowerCase()}@example.test`,
    password: DEFAULT_PASSWORD,
    ...(setupCode === undefined ? {} : { setupCode }),
  };
  return t.as(null).post('/api/auth/register', payload, { headers, remoteAddress: from });
}

async function roleOf(t: TestApp, username: string) {
  const row = await t.db.selectFrom('users').select('role').where('username', '=', username).executeTakeFirst();
  return row?.role;
}

async function options(t: TestApp, from?: string, headers?: Record<string, string>) {
  const response = await t.as(null).get('/api/auth/options', { remoteAddress: from, headers });
  expect(response.statusCode).toBe(200);
  return AuthOptions.parse(response.json());
}

/* Each test claims a fresh app of its own (an empty database: no administrator yet). */
describeEachDialect('claiming the server on %s', { uses: 'nothing' }, (suite) => {
  it('makes the first account from another machine a plain USER; the next one from this machine claims it', async () => {
    await suite.withApp({}, async (t) => {
      expect(await options(t, REMOTE)).toEqual({ registration: 'open', becomesAdministrator: false });
      expect(await options(t)).toEqual({ registration: 'open', becomesAdministrator: true });
      expect((await register(t, 'stranger', { from: REMOTE })).statusCode).toBe(201);
      expect(await roleOf(t, 'stranger')).toBe('USER');
      expect((await register(t, 'operator')).statusCode).toBe(201);
      expect(await roleOf(t, 'operator')).toBe('ADMIN');
      expect((await register(t, 'neighbour')).statusCode).toBe(201);
      expect(await roleOf(t, 'neighbour')).toBe('USER');
      expect(await options(t)).toEqual({ registration: 'open', becomesAdministrator: false });
    });
  });

  it.each<Record<string, string>>([
    { 'x-forwarded-for': '127.0.0.1' },
    { forwarded: 'for=198.51.100.1' },
    { 'x-real-ip': '127.0.0.1' },
  ])('does not count a request through a proxy it does not trust (%j) as this machine', async (headers) => {
    await suite.withApp({}, async (t) => {
      expect((await register(t, 'proxied', { headers })).statusCode).toBe(201);
      expect(await roleOf(t, 'proxied')).toBe('USER');
    });
  });

  it('never believes TRUST_PROXY=true about this machine: the leftmost X-Forwarded-For is the client’s to write', async () => {
    await suite.withApp({ env: { TRUST_PROXY: 'true' } }, async (t) => {
      expect((await register(t, 'spoofer', { headers: { 'x-forwarded-for': '127.0.0.1' } })).statusCode).toBe(201);
      expect(await roleOf(t, 'spoofer')).toBe('USER');
    });
  });

  it('believes a named trusted proxy (TRUST_PROXY as a hop count) about the client address', async () => {
    await suite.withApp({ env: { TRUST_PROXY: '1' } }, async (t) => {
      expect((await register(t, 'far_away', { headers: { 'x-forwarded-for': REMOTE } })).statusCode).toBe(201);
      expect(await roleOf(t, 'far_away')).toBe('USER');
      expect((await register(t, 'on_the_box', { headers: { 'x-forwarded-for': '127.0.0.1' } })).statusCode).toBe(201);
      expect(await roleOf(t, 'on_the_box')).toBe('ADMIN');
    });
  });

  describe('DNS rebinding: a page of another site, re-pointed at 127.0.0.1, in a browser on this machine', () => {
    const rebound = { host: 'evil.example:4813', origin: 'http://evil.example:4813' };

    it('does not claim the server: its account is a plain USER, as from another machine', async () => {
      await suite.withApp({}, async (t) => {
        expect(await options(t, undefined, { host: rebound.host })).toEqual({
          registration: 'open',
          becomesAdministrator: false,
        });
        expect((await register(t, 'rebinder', { headers: rebound })).statusCode).toBe(201);
        expect(await roleOf(t, 'rebinder')).toBe('USER');
        for (const host of ['localhost.evil.example:4813', '127.0.0.1.nip.io:4813']) {
          const name = `rebinder_${host.length}`;
          expect((await register(t, name, { headers: { host, origin: `http://${host}` } })).statusCode).toBe(201);
          expect(await roleOf(t, name)).toBe('USER');
        }
        // A foreign Origin on a loopback Host is not this machine either.
        const foreignOrigin = { host: 'localhost:4813', origin: 'http://evil.example:4813' };
        expect((await register(t, 'cross_site', { headers: foreignOrigin })).statusCode).not.toBe(201);
        expect(await roleOf(t, 'cross_site')).toBeUndefined();
        // The server is still unclaimed: the operator's own browser claims it.
        expect(await options(t, undefined, { host: '[::1]:4813' })).toEqual({
          registration: 'open',
          becomesAdministrator: true,
        });
        const own = { host: 'LOCALHOST:4813', origin: 'http://localhost:4813' };
        expect((await register(t, 'operator', { headers: own })).statusCode).toBe(201);
        expect(await roleOf(t, 'operator')).toBe('ADMIN');
      });
    });

    it('is refused like any remote sign-up with REGISTRATION=closed', async () => {
      await suite.withApp({ env: { REGISTRATION: 'closed' } }, async (t) => {
        const refused = await register(t, 'rebinder', { headers: rebound });
        expect(refused.statusCode).toBe(403);
        expect(errorOf(refused.body).code).toBe(ErrorCodes.registrationClosed);
        expect(await roleOf(t, 'rebinder')).toBeUndefined();
      });
    });

    it('counts PUBLIC_URL’s host as this machine (a reverse proxy on it that passes the Host on)', async () => {
      const publicUrl = 'https://music.example.org';
      await suite.withApp({ env: { PUBLIC_URL: publicUrl } }, async (t) => {
        expect((await register(t, 'rebinder', { headers: { host: rebound.host } })).statusCode).toBe(201);
        expect(await roleOf(t, 'rebinder')).toBe('USER');
        const headers = { host: 'music.example.org', origin: publicUrl };
        expect((await register(t, 'owner', { headers })).statusCode).toBe(201);
        expect(await roleOf(t, 'owner')).toBe('ADMIN');
      });
    });
  });

  it('the setup code claims the server from anywhere, once; a wrong code is refused with 403', async () => {
    await suite.withApp({}, async (t) => {
      const code = t.setupCode.value ?? '';
      const wrong = await register(t, 'guesser', { from: REMOTE, setupCode: `${code}x` });
      expect(wrong.statusCode).toBe(403);
      expect(errorOf(wrong.body)).toEqual({
        code: ErrorCodes.invalidSetupCode,
        message: AccountMessages.invalidSetupCode,
        field: 'setupCode',
      });
      expect(await roleOf(t, 'guesser')).toBeUndefined();

      expect((await register(t, 'owner', { from: REMOTE, setupCode: code })).statusCode).toBe(201);
      expect(await roleOf(t, 'owner')).toBe('ADMIN');
      expect(t.setupCode.value).toBeNull();

      const reused = await register(t, 'late', { from: REMOTE, setupCode: code });
      expect(reused.statusCode).toBe(403);
      expect(errorOf(reused.body).code).toBe(ErrorCodes.invalidSetupCode);
      expect(await roleOf(t, 'late')).toBeUndefined();
    });
  });

  it('the setup code is no longer valid once the machine itself made an administrator', async () => {
    await suite.withApp({}, async (t) => {
      const code = t.setupCode.value ?? '';
      expect((await register(t, 'local_admin')).statusCode).toBe(201);
      const response = await register(t, 'second_claim', { from: REMOTE, setupCode: code });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response.body).message).toBe(AccountMessages.invalidSetupCode);
      expect(await t.db.selectFrom('users').select('id').where('role', '=', 'ADMIN').execute()).toHaveLength(1);
    });
  });

  it('makes exactly one ADMIN when registrations with the setup code race', async () => {
    await suite.withApp({}, async (t) => {
      const code = t.setupCode.value ?? '';
      const names = ['claim_a', 'claim_b', 'claim_c', 'claim_d'];
      const responses = await Promise.all(names.map((name) => register(t, name, { from: REMOTE, setupCode: code })));
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 403, 403, 403]);
      expect(await t.db.selectFrom('users').select('id').where('role', '=', 'ADMIN').execute()).toHaveLength(1);
    });
  });

  describe('REGISTRATION=closed', () => {
    it('refuses sign-ups with 403 except the claim of the first administrator', async () => {
      await suite.withApp({ env: { REGISTRATION: 'closed' } }, async (t) => {
        expect(await options(t, REMOTE)).toEqual({ registration: 'closed', becomesAdministrator: false });
        const refused = await register(t, 'walk_in', { from: REMOTE });
        expect(refused.statusCode).toBe(403);
        expect(errorOf(refused.body)).toEqual({
          code: ErrorCodes.registrationClosed,
          message: AccountMessages.registrationClosed,
        });
        expect(await roleOf(t, 'walk_in')).toBeUndefined();

        const claimed = await register(t, 'founder', { from: REMOTE, setupCode: t.setupCode.value ?? '' });
        expect(claimed.statusCode).toBe(201);
        expect(await roleOf(t, 'founder')).toBe('ADMIN');

        // Once claimed, not even this machine signs up.
        expect(await options(t)).toEqual({ registration: 'closed', becomesAdministrator: false });
        const local = await register(t, 'local_walk_in');
        expect(local.statusCode).toBe(403);
        expect(errorOf(local.body).code).toBe(ErrorCodes.registrationClosed);
      });
    });

    it('lets this machine claim the server, whose administrator then creates the accounts', async () => {
      await suite.withApp({ env: { REGISTRATION: 'closed' } }, async (t) => {
        expect(await options(t)).toEqual({ registration: 'closed', becomesAdministrator: true });
        expect((await register(t, 'console_admin')).statusCode).toBe(201);
        expect(await roleOf(t, 'console_admin')).toBe('ADMIN');
        const cookie = await login(t.app, 'console_admin');
        const created = await t.as({ cookie }).post('/api/users', {
          username: 'invited',
          email: 'invited@example.test',
          password: DEFAULT_PASSWORD,
        });
        expect(created.statusCode, created.body).toBe(201);
        await login(t.app, 'invited');
      });
    });
  });
});

describeEachDialect('POST /api/auth/logout-all on %s', (t) => {
  const me = (cookie: string) => t.as({ cookie }).get('/api/auth/me');

  it('ends every session of the user, this one included, clears the cookie and leaves others alone', async () => {
    const user = await makeUser(t);
    const phone = await login(t.app, user.username);
    const bystander = await makeUser(t);
    const response = await t.as(user).post('/api/auth/logout-all');
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies.find((c) => c.name === 'tonearm_session');
    expect(cleared?.value).toBe('');
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await me(bystander.cookie)).statusCode).toBe(200);
    // Logging in again works as before.
    expect((await me(await login(t.app, user.username))).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const response = await t.as(null).post('/api/auth/logout-all');
    expect(response.statusCode).toBe(401);
    expect(errorOf(response.body).message).toBe(ServerMessages.notAuthenticated);
  });

  it('leaves Subsonic apps signed in: the app password and API keys are not sessions', async () => {
    const user = await makeUser(t);
    const apps = await signInApps(t, user);
    expect((await t.as(user).post('/api/auth/logout-all')).statusCode).toBe(204);
    expect(await apps.status()).toEqual({ apiKey: 'ok', appPassword: 'ok' });
  });
});

/** Subsonic apps of `user`: one with an API key, one with the app password; `status()` says whether each signs in. */
async function signInApps(t: TestApp, user: TestUser) {
  const apiKey = await apiKeyOf(t, user);
  const generated = await t.as(user).post(`/api/users/${user.id}/subsonic-password`);
  expect(generated.statusCode, generated.body).toBe(201);
  const password = CreatedAppPassword.parse(generated.json()).password;
  const byKey = subsonicApi(t, { apiKey });
  const byPassword = subsonicApi(t, { u: user.username, p: password });
  const status = async () => ({
    apiKey: (await byKey.json('ping')).status,
    appPassword: (await byPassword.json('ping')).status,
  });
  expect(await status()).toEqual({ apiKey: 'ok', appPassword: 'ok' });
  return { status };
}

describeEachDialect('POST /api/auth/logout-all/with-app-keys on %s', (t) => {
  const me = (cookie: string) => t.as({ cookie }).get('/api/auth/me');
  const keysOf = (userId: number) =>
    t.db.selectFrom('subsonic_api_keys').select('id').where('user_id', '=', userId).execute();
  const secretOf = async (userId: number) =>
    (await t.db.selectFrom('users').select('subsonic_secret').where('id', '=', userId).executeTakeFirstOrThrow())
      .subsonic_secret;

  it('ends every session and signs every Subsonic app out: app password and all API keys revoked', async () => {
    const user = await makeUser(t);
    const phone = await login(t.app, user.username);
    const apps = await signInApps(t, user);
    await apiKeyOf(t, user);
    const bystander = await makeUser(t);
    const bystanderApps = await signInApps(t, bystander);

    const response = await t.as(user).post('/api/auth/logout-all/with-app-keys');
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === 'tonearm_session')?.value).toBe('');
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
    expect(await apps.status()).toEqual({ apiKey: 'failed', appPassword: 'failed' });
    expect(await keysOf(user.id)).toEqual([]);
    expect(await secretOf(user.id)).toBeNull();

    // Nobody else's sessions or apps.
    expect((await me(bystander.cookie)).statusCode).toBe(200);
    expect(await bystanderApps.status()).toEqual({ apiKey: 'ok', appPassword: 'ok' });
    expect(await keysOf(bystander.id)).toHaveLength(1);

    // Signing in again works; new app keys can be made.
    const again = await login(t.app, user.username);
    expect((await me(again)).statusCode).toBe(200);
    await signInApps(t, { ...user, cookie: again });
  });

  it('works for a user without any app keys', async () => {
    const user = await makeUser(t);
    expect((await t.as(user).post('/api/auth/logout-all/with-app-keys')).statusCode).toBe(204);
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it('answers 401 without a session, and revokes nothing', async () => {
    const response = await t.as(null).post('/api/auth/logout-all/with-app-keys');
    expect(response.statusCode).toBe(401);
    expect(errorOf(response.body).message).toBe(ServerMessages.notAuthenticated);
  });
});

describeEachDialect('POST /api/users on %s', (t) => {
  const create = (payload: object, caller?: TestUser) => t.as(caller).post('/api/users', payload);
  const account = (username: string) => ({
    username,
    email: `${username}@Example.test`,
    password: 'a long enough secret',
  });

  it('lets an administrator create an account (201 User), who can then log in', async () => {
    const admin = await makeAdmin(t);
    const username = uniqueName('made');
    const response = await create({ ...account(username), gender: 'female', address: '1 Main St' }, admin);
    expect(response.statusCode, response.body).toBe(201);
    expect(User.parse(response.json())).toMatchObject({
      username,
      email: `${username.toLowerCase()}@example.test`,
      role: 'USER',
      gender: 'female',
      address: '1 Main St',
      premium: false,
    });
    await login(t.app, username, 'a long enough secret');

    const helper = uniqueName('helper');
    const promoted = await create({ ...account(helper), role: 'ADMIN' }, admin);
    expect(User.parse(promoted.json()).role).toBe('ADMIN');
  });

  it('answers 401 to anonymous and 403 to a regular or premium user, creating nothing', async () => {
    const username = uniqueName('nope');
    expect((await create(account(username))).statusCode).toBe(401);
    for (const user of [await makeUser(t), await makeUser(t, { premium: true })]) {
      const response = await create({ ...account(username), role: 'ADMIN' }, user);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response.body).message).toBe(ServerMessages.forbidden);
    }
    expect(await roleOf(t, username)).toBeUndefined();
  });

  it('answers 409 for a taken username or email and 400 for invalid fields, like registration', async () => {
    const admin = await makeAdmin(t);
    const taken = await create({ ...account(admin.username.toUpperCase()) }, admin);
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken.body)).toMatchObject({ message: ServerMessages.usernameTaken, field: 'username' });
    const takenEmail = await create({ ...account(uniqueName('x')), email: admin.email.toUpperCase() }, admin);
    expect(takenEmail.statusCode).toBe(409);
    expect(errorOf(takenEmail.body)).toMatchObject({ message: ServerMessages.emailTaken, field: 'email' });
    for (const [payload, field] of [
      [{ ...account('ab') }, 'username'],
      [{ ...account(uniqueName('y')), email: 'not-an-email' }, 'email'],
      [{ ...account(uniqueName('y')), password: 'short' }, 'password'],
      [{ ...account(uniqueName('y')), role: 'ROOT' }, 'role'],
    ] as const) {
      const response = await create(payload, admin);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(response.body).field).toBe(field);
    }
  });
});
