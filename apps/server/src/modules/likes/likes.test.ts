import { Song } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';

const SongList = z.array(Song);

describeEachDialect('likes API (%s)', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let songA: number;
  let songB: number;
  let songC: number;

  const like = (who: TestUser | undefined, id: number, method: 'PUT' | 'DELETE' = 'PUT') =>
    t.as(who).inject({ method, url: `/api/songs/${id}/like` });
  const list = async (who: TestUser, url = '/api/songs') => {
    const response = await t.as(who).get(url);
    expect(response.statusCode, response.body).toBe(200);
    return SongList.parse(response.json());
  };
  const likedIds = async (who: TestUser) =>
    (await list(who))
      .filter((s) => s.likeSong)
      .map((s) => s.id)
      .sort();

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
    const artistId = await makeArtist(t, admin, 'Heart Strings');
    songA = await makeSong(t, admin, { artistId });
    songB = await makeSong(t, admin, { artistId });
    songC = await makeSong(t, admin, { artistId });
  });

  it('needs a session: 401 for like, unlike and the liked list', async () => {
    expect((await like(undefined, songA)).statusCode).toBe(401);
    expect((await like(undefined, songA, 'DELETE')).statusCode).toBe(401);
    expect((await t.as(null).get('/api/songs/liked')).statusCode).toBe(401);
  });

  it('likeSong reflects the caller only', async () => {
    expect((await like(alice, songA)).statusCode).toBe(204);
    expect((await like(alice, songB)).statusCode).toBe(204);
    expect((await like(bob, songC)).statusCode).toBe(204);
    expect(await likedIds(alice)).toEqual([songA, songB].sort());
    expect(await likedIds(bob)).toEqual([songC]);
    expect(await likedIds(admin)).toEqual([]);
    const one = await t.as(bob).get(`/api/songs/${songA}`);
    expect(Song.parse(one.json()).likeSong).toBe(false);
    const mine = await t.as(alice).get(`/api/songs/${songA}`);
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
    expect((await t.as(alice).put('/api/songs/x/like')).statusCode).toBe(400);
  });

  it('drops the likes of a deleted song', async () => {
    await like(bob, songB);
    expect((await t.as(admin).delete(`/api/songs/${songB}`)).statusCode).toBe(200);
    expect((await list(bob, '/api/songs/liked')).map((s) => s.id)).toEqual([songC]);
  });
});
