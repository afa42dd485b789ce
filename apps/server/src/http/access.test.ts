import { createApiKeysRepository } from '../modules/subsonic/api-keys.repository.js';
import { createAppPasswordsRepository } from '../modules/subsonic/app-passwords.repository.js';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessLevels, type Access } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { insertPlaylist, insertSongs, insertUser } from '../../test/factories.js';
import { createTestApp } from '../../test/harness.js';
import { startScrobbleServer, type ScrobbleServer } from '../../test/scrobble-server.js';
import type { RouteEntry } from './route-table.js';

/**
 * The access matrix (issue 9): every registered route × {anonymous, user (the owner), other user, premium, admin}.
 * Each route must declare a level, and no caller below that level may get further than the declaration allows:
 * 401 without a session, 403 below the role, 404 for another user's resource (exactly like a missing one).
 */

type Caller = 'anonymous' | 'user' | 'other' | 'premium' | 'admin';
const CALLERS: readonly Caller[] = ['anonymous', 'other', 'premium', 'user', 'admin'];

/** What a caller below the declared level must get; null when the level lets the caller in. */
function refusal(level: Access, caller: Caller): number | null {
  if (level === 'public') return null;
  if (caller === 'anonymous') return 401;
  if (level === 'admin') return caller === 'admin' ? null : 403;
  if (level === 'premium') return caller === 'premium' || caller === 'admin' ? null : 403;
  if (level === 'owner') return caller === 'user' || caller === 'admin' ? null : 404;
  return null;
}

/** Statuses that would mean "refused" to a caller the declaration lets in. */
function wronglyRefused(level: Access, caller: Caller, status: number): boolean {
  if (status === 401 || status === 403) return true;
  // The owner reaches their own resource; an admin may still find a buyer-only action (demo payment) "not found".
  return level === 'owner' && caller === 'user' && status === 404;
}

interface Fixture {
  userId: number;
  username: string;
  playlistId: number;
  songId: number;
  artistId: number;
  orderId: number;
  albumId: number;
  apiKeyId: number;
  libraryId: number;
  /** A web client of the user (issue 27's devices). */
  deviceId: number;
  /** An empty folder no library holds yet (POST /api/libraries). */
  folder: string;
}

/** The concrete path of a route for a fixture: every id names something the fixture's user owns (or a catalogue row). */
function concretePath(url: string, f: Fixture): string {
  const resource = (name: string): string => {
    if (name === 'username') return f.username;
    // The Subsonic API (public to the guard: its credentials are parameters, checked by the module).
    if (name === 'method') return 'ping';
    if (name === 'keyId') return String(f.apiKeyId);
    if (name === 'key') return `${'a'.repeat(64)}.mp3`;
    if (name === 'playlistId') return String(f.playlistId);
    if (name === 'songId') return String(f.songId);
    if (name === 'libraryId') return String(f.libraryId);
    if (name === 'deviceId') return String(f.deviceId);
    if (name === 'service') return 'listenbrainz';
    if (name === 'year') return '2026';
    if (url.startsWith('/api/users/') || url.startsWith('/api/playlists/user/')) return String(f.userId);
    if (url.startsWith('/api/playlists/') || url.startsWith('/api/songs/playlistId/')) return String(f.playlistId);
    if (url.startsWith('/api/payment/')) return String(f.orderId);
    if (url.startsWith('/artists/') || url.startsWith('/api/artists/')) return String(f.artistId);
    if (url.startsWith('/api/albums/')) return String(f.albumId);
    if (url.startsWith('/api/songs/')) return String(f.songId);
    throw new Error(`No fixture for :${name} in ${url}`);
  };
  return url.replace(/:(\w+)/g, (_match, name: string) => resource(name));
}

