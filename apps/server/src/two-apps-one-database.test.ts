import { ServerMessages, Song } from '@tonearm/contract';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser } from '../test/factories.js';
import { DEFAULT_PASSWORD, errorOf, type TestApp } from '../test/harness.js';
import { clientOf, type Client } from '../test/client.js';
import { accelOf, GateClient, gateRequest } from '../test/gate-client.js';
import { freePort } from '../../../scripts/free-port.mjs';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { APP_LOCATION } from './modules/media/offload-gate.js';
import type { App } from './http/app-types.js';
import { SHARED_SESSION_CACHE_MS } from './sessions/session-store.js';

/**
 * A second app on the test app's database and blob store: what another instance of the server is, as far as the
 * database goes (its own memory: session cache, counters of its own on SQLite, setup code).
 */
async function secondInstance(
  t: TestApp,
  work: (other: { app: App; as: TestApp['as'] }) => Promise<void>,
  config: Config = t.config,
) {
  const app = await buildApp({ config, db: t.db, dialect: t.dialect, blobs: t.blobs });
  try {
    await work({ app, as: (caller) => clientOf(app, caller) });
  } finally {
    await app.close();
  }
}

/** A song (by a new artist) and a listener signed in on `t`. */
async function songAndListener(t: TestApp, artistName: string) {
  const admin = await makeAdmin(t);
  const songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, artistName) });
  return { song: await t.as(admin).json(`/api/songs/${songId}`, Song), listener: await makeUser(t) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function registerOn(client: Client, username: string) {
  return client.post('/api/auth/register', {
    username,
    email: `${username}@example.test`,
    password: DEFAULT_PASSWORD,
  });
}

function loginOn(client: Client, username: string, password: string) {
  return client.post('/api/auth/login', { username, password });
}

describeEachDialect('two instances on one database (%s)', { uses: 'nothing' }, (suite) => {
  it('concurrent first registrations on both make exactly one administrator', async () => {
    await suite.withApp({}, async (t) => {
      await secondInstance(t, async (other) => {
        const names = ['first_a', 'first_b', 'first_c', 'first_d', 'first_e', 'first_f'];
        const answers = await Promise.all(names.map((name, i) => registerOn((i % 2 === 0 ? t : other).as(null), name)));
        expect(answers.map((answer) => answer.statusCode)).toEqual(names.map(() => 201));
        const admins = await t.db.selectFrom('users').select('username').where('role', '=', 'ADMIN').execute();
        expect(admins).toHaveLength(1);
      });
    });
  });

  it('counts failed sign-ins of an account across both on PostgreSQL (each its own on SQLite, one process)', async () => {
    await suite.withApp({ env: { AUTH_ACCOUNT_LIMIT: '4' } }, async (t) => {
      const user = await makeUser(t);
      await secondInstance(t, async (other) => {
        const guesses = await Promise.all(
          Array.from({ length: 6 }, (_, i) => loginOn((i % 2 === 0 ? t : other).as(null), user.username, `guess ${i}`)),
        );
        const statuses = guesses.map((answer) => answer.statusCode).sort();
        if (t.dialect === 'postgres') {
          expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
          const locked = guesses.find((answer) => answer.statusCode === 429);
          expect(errorOf(locked?.body ?? '{}').message).toBe(ServerMessages.accountLocked);
          // The right password is refused on both while the account is locked.
          expect((await loginOn(t.as(null), user.username, DEFAULT_PASSWORD)).statusCode).toBe(429);
          expect((await loginOn(other.as(null), user.username, DEFAULT_PASSWORD)).statusCode).toBe(429);
        } else {
          expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
        }
      });
    });
  });

  it('counts the per-address sign-in rate limit across both on PostgreSQL', async () => {
    await suite.withApp({ env: { AUTH_RATE_LIMIT: '4' } }, async (t) => {
      await secondInstance(t, async (other) => {
        const answers = [];
        for (let i = 0; i < 6; i += 1) {
          answers.push(await loginOn((i % 2 === 0 ? t : other).as(null), `nobody_${i}`, 'whatever'));
        }
        const limited = answers.filter((answer) => answer.statusCode === 429).length;
        expect(limited).toBe(t.dialect === 'postgres' ? 2 : 0);
      });
    });
  });

  it('a logout on one stops /media on the other within the shared cache time (PostgreSQL)', async () => {
    await suite.withApp({}, async (t) => {
      const { song, listener } = await songAndListener(t, 'Shared Artist');
      await secondInstance(t, async (other) => {
        const range = { headers: { range: 'bytes=0-3' } };
        expect((await other.as(listener).get(song.link, range)).statusCode).toBe(206);
        expect((await t.as(listener).post('/api/auth/logout', {})).statusCode).toBe(204);
        // The instance that signed out refuses at once.
        expect((await t.as(listener).get(song.link, range)).statusCode).toBe(401);
        if (t.dialect === 'postgres') {
          await sleep(SHARED_SESSION_CACHE_MS + 50);
          expect((await other.as(listener).get(song.link, range)).statusCode).toBe(401);
        }
        // Every other authenticated call: this process's logout is seen at once (db/write-watch.ts), another
        // instance's within the shared cache time.
        expect((await other.as(listener).get('/api/auth/me')).statusCode).toBe(401);
      });
    });
  });
  it("a logout on one stops the other's offload gate within the shared cache time (PostgreSQL)", async () => {
    await suite.withApp({ env: { MEDIA_OFFLOAD: 'nginx' } }, async (t) => {
      const { song, listener } = await songAndListener(t, 'Gated Artist');
      const mediaOffload = t.config.mediaOffload;
      if (mediaOffload === null) throw new Error('MEDIA_OFFLOAD=nginx gave no offload');
      // The other instance is the one nginx asks, through its gate.
      const port = await freePort();
      const gated: Config = { ...t.config, mediaOffload: { ...mediaOffload, gate: { host: '127.0.0.1', port } } };
      await secondInstance(
        t,
        async (other) => {
          await other.app.ready();
          const client = await GateClient.open(port);
          try {
            const ask = async () => accelOf(await client.answer(gateRequest('GET', song.link, listener.cookie)));
            expect(await ask()).toMatch(new RegExp(`^${mediaOffload.prefix}audio/`));
            expect((await t.as(listener).post('/api/auth/logout', {})).statusCode).toBe(204);
            if (t.dialect === 'postgres') {
              await sleep(SHARED_SESSION_CACHE_MS + 50);
              // Back to Tonearm's HTTP server, which answers the 401.
              expect(await ask()).toBe(APP_LOCATION);
              expect((await other.as(listener).get(song.link)).statusCode).toBe(401);
            }
          } finally {
            client.destroy();
          }
        },
        gated,
      );
    });
  });
});
