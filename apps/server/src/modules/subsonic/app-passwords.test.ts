import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  AppPasswordStatus,
  CreatedApiKey,
  CreatedAppPassword,
  ServerMessages,
  SubsonicMessages,
} from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import type { TestApp } from '../../../test/harness.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { appPasswordContext } from './app-passwords.service.js';
import { KEY_FILE_NAME, SecretBox } from './secret-box.js';

interface Envelope {
  status: string;
  error?: { code: number; message: string };
  tokenInfo?: { username: string };
}

const envelopeOf = (response: LightMyRequestResponse): Envelope =>
  (JSON.parse(response.body) as { 'subsonic-response': Envelope })['subsonic-response'];

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const hexOf = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const PASSWORD_SHAPE = /^[a-km-np-z2-9]{4}(-[a-km-np-z2-9]{4}){5}$/;

const pathOf = (user: { id: number }) => `/api/users/${user.id}/subsonic-password`;

async function generate(t: TestApp, actor: TestUser, owner: { id: number }): Promise<string> {
  const response = await t.as(actor).post(pathOf(owner));
  expect(response.statusCode).toBe(201);
  return CreatedAppPassword.parse(response.json()).password;
}

/** A Subsonic call (JSON) with these credentials, from `address`. */
function rest(t: TestApp, query: Record<string, string>, address = '127.0.0.1', method = 'tokenInfo') {
  const search = new URLSearchParams({ f: 'json', ...query });
  return t.as(null).get(`/rest/${method}?${search.toString()}`, { remoteAddress: address });
}

async function expectCode(response: Promise<LightMyRequestResponse>, code: number, message: string): Promise<void> {
  const answer = await response;
  expect(answer.statusCode).toBe(200);
  expect(envelopeOf(answer)).toMatchObject({ status: 'failed', error: { code, message } });
}

async function expectSignedIn(response: Promise<LightMyRequestResponse>, username: string): Promise<void> {
  const answer = await response;
  expect(answer.statusCode).toBe(200);
  expect(envelopeOf(answer)).toMatchObject({ status: 'ok', tokenInfo: { username } });
}