/** A valid body where the route has one, so that what answers is the access rule rather than body validation. */
function bodyFor(url: string, f: Fixture): object {
  if (url.endsWith('/order')) return { songIds: [f.songId] };
  if (url.startsWith('/api/payment/demo/')) return { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' };
  if (url === '/api/payment/checkout') return { plan: 'monthly' };
  if (url === '/api/plays') return { songId: f.songId };
  if (url === '/api/radio/next') return { seedIds: [f.songId], historyIds: [], count: 5 };
  if (url.endsWith('/api-keys')) return { name: 'Phone' };
  if (url.startsWith('/api/users/')) return { address: 'Somewhere' };
  if (url === '/api/libraries') return { path: f.folder };
  if (url.endsWith('/access')) return { everyone: true, memberIds: [] };
  // Valid LRC: an administrator's PUT saves it (200); anyone else is refused before the body is read.
  if (url.endsWith('/lyrics')) return { text: '[00:01.00]Access' };
  // Devices (issue 27): the owner's calls succeed (a transfer without a queue is a 409); anyone else's device is a 404.
  if (url === '/api/devices/:deviceId') return { name: 'Kitchen' };
  if (url.endsWith('/playback')) return { state: 'paused', songId: f.songId, positionMs: 1000, volume: 0.5 };
  if (url.endsWith('/commands')) return { type: 'pause' };
  // Scrobbling (issue 28): checked with the (local) service, which refuses them: 400, nothing kept.
  if (url === '/api/scrobbling/listenbrainz') return { token: 'access-token' };
  if (url === '/api/scrobbling/lastfm') return { apiKey: 'k', secret: 's', sessionKey: 'sk' };
  // Ratings (issue 28): any signed-in user rates the catalogue's song, album or artist for themselves.
  if (url.endsWith('/rating')) return { rating: 3 };
  // Smart playlists (issue 28): the fixture's playlist is not smart, so its owner's rules edit is a 409.
  const rules = { match: 'all', rules: [{ field: 'genre', op: 'is', value: 'Rock' }] };
  if (url.startsWith('/api/playlists/') && url.includes('smart'))
    return { name: 'Smart', definition: { rules, sort: { field: 'year', direction: 'asc' }, limit: null } };
  return {};
}

function levelOf(route: RouteEntry): Access {
  const level = AccessLevels.find((known) => known === route.config.access);
  if (level === undefined) throw new Error(`${route.url} declares no access`);
  return level;
}

/** ListenBrainz and Last.fm on this machine (test/scrobble-server.ts): they refuse the fixture's credentials (400). */
let scrobbleServer: ScrobbleServer | undefined;
afterAll(async () => {
  await scrobbleServer?.close();
});

describeEachDialect(
  'access matrix on %s',
  {
    prepare: async () => {
      scrobbleServer ??= await startScrobbleServer();
      return {
        env: {
          PAYMENT_PROVIDER: 'demo',
          LISTENBRAINZ_API_URL: scrobbleServer.listenBrainzUrl,
          LASTFM_API_URL: scrobbleServer.lastFmUrl,
        },
      };
    },
  },
  (t) => {
    const ids: Partial<Record<Caller, number>> = {};
    const folders: string[] = [];

    afterAll(async () => {
      await t.composition.services.libraries.settled();
      await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    });

    /** A fresh session cookie (straight from the session store: no password hashing per request). */
    async function cookieOf(userId: number): Promise<string> {
      const { token } = await t.app.sessionStore.create(userId);
      return `tonearm_session=${token}`;
    }

    /** A library over an empty folder of its own, and another folder no library holds. */
    async function libraryFixture(): Promise<Pick<Fixture, 'libraryId' | 'folder'>> {
      const library = await mkdtemp(path.join(tmpdir(), 'tonearm-access-library-'));
      folders.push(library);
      const { id } = await t.db
        .insertInto('libraries')
        .values({ name: path.basename(library), path: library, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const folder = await mkdtemp(path.join(tmpdir(), 'tonearm-access-folder-'));
      folders.push(folder);
      return { libraryId: id, folder };
    }

    /** A user owning a private playlist (with a song) and a pending order, plus an artist. */
    async function freshFixture(): Promise<Fixture> {
      const user = await insertUser(t);
      const [song] = await insertSongs(t, 1);
      if (song === undefined) throw new Error('no song');
      const now = new Date().toISOString();
      const playlistId = await insertPlaylist(t, {
        ownerId: user.id,
        name: 'Mine',
        type: 'Mix',
        isPublic: false,
        songIds: [song.id],
      });
      const order = await t.db
        .insertInto('orders')
        .values({
          user_id: user.id,
          plan: 'monthly',
          amount_cents: 499,
          currency: 'EUR',
          provider: 'demo',
          provider_ref: null,
          status: 'pending',
          created_at: now,
          paid_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const artist = await t.db
        .insertInto('artists')
        .values({ name: `Artist ${randomBytes(4).toString('hex')}`, image_key: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const album = await t.db
        .insertInto('albums')
        .values({ name: `Album ${randomBytes(4).toString('hex')}`, artist_id: artist.id, year: null, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const apiKey = await createApiKeysRepository(t.db).insert(user.id, 'Phone', randomBytes(32).toString('hex'), now);
      const device = await t.db
        .insertInto('devices')
        .values({
          user_id: user.id,
          key: `web:${randomBytes(8).toString('hex')}`,
          kind: 'web',
          name: 'Laptop',
          created_at: now,
          last_seen_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // An app password to revoke (`DELETE /api/users/:id/subsonic-password` answers 404 when there is none).
      await createAppPasswordsRepository(t.db).setSecret(user.id, 'v1:sealed-elsewhere');
      return {
        userId: user.id,
        username: user.username,
        playlistId,
        songId: song.id,
        artistId: artist.id,
        orderId: order.id,
        albumId: album.id,
        apiKeyId: apiKey.id,
        deviceId: device.id,
        ...(await libraryFixture()),
      };
    }

    beforeAll(async () => {
      ids.other = (await insertUser(t)).id;
      ids.premium = (await insertUser(t, { premium: true })).id;
      ids.admin = (await insertUser(t, { role: 'ADMIN' })).id;
      await t.app.ready();
    });

    it('finds a declared access level on every registered route', () => {
      const routes = t.app.routeTable;
      expect(routes.length).toBeGreaterThan(40);
      const undeclared = routes.filter((route) => !AccessLevels.some((known) => known === route.config.access));
      expect(undeclared.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    });

    it('gives no caller more than the route declares', { timeout: 120_000 }, async () => {
      const failures: string[] = [];
      let checked = 0;
      for (const route of t.app.routeTable) {
        const level = levelOf(route);
        const method = route.method;
        const fixture = await freshFixture();
        const url = concretePath(route.url, fixture);
        for (const caller of CALLERS) {
          const userId = caller === 'user' ? fixture.userId : ids[caller];
          const session = userId === undefined ? null : { cookie: await cookieOf(userId) };
          const body = ['POST', 'PUT', 'PATCH'].includes(method) ? { payload: bodyFor(route.url, fixture) } : {};
          const response = await t.as(session).inject({ method, url, ...body });
          checked += 1;
          const expected = refusal(level, caller);
          const status = response.statusCode;
          if (status >= 500) failures.push(`${method} ${url} as ${caller}: ${status} ${response.body}`);
          else if (expected !== null && status !== expected) {
            failures.push(`${method} ${url} (${level}) as ${caller}: expected ${expected}, got ${status}`);
          } else if (expected === null && level !== 'public' && wronglyRefused(level, caller, status)) {
            failures.push(`${method} ${url} (${level}) as ${caller}: refused with ${status}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(200);
    });

    it('publishes each route’s access in OpenAPI: the session cookie where one is needed, and x-access', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
      interface Operation {
        security?: unknown[];
        'x-access'?: string;
      }
      const doc = response.json<{ paths: Record<string, Record<string, Operation>> }>();
      expect(doc.paths['/api/users']?.get).toMatchObject({ security: [{ session: [] }], 'x-access': 'admin' });
      expect(doc.paths['/api/payment/plans']?.get).toMatchObject({ security: [], 'x-access': 'public' });
      expect(doc.paths['/api/songs/{id}/download']?.get?.['x-access']).toBe('premium');
      expect(doc.paths['/api/playlists/{id}']?.get?.['x-access']).toBe('owner');
      expect(doc.paths['/api/playlists/{playlistId}/m3u8']?.get?.['x-access']).toBe('owner');
    });
  },
);

describe('a route without an access declaration', () => {
  it('stops the app from starting, naming the route', async () => {
    const t = await createTestApp('sqlite', { withoutBlobs: true });
    try {
      t.app.get('/api/undeclared', () => 'open');
      await expect(t.app.ready()).rejects.toThrow(/without an access declaration: GET \/api\/undeclared/);
    } finally {
      await t.close().catch(() => undefined);
    }
  });
});
