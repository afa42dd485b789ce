import { PAGE_LIMIT_DEFAULT, SHUFFLE_SEED_MAX, SongPage, type Song } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertPlaylist, insertSongs, makeAdmin, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { expectBadCursor, pageThrough, urlOf, type Query } from '../../../test/pages.js';
import { shuffleKey } from './shuffle-order.js';

const byId = (a: number, b: number) => a - b;

describeEachDialect('song pages (%s)', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  /** Songs of artist A (Pop, every third one Rock) and of artist B (Jazz). */
  let songsA: number[];
  let songsB: number[];
  let artistA: number;
  let artistB: number;

  async function page(who: TestUser, path: string, query: Query): Promise<SongPage> {
    const response = await t.as(who).get(urlOf(path, query));
    expect(response.statusCode, response.body).toBe(200);
    return SongPage.parse(response.json());
  }

  /** Every page from the first to the last; checks each page's size on the way. */
  async function pageAll(who: TestUser, path: string, query: Query, between?: (pagesSoFar: number) => Promise<void>) {
    const pages = await pageThrough((cursor) => page(who, path, { ...query, cursor }), between);
    const limit = Number(query.limit ?? PAGE_LIMIT_DEFAULT);
    expect(pages.every((p) => p.items.length <= limit)).toBe(true);
    return { ids: pages.flatMap((p) => p.items.map((song) => song.id)), pages };
  }

  const allSongs = () => [...songsA, ...songsB].sort(byId);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
    songsA = (await insertSongs(t, 60, 'Pages Artist A')).map((song) => song.id);
    songsB = (await insertSongs(t, 25, 'Pages Artist B')).map((song) => song.id);
    const artists = await t.db.selectFrom('artists').select(['id', 'name']).execute();
    artistA = artists.find((a) => a.name === 'Pages Artist A')?.id ?? 0;
    artistB = artists.find((a) => a.name === 'Pages Artist B')?.id ?? 0;
    await t.db.updateTable('songs').set({ genre: 'Jazz' }).where('artist_id', '=', artistB).execute();
    await t.db
      .updateTable('songs')
      .set({ genre: 'Rock' })
      .where(
        'id',
        'in',
        songsA.filter((_, i) => i % 3 === 0),
      )
      .execute();
  });

  describe('shuffled (the default order)', () => {
    it('pages the whole catalogue once for several page sizes, the same order for the same seed', async () => {
      const orders: number[][] = [];
      for (const limit of [1, 7, 50, 500]) {
        const { ids, pages } = await pageAll(alice, '/api/songs/page', { seed: 1234, limit });
        expect(new Set(ids).size).toBe(ids.length);
        expect([...ids].sort(byId)).toEqual(allSongs());
        expect(pages.every((p) => p.seed === 1234 && p.total === allSongs().length)).toBe(true);
        orders.push(ids);
      }
      for (const order of orders) expect(order).toEqual(orders[0]);
      expect(orders[0]).not.toEqual(allSongs());
    });

    it('picks a seed when none is sent, answers it, and carries it in the cursor', async () => {
      const first = await page(alice, '/api/songs/page', { limit: 10 });
      expect(first.seed).toEqual(expect.any(Number));
      const seed = first.seed ?? -1;
      expect(seed).toBeGreaterThanOrEqual(0);
      expect(seed).toBeLessThanOrEqual(SHUFFLE_SEED_MAX);
      // The next page without the seed continues the same order.
      const second = await page(alice, '/api/songs/page', { limit: 10, cursor: first.nextCursor ?? undefined });
      const whole = await page(alice, '/api/songs/page', { limit: 20, seed });
      expect([...first.items, ...second.items].map((s) => s.id)).toEqual(whole.items.map((s) => s.id));
      expect(second.seed).toBe(seed);
    });

    it('gives other seeds other orders, not rotations or shifts of one another', async () => {
      const one = (await page(alice, '/api/songs/page', { seed: 1, limit: 500 })).items.map((s) => s.id);
      const two = (await page(alice, '/api/songs/page', { seed: 2, limit: 500 })).items.map((s) => s.id);
      expect(one).not.toEqual(two);
      const successor = new Map(one.map((id, index) => [id, one[index + 1]]));
      const kept = two.filter((id, index) => successor.get(id) === two[index + 1]).length;
      expect(kept).toBeLessThan(10);
    });

    it('pages one artist, one genre, or both', async () => {
      const artist = await pageAll(alice, '/api/songs/page', { artistId: artistB, seed: 5, limit: 4 });
      expect([...artist.ids].sort(byId)).toEqual(songsB);
      expect(artist.pages[0]?.total).toBe(25);
      const rock = songsA.filter((_, i) => i % 3 === 0);
      const genre = await pageAll(alice, '/api/songs/page', { genre: 'Rock', seed: 5, limit: 6 });
      expect([...genre.ids].sort(byId)).toEqual(rock);
      expect(genre.pages[0]?.total).toBe(rock.length);
      const both = await page(alice, '/api/songs/page', { genre: 'Rock', artistId: artistB, seed: 5 });
      expect(both).toMatchObject({ items: [], total: 0, nextCursor: null });
      expect((await page(alice, '/api/songs/page', { genre: '', seed: 5 })).total).toBe(allSongs().length);
      const none = await page(alice, '/api/songs/page', { genre: 'Polka', seed: 5 });
      expect(none).toMatchObject({ items: [], total: 0, nextCursor: null });
    });

    it('neither repeats nor skips when a song is added and others deleted mid-way', async () => {
      const before = allSongs();
      const seen: number[] = [];
      let added = 0;
      let addedAfter = 0;
      const deleted: number[] = [];
      const { ids } = await pageAll(alice, '/api/songs/page', { seed: 777, limit: 9 }, async (pageNumber) => {
        if (pageNumber !== 3) return;
        seen.push(...(await page(alice, '/api/songs/page', { seed: 777, limit: 27 })).items.map((s) => s.id));
        addedAfter = seen.at(-1) ?? 0;
        added = await makeSong(t, admin, { artistId: artistA, name: 'Added mid-way' });
        // One song already listed and one still to come.
        const toCome = before.find((id) => !seen.includes(id)) ?? 0;
        for (const id of [seen[0] ?? 0, toCome]) {
          expect((await t.as(admin).delete(`/api/songs/${id}`)).statusCode).toBe(200);
          deleted.push(id);
        }
      });
      expect(new Set(ids).size).toBe(ids.length);
      const expected = before.filter((id) => id !== deleted[1]);
      if (shuffleKey(777, added) > shuffleKey(777, addedAfter)) expected.push(added);
      expect([...ids].sort(byId)).toEqual(expected.sort(byId));
      songsA = songsA.filter((id) => !deleted.includes(id)).concat(added);
    });
  });

  describe('newest first', () => {
    it('pages by id descending, whole or filtered, with the total', async () => {
      const all = await pageAll(alice, '/api/songs/page', { order: 'newest', limit: 8 });
      expect(all.ids).toEqual(allSongs().reverse());
      expect(all.pages.every((p) => p.total === allSongs().length && p.seed === null)).toBe(true);
      const artist = await pageAll(alice, '/api/songs/page', { order: 'newest', artistId: artistB, limit: 10 });
      expect(artist.ids).toEqual([...songsB].reverse());
      expect(artist.pages[0]?.total).toBe(songsB.length);
      const jazz = await pageAll(alice, '/api/songs/page', { order: 'newest', genre: 'Jazz', limit: 30 });
      expect(jazz.ids).toEqual([...songsB].reverse());
      expect(jazz.pages).toHaveLength(1);
    });
  });

  describe('sorted by a column (issue 26)', () => {
    const get = (who: TestUser, path: string, query: Query) => t.as(who).get(urlOf(path, query));
    type Column = 'title' | 'artist' | 'album' | 'genre' | 'added' | 'duration' | 'plays';
    const keyOf: Record<Column, (song: Song) => string | number> = {
      title: (song) => song.name.toLowerCase(),
      artist: (song) => song.artistName.toLowerCase(),
      album: (song) => (song.albumName ?? '').toLowerCase(),
      genre: (song) => song.genre,
      added: (song) => song.id,
      duration: (song) => song.durationMs ?? -1,
      plays: (song) => song.plays,
    };
    /** The songs as the server should sort them: by the column's key, then by id, both in the direction. */
    function expected(songs: readonly Song[], column: Column, direction: 'asc' | 'desc'): number[] {
      const sign = direction === 'asc' ? 1 : -1;
      return [...songs]
        .sort((a, b) => {
          const [ka, kb] = [keyOf[column](a), keyOf[column](b)];
          return sign * (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id);
        })
        .map((song) => song.id);
    }

    let songs: Song[];
    beforeAll(async () => {
      // Durations with many ties, and some unknown (null); play counts with many ties, most songs never played.
      for (const [index, id] of allSongs().entries()) {
        const duration = index % 7 === 0 ? null : (index % 4) * 60_000;
        const plays = index % 3 === 0 ? 0 : index % 5;
        await t.db
          .updateTable('songs')
          .set({ duration_ms: duration, play_count: plays })
          .where('id', '=', id)
          .execute();
      }
      songs = (await page(alice, '/api/songs/page', { order: 'newest', limit: 500 })).items;
      expect(songs).toHaveLength(allSongs().length);
    });

    it.each(['title', 'artist', 'album', 'genre', 'added', 'duration', 'plays'] as const)(
      'pages the catalogue by %s both ways, neither repeating nor skipping a song at any page size',
      async (column) => {
        for (const direction of ['asc', 'desc'] as const) {
          const want = expected(songs, column, direction);
          for (const limit of [1, 7, 500]) {
            const { ids, pages } = await pageAll(alice, '/api/songs/page', { order: column, direction, limit });
            expect(ids, `${column} ${direction} by ${limit}`).toEqual(want);
            expect(pages.every((p) => p.total === songs.length && p.seed === null)).toBe(true);
          }
        }
      },
    );

    it('sorts ascending by default, and one artist or one genre alone', async () => {
      const byTitle = await pageAll(alice, '/api/songs/page', { order: 'title', limit: 9 });
      expect(byTitle.ids).toEqual(expected(songs, 'title', 'asc'));
      const ofB = songs.filter((song) => song.artistId === artistB);
      const artist = await pageAll(alice, '/api/songs/page', {
        order: 'duration',
        direction: 'desc',
        artistId: artistB,
        limit: 4,
      });
      expect(artist.ids).toEqual(expected(ofB, 'duration', 'desc'));
      expect(artist.pages[0]?.total).toBe(ofB.length);
      const rock = songs.filter((song) => song.genre === 'Rock');
      const genre = await pageAll(alice, '/api/songs/page', { order: 'title', genre: 'Rock', limit: 6 });
      expect(genre.ids).toEqual(expected(rock, 'title', 'asc'));
    });

    it('sorts by plays most played first by default, each play recorded counting at once', async () => {
      expect(songs.some((song) => song.plays > 0)).toBe(true);
      const byPlays = await pageAll(alice, '/api/songs/page', { order: 'plays', limit: 11 });
      expect(byPlays.ids).toEqual(expected(songs, 'plays', 'desc'));
      const most = Math.max(...songs.map((song) => song.plays));
      const [unplayed] = songs.filter((song) => song.plays === 0).slice(-1);
      if (unplayed === undefined) throw new Error('no unplayed song');
      for (let play = 0; play <= most; play += 1) {
        expect((await t.as(bob).post('/api/plays', { songId: unplayed.id })).statusCode).toBe(204);
      }
      const first = await page(alice, '/api/songs/page', { order: 'plays', limit: 2 });
      expect(first.items[0]).toMatchObject({ id: unplayed.id, plays: most + 1 });
      // Its cursor pages on in the same order (the key travels in it), and refuses another direction.
      const rest = await page(alice, '/api/songs/page', { order: 'plays', limit: 500, cursor: first.nextCursor ?? '' });
      expect([...first.items, ...rest.items].map((song) => song.id)).toEqual(
        expected(
          songs.map((song) => (song.id === unplayed.id ? { ...song, plays: most + 1 } : song)),
          'plays',
          'desc',
        ),
      );
      expectBadCursor(
        await get(alice, '/api/songs/page', { order: 'plays', direction: 'asc', cursor: first.nextCursor ?? '' }),
      );
      await t.db.updateTable('songs').set({ play_count: 0 }).where('id', '=', unplayed.id).execute();
      await t.db.deleteFrom('plays').where('song_id', '=', unplayed.id).execute();
    });

    it('refuses a cursor of another order, direction or filter, and a direction that is not one', async () => {
      const first = await page(alice, '/api/songs/page', { order: 'title', limit: 3 });
      const cursor = first.nextCursor ?? '';
      expectBadCursor(await get(alice, '/api/songs/page', { order: 'title', direction: 'desc', cursor }));
      expectBadCursor(await get(alice, '/api/songs/page', { order: 'artist', cursor }));
      expectBadCursor(await get(alice, '/api/songs/page', { order: 'title', genre: 'Jazz', cursor }));
      expectBadCursor(await get(alice, '/api/songs/page', { order: 'newest', cursor }));
      const added = await page(alice, '/api/songs/page', { order: 'added', limit: 3 });
      expectBadCursor(
        await get(alice, '/api/songs/page', { order: 'added', direction: 'desc', cursor: added.nextCursor ?? '' }),
      );
      expectBadCursor(await get(alice, '/api/songs/page', { order: 'newest', cursor: added.nextCursor ?? '' }));
      expect((await get(alice, '/api/songs/page', { order: 'title', direction: 'up' })).statusCode).toBe(400);
    });
  });

  describe('search hits', () => {
    it('pages the ranked hits, the same as one big page, narrowed by artist', async () => {
      const whole = await page(alice, '/api/songs/page', { q: 'song', limit: 500 });
      expect(whole.total).toBe(whole.items.length);
      expect(whole.items.length).toBeGreaterThan(50);
      const paged = await pageAll(alice, '/api/songs/page', { q: 'song', limit: 7 });
      expect(paged.ids).toEqual(whole.items.map((s) => s.id));
      const artist = await pageAll(alice, '/api/songs/page', { q: 'song', artistId: artistB, limit: 10 });
      expect([...artist.ids].sort(byId)).toEqual(songsB);
      expect(artist.pages[0]?.total).toBe(songsB.length);
      const nothing = await page(alice, '/api/songs/page', { q: '%%' });
      expect(nothing).toMatchObject({ items: [], total: 0, nextCursor: null, seed: null });
    });
  });

  describe('liked songs', () => {
    it('pages the caller’s likes, most recent first, ties by song id, only theirs', async () => {
      const liked = songsB.slice(0, 12);
      // Three likes share each timestamp, so the song id breaks the ties.
      await t.db
        .insertInto('likes')
        .values(
          liked.map((songId, index) => ({
            user_id: bob.id,
            song_id: songId,
            created_at: `2026-01-01T00:00:0${Math.floor(index / 3)}.000Z`,
          })),
        )
        .execute();
      const expected = liked
        .map((id, index) => ({ id, at: Math.floor(index / 3) }))
        .sort((a, b) => b.at - a.at || b.id - a.id)
        .map((like) => like.id);
      for (const limit of [1, 5, 12]) {
        const { ids, pages } = await pageAll(bob, '/api/songs/liked/page', { limit });
        expect(ids).toEqual(expected);
        expect(pages.every((p) => p.total === 12 && p.items.every((s) => s.likeSong))).toBe(true);
      }
      expect((await page(alice, '/api/songs/liked/page', {})).total).toBe(0);
      expect((await t.as(null).get('/api/songs/liked/page')).statusCode).toBe(401);
    });
  });

  describe('a playlist’s songs', () => {
    let playlist: number;
    let order: number[];

    beforeAll(async () => {
      order = [...songsA.slice(0, 23)].reverse();
      playlist = await insertPlaylist(t, { ownerId: alice.id, name: 'Paged', isPublic: false, songIds: order });
    });

    it('pages in playlist order, with the viewer’s playlist ids', async () => {
      for (const limit of [1, 5, 23, 50]) {
        const { ids, pages } = await pageAll(alice, `/api/playlists/${playlist}/songs`, { limit });
        expect(ids).toEqual(order);
        expect(pages.every((p) => p.total === 23 && p.items.every((s) => s.playlistIds.includes(playlist)))).toBe(true);
      }
    });

    it('skips nothing when an earlier song is removed between pages', async () => {
      const removed = order[1] ?? 0;
      const { ids } = await pageAll(alice, `/api/playlists/${playlist}/songs`, { limit: 5 }, async (pageNumber) => {
        if (pageNumber === 1) {
          expect((await t.as(alice).delete(`/api/playlists/${playlist}/songs/${removed}`)).statusCode).toBe(200);
        }
      });
      expect(ids).toEqual(order);
      order = order.filter((id) => id !== removed);
    });

    it('answers its owner and admins, 404 to others while it is private, and everyone once public', async () => {
      expect((await t.as(admin).get(`/api/playlists/${playlist}/songs`)).statusCode).toBe(200);
      expect((await t.as(bob).get(`/api/playlists/${playlist}/songs`)).statusCode).toBe(404);
      expect((await t.as(bob).get('/api/playlists/999999/songs')).statusCode).toBe(404);
      expect((await t.as(null).get(`/api/playlists/${playlist}/songs`)).statusCode).toBe(401);
      await t.db.updateTable('playlists').set({ is_public: 1 }).where('id', '=', playlist).execute();
      const shown = await page(bob, `/api/playlists/${playlist}/songs`, { limit: 100 });
      expect(shown.items.map((s) => s.id)).toEqual(order);
      expect(shown.items.every((s) => s.playlistIds.length === 0)).toBe(true);
    });
  });

  describe('bad cursors and limits', () => {
    const get = (who: TestUser, path: string, query: Query) => t.as(who).get(urlOf(path, query));

    async function refused(who: TestUser, path: string, query: Query) {
      const response = await get(who, path, query);
      expect(response.statusCode, response.body).toBe(400);
    }

    it('refuses garbage, edited, too long and foreign cursors with 400', async () => {
      const first = await page(alice, '/api/songs/page', { seed: 9, limit: 2 });
      const cursor = first.nextCursor ?? '';
      // One character of the seal, and one of the key, changed.
      const swap = (at: number) => `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
      for (const bad of ['abc', 'A', swap(0), swap(14), '!!!!', 'a'.repeat(600)]) {
        expectBadCursor(await get(alice, '/api/songs/page', { seed: 9, cursor: bad }));
      }
      // Another list, other filters, another seed, another user's list, another search.
      expectBadCursor(await get(alice, '/api/songs/page', { order: 'newest', cursor }));
      expectBadCursor(await get(alice, '/api/songs/page', { artistId: artistA, cursor }));
      expectBadCursor(await get(alice, '/api/songs/page', { seed: 10, cursor }));
      expectBadCursor(await get(alice, '/api/songs/liked/page', { cursor }));
      const playlist = await insertPlaylist(t, {
        ownerId: alice.id,
        name: 'Cursors',
        isPublic: false,
        songIds: songsB,
      });
      expectBadCursor(await get(alice, `/api/playlists/${playlist}/songs`, { cursor }));
      const other = await insertPlaylist(t, { ownerId: alice.id, name: 'Other', isPublic: false, songIds: songsB });
      const own = await page(alice, `/api/playlists/${playlist}/songs`, { limit: 1 });
      expectBadCursor(await get(alice, `/api/playlists/${other}/songs`, { cursor: own.nextCursor ?? '' }));
      const liked = await page(bob, '/api/songs/liked/page', { limit: 1 });
      expectBadCursor(await get(alice, '/api/songs/liked/page', { cursor: liked.nextCursor ?? '' }));
      const search = await page(alice, '/api/songs/page', { q: 'song', limit: 1 });
      expectBadCursor(await get(alice, '/api/songs/page', { q: 'other', cursor: search.nextCursor ?? '' }));
    });

    it('takes limits from 1 to 500, 50 by default', async () => {
      expect((await page(alice, '/api/songs/page', {})).items).toHaveLength(PAGE_LIMIT_DEFAULT);
      for (const limit of [0, 501, -1, 'x']) await refused(alice, '/api/songs/page', { limit });
      await refused(alice, '/api/songs/page', { seed: -1 });
      await refused(alice, '/api/songs/page', { seed: SHUFFLE_SEED_MAX + 1 });
      await refused(alice, '/api/songs/page', { order: 'oldest' });
      await refused(alice, '/api/songs/page', { artistId: 0 });
      expect((await t.as(null).get('/api/songs/page')).statusCode).toBe(401);
    });
  });
});
