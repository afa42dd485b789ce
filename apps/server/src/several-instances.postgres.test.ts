/**
 * Several instances (issue 14): two built Tonearm servers on one PostgreSQL database and one S3 bucket, with nginx
 * round-robin in front, as an operator scales out. Each check is made through nginx and through each instance
 * directly: what one instance did, the other knows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtServer, startInstance, startNginx, stopProcess, type Instance, type Nginx } from '../test/cluster.js';
import { emptyPostgresDatabase } from '../test/harness.js';
import { picture, toneWav } from '../test/media.js';
import { startS3Server } from '../test/s3-server.js';

const PASSWORD = 'correct horse battery staple';
/** AUTH_ACCOUNT_LIMIT of both instances: failed sign-ins per account in 15 minutes. */
const ACCOUNT_LIMIT = 4;

/** The blob store both instances share: one bucket on a real S3-compatible server (s3rver), as a scaled-out setup has. */
async function sharedStorage(): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const server = await startS3Server();
  return { env: server.env, stop: () => server.stop() };
}

/** Each instance's own DATA_DIR (its transcode cache and temp files); nothing in it is shared. */
async function ownDataDir(cleanups: (() => Promise<void>)[]): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-instance-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

interface Call {
  cookie?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

function call(base: string, method: string, url: string, { cookie, json, form, headers = {} }: Call = {}) {
  return fetch(`${base}${url}`, {
    method,
    headers: {
      ...headers,
      ...(cookie === undefined ? {} : { cookie }),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: form ?? (json === undefined ? undefined : JSON.stringify(json)),
  });
}

async function register(base: string, username: string): Promise<number> {
  const answer = await call(base, 'POST', '/api/auth/register', {
    json: { username, email: `${username}@example.test`, password: PASSWORD },
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Signs in; answers the status and the session cookie (`name=value`) when there is one. */
async function signIn(
  base: string,
  username: string,
  password = PASSWORD,
): Promise<{ status: number; cookie: string }> {
  const answer = await call(base, 'POST', '/api/auth/login', { json: { username, password } });
  await answer.arrayBuffer();
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('tonearm_session=')) ?? '';
  return { status: answer.status, cookie: cookie.split(';')[0] ?? '' };
}

/** The first 16 bytes of an audio blob as `cookie` gets them: the status and the bytes. */
async function streamStart(base: string, link: string, cookie: string): Promise<{ status: number; bytes: Buffer }> {
  const answer = await call(base, 'GET', link, { cookie, headers: { range: 'bytes=0-15' } });
  return { status: answer.status, bytes: Buffer.from(await answer.arrayBuffer()) };
}

/** How long until `base` refuses `link` to `cookie` (polled every 20 ms), or Infinity after 3 s. */
async function msUntilRefused(base: string, link: string, cookie: string, since: number): Promise<number> {
  while (Date.now() - since < 3000) {
    if ((await streamStart(base, link, cookie)).status === 401) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number.POSITIVE_INFINITY;
}

describe('two instances behind nginx on one PostgreSQL and one blob store', () => {
  const cleanups: (() => Promise<void>)[] = [];
  let one: Instance;
  let other: Instance;
  let nginx: Nginx;
  /** nginx, then each instance directly. */
  let ways: string[];
  let admin: { username: string; cookie: string };

  beforeAll(async () => {
    await builtServer();
    // Throws when the run has no PostgreSQL: several instances need one.
    const database = await emptyPostgresDatabase();
    cleanups.push(database.drop);
    const storage = await sharedStorage();
    cleanups.push(storage.stop);
    const env = {
      ...storage.env,
      DATABASE_URL: database.databaseUrl,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DEMO: '0',
      // Both instances decrypt the Subsonic app passwords the other stored.
      SECRET_KEY: randomBytes(32).toString('hex'),
      // nginx on this machine is trusted: the address it forwards for is the client's.
      TRUST_PROXY: '127.0.0.1',
      AUTH_RATE_LIMIT: '1000',
      AUTH_ACCOUNT_LIMIT: String(ACCOUNT_LIMIT),
    };
    // Together, as an operator's service manager starts them: migrations and the start-up sweep meet.
    const [oneDir, otherDir] = [await ownDataDir(cleanups), await ownDataDir(cleanups)];
    [one, other] = await Promise.all([
      startInstance({ ...env, DATA_DIR: oneDir }),
      startInstance({ ...env, DATA_DIR: otherDir }),
    ]);
    cleanups.push(
      () => stopProcess(one),
      () => stopProcess(other),
    );
    nginx = await startNginx([one.base, other.base]);
    cleanups.push(() => nginx.stop());
    ways = [nginx.base, one.base, other.base];
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('concurrent first registrations, through nginx and on each instance, make exactly one administrator', async () => {
    const names = ways.flatMap((_, i) => [`first_${i}_a`, `first_${i}_b`]);
    const statuses = await Promise.all(names.map((name, i) => register(ways[i % ways.length] ?? '', name)));
    expect(statuses).toEqual(names.map(() => 201));
    // Whoever won, every instance sees the same single administrator.
    const admins = [];
    for (const base of ways) {
      for (const name of names) {
        const session = await signIn(base, name);
        expect(session.status).toBe(200);
        const me = await call(base, 'GET', '/api/auth/me', { cookie: session.cookie });
        if (((await me.json()) as { role: string }).role === 'ADMIN')
          admins.push({ base, name, cookie: session.cookie });
      }
    }
    expect(new Set(admins.map((found) => found.name)).size).toBe(1);
    expect(admins).toHaveLength(ways.length);
    const [first] = admins;
    admin = { username: first?.name ?? '', cookie: first?.cookie ?? '' };
  });

  it('a song uploaded through one instance plays through the other and through nginx', async () => {
    const audio = toneWav(523, 0.5);
    const link = await uploadSong(one.base, audio);
    const { cookie } = await signIn(other.base, 'first_0_a');
    // Twice through nginx: round robin reaches both instances.
    for (const base of [other.base, nginx.base, nginx.base]) {
      const played = await streamStart(base, link, cookie);
      expect(played.status).toBe(206);
      expect(played.bytes).toEqual(audio.subarray(0, 16));
    }
    // And the other way round.
    const second = toneWav(659, 0.5);
    const secondLink = await uploadSong(other.base, second);
    expect((await streamStart(one.base, secondLink, cookie)).bytes).toEqual(second.subarray(0, 16));
  });

  it('signed in through one instance and streaming through the other: a logout stops it within 1 s', async () => {
    const link = await uploadSong(nginx.base, toneWav(784, 0.5));
    const { cookie } = await signIn(one.base, 'first_1_a');
    // Streaming through the other instance and nginx (both instances now hold the session in their cache).
    for (const base of [other.base, nginx.base, nginx.base])
      expect((await streamStart(base, link, cookie)).status).toBe(206);
    expect((await call(one.base, 'POST', '/api/auth/logout', { cookie })).status).toBe(204);
    // Counted from the answer: the session is gone once the logout has been answered.
    expect(await msUntilRefused(other.base, link, cookie, Date.now())).toBeLessThan(1000);
    for (const base of ways) expect((await streamStart(base, link, cookie)).status).toBe(401);
    expect((await call(other.base, 'GET', '/api/auth/me', { cookie })).status).toBe(401);
  });

  it('a password change on one instance ends the sessions streaming through the other within 1 s', async () => {
    const link = await uploadSong(nginx.base, toneWav(880, 0.5));
    const username = 'first_1_b';
    const here = await signIn(one.base, username);
    const there = await signIn(other.base, username);
    expect((await streamStart(other.base, link, there.cookie)).status).toBe(206);
    const me = (await (await call(one.base, 'GET', '/api/auth/me', { cookie: here.cookie })).json()) as { id: number };
    const answer = await call(one.base, 'PUT', `/api/users/${me.id}`, {
      cookie: here.cookie,
      json: { password: 'a brand new passphrase', currentPassword: PASSWORD },
    });
    expect(answer.status).toBe(200);
    // Counted from the answer, not from before the request: the change hashes the new password first (argon2, slow
    // on a loaded machine), and only then ends the sessions.
    expect(await msUntilRefused(other.base, link, there.cookie, Date.now())).toBeLessThan(1000);
    // The session that changed it stays.
    expect((await streamStart(other.base, link, here.cookie)).status).toBe(206);
  });

  it('the failed sign-ins of an account count across both instances', async () => {
    const username = 'first_2_a';
    const statuses = [];
    for (let i = 0; i < ACCOUNT_LIMIT + 2; i += 1) {
      statuses.push((await signIn(ways[i % ways.length] ?? '', username, `wrong guess ${i}`)).status);
    }
    expect(statuses).toEqual([...Array.from({ length: ACCOUNT_LIMIT }, () => 401), 429, 429]);
    // Locked everywhere, even with the right password.
    for (const base of ways) expect((await signIn(base, username)).status).toBe(429);
  });

  /** Uploads a song (with a new artist) through `base` as the administrator; answers its audio link's path. */
  async function uploadSong(base: string, audio: Buffer): Promise<string> {
    const artistForm = new FormData();
    artistForm.set('name', `Artist ${randomBytes(4).toString('hex')}`);
    const artist = await call(base, 'POST', '/artists', { cookie: admin.cookie, form: artistForm });
    expect(artist.status).toBe(201);
    const { id: artistId } = (await artist.json()) as { id: number };
    const form = new FormData();
    form.set('name', `Song ${randomBytes(4).toString('hex')}`);
    form.set('genre', 'Pop');
    form.set('artistId', String(artistId));
    form.set('songFile', new Blob([audio], { type: 'audio/wav' }), 'song.wav');
    form.set('imageFile', new Blob([await picture(audio.length % 200)], { type: 'image/png' }), 'cover.png');
    const song = await call(base, 'POST', '/api/songs', { cookie: admin.cookie, form });
    expect(song.status, await song.clone().text()).toBe(201);
    const list = await call(base, 'GET', '/api/songs', { cookie: admin.cookie });
    const songs = (await list.json()) as { name: string; link: string }[];
    const added = songs.find((entry) => entry.name === form.get('name'));
    if (added === undefined) throw new Error('the uploaded song is not listed');
    return new URL(added.link, base).pathname;
  }
});
