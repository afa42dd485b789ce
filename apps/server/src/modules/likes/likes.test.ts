import { Song } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asAdmin, asUser, createTestApp, testDatabases, type TestApp, type TestUser } from '../../../test/harness.js';
import { createArtist, uploadSong } from '../songs/catalogue.fixtures.js';

const SongList = z.array(Song);

describe.each(testDatabases())('likes API (%s)', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let songA: number;
  let songB: number;
  let songC: number;

  const like = (who: TestUser | undefined, id: number, method: 'PUT' | 'DELETE' = 'PUT') =>
    t.app.inject({ method, url: `/api/songs/${id}/like`, ...(who ? { headers: who.headers } : {}) });
  const list = async (who: TestUser, url = '/api/songs') => {
    const response = await t.app.inject({ method: 'GET', url, headers: who.headers });
    expect(response.statusCode, response.body).toBe(200);
    return SongList.parse(response.json());
  };
  const likedIds = async (who: TestUser) =>
    (await list(who))
      .filter((s) => s.likeSong)
      .map((s) => s.id)
      .sort();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await asAdmin(t);
    alice = await asUser(t);
    bob = await asUser(t);
    const artistId = await createArtist(t.app, admin.cookie, 'Heart Strings');
    songA = await uploadSong(t.app, admin.cookie, { artistId }, t.db);
    songB = await uploadSong(t.app, admin.cookie, { artistId }, t.db);
    songC = await uploadSong(t.app, admin.cookie, { artistId }, t.db);
  });

  afterAll(async () => {
    await t.close();
  });

  it('needs a session: 401 for like, unlike and the liked list', async () => {
    expect((await like(undefined, songA)).statusCode).toBe(401);
    expect((await like(undefined, songA, 'DELETE')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/songs/liked' })).statusCode).toBe(401);
  });

  it('likeSong reflects the caller only', async () => {
    expect((await like(alice, songA)).statusCode).toBe(204);
    expect((await like(alice, songB)).statusCode).toBe(204);
    expect((await like(bob, songC)).statusCode).toBe(204);
    expect(await likedIds(alice)).toEqual([songA, songB].sort());
    expect(await likedIds(bob)).toEqual([songC]);
    expect(await likedIds(admin)).toEqual([]);
    const one = await t.app.inject({ method: 'GET', url: `/api/songs/${songA}`, headers: bob.headers });
    expect(Song.parse(one.json()).likeSong).toBe(false);
    const mine = await t.app.inject({ method: 'GET', url: `/api/songs/${songA}`, headers: alice.headers });
    expect(Song.parse(mine.json()).likeSong).toBe(true);
  });

  it('is idempotent both ways', async () => {
    expect((await like(alice, songA)).statusCode).toBe(204);
    expect(await likedIds(alice)).toEqual([songA, songB].sort());
    expect((await like(alice, songB, 'DELETE')).statusCode).toBe(204);
    expect((await like(alice, songB, 'DELETE')).statusCode).toBe(204);
    expect(await likedIds(alice)).toEqual([songA]);
  });

  it('GET /api/songs/liked lists the caller’s liked songs, most recent first, with paging', async () => {
    await like(alice, songC);
    const liked = await list(alice, '/api/songs/liked');
    expect(liked.map((s) => s.id)).toEqual([songC, songA]);
    expect(liked.every((s) => s.likeSong)).toBe(true);
    expect((await list(alice, '/api/songs/liked?limit=1')).map((s) => s.id)).toEqual([songC]);
    expect((await list(alice, '/api/songs/liked?limit=1&offset=1')).map((s) => s.id)).toEqual([songA]);
    expect((await list(bob, '/api/songs/liked')).map((s) => s.id)).toEqual([songC]);
  });

  it('answers 404 for a song that does not exist, 400 for a bad id', async () => {
    expect((await like(alice, 999999)).statusCode).toBe(404);
    expect((await like(alice, 999999, 'DELETE')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: '/api/songs/x/like', headers: alice.headers })).statusCode).toBe(
      400,
    );
  });

  it('drops the likes of a deleted song', async () => {
    await like(bob, songB);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/songs/${songB}`, headers: admin.headers })).statusCode,
    ).toBe(200);
    expect((await list(bob, '/api/songs/liked')).map((s) => s.id)).toEqual([songC]);
  });
});
