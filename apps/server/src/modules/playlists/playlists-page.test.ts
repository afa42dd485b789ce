import { PlaylistPage, ServerMessages } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertPlaylist, insertSongs, makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { expectBadCursor, pageThrough, urlOf, type Query } from '../../../test/pages.js';

describeEachDialect('playlist pages (%s)', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  /** Ids of alice's and bob's playlists, oldest first. */
  const mine: number[] = [];
  const bobs: number[] = [];
  let songIds: number[];

  const names = ['Road trip', 'Chill', 'road WORK', 'Gym', '100% pure', 'Sleep', 'Roadhouse'];

  async function page(who: TestUser, query: Query): Promise<PlaylistPage> {
    const response = await t.as(who).get(urlOf('/api/playlists/page', query));
    expect(response.statusCode, response.body).toBe(200);
    return PlaylistPage.parse(response.json());
  }

  async function all(who: TestUser, query: Query) {
    const pages = await pageThrough((cursor) => page(who, { ...query, cursor }));
    return { ids: pages.flatMap((p) => p.items.map((playlist) => playlist.id)), pages };
  }

  const newestFirst = (ids: number[]) => [...ids].sort((a, b) => b - a);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
    songIds = (await insertSongs(t, 3)).map((song) => song.id);
    for (const name of names) {
      mine.push(await insertPlaylist(t, { ownerId: alice.id, name, isPublic: name === 'Gym', songIds }));
      if (bobs.length < 3) bobs.push(await insertPlaylist(t, { ownerId: bob.id, name: `Bob ${name}`, isPublic: true }));
    }
  });

  it('pages the caller’s own playlists newest first (the default scope), with their songs and the total', async () => {
    for (const limit of [1, 3, 50]) {
      const { ids, pages } = await all(alice, { limit });
      expect(ids).toEqual(newestFirst(mine));
      expect(pages.every((p) => p.total === mine.length && p.items.length <= limit)).toBe(true);
      expect(pages[0]?.items[0]?.songIds).toEqual(songIds);
    }
    expect((await all(bob, { scope: 'own', limit: 2 })).ids).toEqual(newestFirst(bobs));
  });

  it('narrows by name, ignoring case, taking the text literally', async () => {
    const road = await all(alice, { q: 'ROAD', limit: 2 });
    expect(road.ids).toEqual(newestFirst([mine[0], mine[2], mine[6]].map(Number)));
    expect(road.pages[0]?.total).toBe(3);
    expect((await all(alice, { q: '100%' })).ids).toEqual([mine[4]]);
    expect((await all(alice, { q: '%' })).ids).toEqual([mine[4]]);
    expect((await all(alice, { q: 'r_ad' })).ids).toEqual([]);
    expect((await all(alice, { q: '' })).ids).toEqual(newestFirst(mine));
  });

  it('pages every playlist for an administrator (scope=all) and refuses everyone else with 403', async () => {
    const everything = await all(admin, { scope: 'all', limit: 4 });
    const expected = await t.db.selectFrom('playlists').select('id').orderBy('id', 'desc').execute();
    expect(everything.ids).toEqual(expected.map((row) => row.id));
    expect((await all(admin, { scope: 'all', q: 'bob', limit: 1 })).ids).toEqual(newestFirst(bobs));
    const refused = await t.as(alice).get('/api/playlists/page?scope=all');
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused.body).message).toBe(ServerMessages.forbidden);
    expect((await t.as(null).get('/api/playlists/page')).statusCode).toBe(401);
  });

  it('refuses a cursor of another user, scope or name filter, and bad parameters, with 400', async () => {
    const first = await page(alice, { limit: 1 });
    const cursor = first.nextCursor ?? '';
    for (const [who, query] of [
      [bob, { cursor }],
      [admin, { scope: 'all', cursor }],
      [alice, { q: 'road', cursor }],
      [alice, { cursor: `${cursor.startsWith('A') ? 'B' : 'A'}${cursor.slice(1)}` }],
    ] as const) {
      expectBadCursor(await t.as(who).get(urlOf('/api/playlists/page', query)));
    }
    for (const query of [{ limit: 0 }, { limit: 501 }, { scope: 'mine' }, { q: 'x'.repeat(201) }]) {
      expect((await t.as(alice).get(urlOf('/api/playlists/page', query))).statusCode).toBe(400);
    }
  });
});