describeEachDialect('Subsonic app passwords (%s)', (t) => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    alice = await makeUser(t);
    bob = await makeUser(t);
    admin = await makeAdmin(t);
  });

  describe('managing', () => {
    it('generates a readable random password, answered once, stored only sealed; again replaces it', async () => {
      expect(AppPasswordStatus.parse((await t.as(alice).get(pathOf(alice))).json())).toEqual({ exists: false });
      const first = await generate(t, alice, alice);
      expect(first).toMatch(PASSWORD_SHAPE);
      expect(AppPasswordStatus.parse((await t.as(alice).get(pathOf(alice))).json())).toEqual({ exists: true });
      const row = await t.db
        .selectFrom('users')
        .select('subsonic_secret')
        .where('id', '=', alice.id)
        .executeTakeFirstOrThrow();
      expect(row.subsonic_secret).toMatch(/^v1:/);
      expect(row.subsonic_secret).not.toContain(first.slice(0, 4));
      expect(JSON.stringify((await t.as(alice).get(pathOf(alice))).json())).not.toContain(first);

      const second = await generate(t, alice, alice);
      expect(second).not.toBe(first);
      await expectCode(rest(t, { u: alice.username, p: first }), 40, SubsonicMessages.wrongCredentials);
      await expectSignedIn(rest(t, { u: alice.username, p: second }), alice.username);
    });

    it('revokes with 204, then the password no longer signs in; revoking nothing is 404', async () => {
      const password = await generate(t, bob, bob);
      await expectSignedIn(rest(t, { u: bob.username, p: password }), bob.username);
      expect((await t.as(bob).delete(pathOf(bob))).statusCode).toBe(204);
      await expectCode(rest(t, { u: bob.username, p: password }), 40, SubsonicMessages.wrongCredentials);
      expect(AppPasswordStatus.parse((await t.as(bob).get(pathOf(bob))).json())).toEqual({ exists: false });
      expect((await t.as(bob).delete(pathOf(bob))).statusCode).toBe(404);
    });

    it('is the owner’s or an admin’s business: anyone else is told 404, nobody 401', async () => {
      const carol = await makeUser(t);
      await generate(t, carol, carol);
      for (const request of [
        () => t.as(bob).post(pathOf(carol)),
        () => t.as(bob).get(pathOf(carol)),
        () => t.as(bob).delete(pathOf(carol)),
      ]) {
        expect((await request()).statusCode).toBe(404);
      }
      expect((await t.as(null).post(pathOf(carol))).statusCode).toBe(401);
      expect((await t.as(null).get(pathOf(carol))).statusCode).toBe(401);
      // Bob's attempts changed nothing; the admin may read, replace and revoke.
      expect(AppPasswordStatus.parse((await t.as(admin).get(pathOf(carol))).json())).toEqual({ exists: true });
      const byAdmin = await generate(t, admin, carol);
      await expectSignedIn(rest(t, { u: carol.username, p: byAdmin }), carol.username);
      expect((await t.as(admin).delete(pathOf(carol))).statusCode).toBe(204);
      expect((await t.as(admin).post(pathOf({ id: 2_000_000 }))).statusCode).toBe(404);
      expect((await t.as(admin).get(pathOf({ id: 2_000_000 }))).statusCode).toBe(404);
    });
  });

  describe('signing in with it', () => {
    let dave: TestUser;
    let password: string;
    beforeAll(async () => {
      dave = await makeUser(t);
      password = await generate(t, dave, dave);
    });

    it('u+p: plain, or enc: with the hex of its UTF-8 (either case); the username in any case', async () => {
      await expectSignedIn(rest(t, { u: dave.username, p: password }), dave.username);
      await expectSignedIn(rest(t, { u: dave.username.toUpperCase(), p: password }), dave.username);
      await expectSignedIn(rest(t, { u: dave.username, p: `enc:${hexOf(password)}` }), dave.username);
      await expectSignedIn(rest(t, { u: dave.username, p: `enc:${hexOf(password).toUpperCase()}` }), dave.username);
      await expectCode(
        rest(t, { u: dave.username, p: `enc:${hexOf(password)}0` }),
        40,
        SubsonicMessages.wrongCredentials,
      );
      await expectCode(rest(t, { u: dave.username, p: 'enc:zz' }), 40, SubsonicMessages.wrongCredentials);
      await expectCode(rest(t, { u: dave.username, p: password.toUpperCase() }), 40, SubsonicMessages.wrongCredentials);
    });

    it('u+t+s: md5 of the password and the salt, in hex of either case', async () => {
      const salt = 'c19b2d';
      await expectSignedIn(rest(t, { u: dave.username, t: md5(password + salt), s: salt }), dave.username);
      await expectSignedIn(
        rest(t, { u: dave.username, t: md5(password + salt).toUpperCase(), s: salt }),
        dave.username,
      );
      await expectCode(
        rest(t, { u: dave.username, t: md5(password + salt), s: 'other' }),
        40,
        SubsonicMessages.wrongCredentials,
      );
      await expectCode(rest(t, { u: dave.username, t: 'not-hex', s: salt }), 40, SubsonicMessages.wrongCredentials);
      await expectCode(
        rest(t, { u: bob.username, t: md5(password + salt), s: salt }),
        40,
        SubsonicMessages.wrongCredentials,
      );
    });

    it('never the account’s login password, in any form', async () => {
      const salt = 'abc123';
      await expectCode(rest(t, { u: dave.username, p: dave.password }), 40, SubsonicMessages.wrongCredentials);
      await expectCode(
        rest(t, { u: dave.username, p: `enc:${hexOf(dave.password)}` }),
        40,
        SubsonicMessages.wrongCredentials,
      );
      await expectCode(
        rest(t, { u: dave.username, t: md5(dave.password + salt), s: salt }),
        40,
        SubsonicMessages.wrongCredentials,
      );
      expect(SubsonicMessages.wrongCredentials).toContain('not your login password');
    });

    it('answers the other methods as the signed-in user, in XML too', async () => {
      const xml = await t.as(null).get(`/rest/ping.view?u=${dave.username}&p=${password}`);
      expect(xml.body).toContain('status="ok"');
    });

    it('a value sealed under another key, or copied from another user, is wrong credentials (40), not a 500', async () => {
      const erin = await makeUser(t);
      const elsewhere = new SecretBox('another-key-another-key-another-key', t.dataDir);
      const foreign = await elsewhere.seal('aaaa-bbbb-cccc-dddd-eeee-ffff', appPasswordContext(erin.id));
      await t.db.updateTable('users').set({ subsonic_secret: foreign }).where('id', '=', erin.id).execute();
      await expectCode(
        rest(t, { u: erin.username, p: 'aaaa-bbbb-cccc-dddd-eeee-ffff' }),
        40,
        SubsonicMessages.wrongCredentials,
      );
      const daves = await t.db
        .selectFrom('users')
        .select('subsonic_secret')
        .where('id', '=', dave.id)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable('users')
        .set({ subsonic_secret: daves.subsonic_secret })
        .where('id', '=', erin.id)
        .execute();
      await expectCode(rest(t, { u: erin.username, p: password }), 40, SubsonicMessages.wrongCredentials);
      // Still stored: the profile says there is one, and generating again repairs it.
      expect(AppPasswordStatus.parse((await t.as(erin).get(pathOf(erin))).json())).toEqual({ exists: true });
      const fresh = await generate(t, erin, erin);
      await expectSignedIn(rest(t, { u: erin.username, p: fresh }), erin.username);
    });

    it('keeps the key in a 0600 file of the data directory when SECRET_KEY is not set', async () => {
      const file = path.join(t.dataDir, KEY_FILE_NAME);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});

describeEachDialect('Subsonic app passwords with SECRET_KEY (%s)', { uses: 'nothing' }, (t) => {
  it('uses SECRET_KEY and makes no key file', async () => {
    await t.withApp({ env: { SECRET_KEY: 's'.repeat(48) } }, async (app) => {
      const user = await makeUser(app);
      const password = await generate(app, user, user);
      await expectSignedIn(rest(app, { u: user.username, p: password }), user.username);
      await expect(stat(path.join(app.dataDir, KEY_FILE_NAME))).rejects.toThrow();
      const row = await app.db
        .selectFrom('users')
        .select('subsonic_secret')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      const box = new SecretBox('s'.repeat(48), app.dataDir);
      expect(await box.open(row.subsonic_secret ?? '', appPasswordContext(user.id))).toBe(password);
    });
  });
});

describeEachDialect('Subsonic sign-in limits (%s)', { uses: 'nothing' }, (t) => {
  const expectLimited = (response: LightMyRequestResponse, message: string) => {
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(envelopeOf(response)).toMatchObject({ status: 'failed', error: { code: 0, message } });
  };

  it('locks an account after AUTH_ACCOUNT_LIMIT failed u+p or u+t+s, from any address, even for the right password', async () => {
    await t.withApp({ env: { AUTH_ACCOUNT_LIMIT: '3' } }, async (app) => {
      const victim = await makeUser(app);
      const password = await generate(app, victim, victim);
      await expectCode(
        rest(app, { u: victim.username, p: 'wrong-one' }, '10.0.0.1'),
        40,
        SubsonicMessages.wrongCredentials,
      );
      await expectCode(
        rest(app, { u: victim.username.toUpperCase(), t: md5('wrong'), s: 'salt' }, '10.0.0.2'),
        40,
        SubsonicMessages.wrongCredentials,
      );
      await expectCode(
        rest(app, { u: victim.username, p: 'wrong-three' }, '10.0.0.3'),
        40,
        SubsonicMessages.wrongCredentials,
      );
      expectLimited(await rest(app, { u: victim.username, p: password }, '10.0.0.4'), ServerMessages.accountLocked);
      const salt = 'pepper';
      const xml = await app
        .as(null)
        .get(`/rest/ping.view?u=${victim.username}&t=${md5(password + salt)}&s=${salt}`, { remoteAddress: '10.0.0.5' });
      expect(xml.statusCode).toBe(429);
      expect(xml.headers['retry-after']).toBeDefined();
      expect(xml.body).toContain(`<error code="0" message="${ServerMessages.accountLocked}"/>`);

      // Another account, from an address that failed before, is not concerned; nor is the web login of the victim:
      // the counts are Subsonic's own, so an app left with a revoked password does not lock its owner out of the web.
      const bystander = await makeUser(app);
      const theirs = await generate(app, bystander, bystander);
      await expectSignedIn(rest(app, { u: bystander.username, p: theirs }, '10.0.0.1'), bystander.username);
      const web = await app.as(null).post('/api/auth/login', { username: victim.username, password: victim.password });
      expect(web.statusCode).toBe(200);
      // Unknown names are counted too (by name), as the web login counts them.
      for (let i = 0; i < 3; i += 1) {
        await expectCode(rest(app, { u: 'Nobody-Here', p: 'x' }, `10.0.1.${i}`), 40, SubsonicMessages.wrongCredentials);
      }
      expectLimited(await rest(app, { u: 'nobody-here', p: 'x' }, '10.0.1.9'), ServerMessages.accountLocked);
    });
  });

  it('a success before the limit clears the account’s count', async () => {
    await t.withApp({ env: { AUTH_ACCOUNT_LIMIT: '2' } }, async (app) => {
      const user = await makeUser(app);
      const password = await generate(app, user, user);
      for (let round = 0; round < 3; round += 1) {
        await expectCode(
          rest(app, { u: user.username, p: 'wrong' }, `10.0.2.${round}`),
          40,
          SubsonicMessages.wrongCredentials,
        );
        await expectSignedIn(rest(app, { u: user.username, p: password }, `10.0.2.${round}`), user.username);
      }
    });
  });

  it('limits an address after AUTH_RATE_LIMIT failed attempts a minute, API keys included, even for good credentials', async () => {
    await t.withApp({ env: { AUTH_RATE_LIMIT: '3', AUTH_ACCOUNT_LIMIT: '100' } }, async (app) => {
      const user = await makeUser(app);
      const created = await app.as(user).post(`/api/users/${user.id}/api-keys`, { name: 'Phone' });
      const key = CreatedApiKey.parse(created.json()).key;
      const password = await generate(app, user, user);
      const from = '10.0.3.1';
      // Successes do not count.
      for (let i = 0; i < 5; i += 1) await expectSignedIn(rest(app, { apiKey: key }, from), user.username);
      await expectCode(rest(app, { apiKey: 'not-a-key' }, from), 44, SubsonicMessages.invalidApiKey);
      await expectCode(rest(app, { u: user.username, p: 'wrong' }, from), 40, SubsonicMessages.wrongCredentials);
      await expectCode(
        rest(app, { u: 'someone-else', t: 'abc', s: 'def' }, from),
        40,
        SubsonicMessages.wrongCredentials,
      );
      expectLimited(await rest(app, { apiKey: key }, from), ServerMessages.rateLimited);
      expectLimited(await rest(app, { u: user.username, p: password }, from), ServerMessages.rateLimited);
      // Another address is not concerned.
      await expectSignedIn(rest(app, { apiKey: key }, '10.0.3.2'), user.username);
      await expectSignedIn(rest(app, { u: user.username, p: password }, '10.0.3.2'), user.username);
    });
  });
});
