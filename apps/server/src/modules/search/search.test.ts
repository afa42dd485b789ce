import { SearchResponse } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, asUser, createTestApp, testDatabases, type TestApp, type TestUser } from '../../../test/harness.js';
import { createArtist, uploadSong } from '../songs/catalogue.fixtures.js';

describe.each(testDatabases())('search API (%s)', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  const ids: Record<'bjork' | 'motley' | 'joga' | 'hyper' | 'kick' | 'mine' | 'shared' | 'hidden', number> = {
    bjork: 0,
    motley: 0,
    joga: 0,
    hyper: 0,
    kick: 0,
    mine: 0,
    shared: 0,
    hidden: 0,
  };

  const search = async (query: string, who: TestUser = alice) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/search?q=${encodeURIComponent(query)}`,
      headers: who.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return SearchResponse.parse(response.json());
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await asAdmin(t);
    alice = await asUser(t);
    bob = await asUser(t);
    ids.bjork = await createArtist(t.app, admin.cookie, 'Björk');
    ids.motley = await createArtist(t.app, admin.cookie, 'Mötley Crüe');
    ids.joga = await uploadSong(
      t.app,
      admin.cookie,
      { name: 'Jóga', genre: 'Electronic / EDM', artistId: ids.bjork },
      t.db,
    );
    ids.hyper = await uploadSong(
      t.app,
      admin.cookie,
      { name: 'Hyperballad', genre: 'Experimental', artistId: ids.bjork },
      t.db,
    );
    ids.kick = await uploadSong(
      t.app,
      admin.cookie,
      { name: 'Kickstart', genre: 'Hard Rock', artistId: ids.motley },
      t.db,
    );
    const now = new Date().toISOString();
    const playlist = async (owner: number, name: string, isPublic: number) =>
      (
        await t.db
          .insertInto('playlists')
          .values({ owner_id: owner, name, type: '', is_public: isPublic, image_key: null, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.mine = await playlist(alice.id, 'Björk Essentials', 0);
    ids.shared = await playlist(bob.id, 'Bjork Deep Cuts', 1);
    ids.hidden = await playlist(bob.id, 'Bjork Secrets', 0);
    await t.db
      .insertInto('playlist_songs')
      .values({ playlist_id: ids.shared, song_id: ids.hyper, position: 0, added_at: now })
      .execute();
  });

  afterAll(async () => {
    await t.close();
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/search?q=bjork' })).statusCode).toBe(401);
  });

  it('answers {songs, artists, playlists}: accent- and case-insensitive, by artist name too', async () => {
    const found = await search('BJORK');
    expect(found.songs.map((s) => s.id).sort()).toEqual([ids.joga, ids.hyper].sort());
    expect(found.artists.map((a) => a.id)).toEqual([ids.bjork]);
    expect(found.artists[0]?.songs).toEqual([ids.joga, ids.hyper]);
    expect(found.songs.every((s) => s.artistName === 'Björk')).toBe(true);
  });

  it('matches word prefixes, and genres', async () => {
    expect((await search('hyperb')).songs.map((s) => s.id)).toEqual([ids.hyper]);
    expect((await search('mot cru')).artists.map((a) => a.id)).toEqual([ids.motley]);
    expect((await search('hard')).songs.map((s) => s.id)).toEqual([ids.kick]);
    expect((await search('edm')).songs.map((s) => s.id)).toEqual([ids.joga]);
  });

  it('ranks a title match above an artist match', async () => {
    const renamed = await uploadSong(t.app, admin.cookie, { name: 'Ode to Björk', artistId: ids.motley }, t.db);
    const found = await search('bjork');
    expect(found.songs[0]?.id).toBe(renamed);
    expect(found.songs.map((s) => s.id).sort()).toEqual([ids.joga, ids.hyper, renamed].sort());
  });

  it('finds public playlists and the caller’s own, never another user’s private ones', async () => {
    const forAlice = await search('bjork', alice);
    expect(forAlice.playlists.map((p) => p.id).sort()).toEqual([ids.mine, ids.shared].sort());
    expect(forAlice.playlists.find((p) => p.id === ids.shared)).toMatchObject({
      name: 'Bjork Deep Cuts',
      isPublic: true,
      userId: bob.id,
      songIds: [ids.hyper],
    });
    expect((await search('bjork', bob)).playlists.map((p) => p.id).sort()).toEqual([ids.shared, ids.hidden].sort());
    expect((await search('secrets', alice)).playlists).toEqual([]);
  });

  it('marks the caller’s likes in the songs it finds', async () => {
    await t.app.inject({ method: 'PUT', url: `/api/songs/${ids.kick}/like`, headers: bob.headers });
    expect((await search('kickstart', bob)).songs[0]?.likeSong).toBe(true);
    expect((await search('kickstart', alice)).songs[0]?.likeSong).toBe(false);
  });

  it('answers empty lists for an empty or punctuation-only query, and honours limit', async () => {
    expect(await search('')).toEqual({ songs: [], artists: [], playlists: [] });
    expect(await search('  "*:()  ')).toEqual({ songs: [], artists: [], playlists: [] });
    const limited = await t.app.inject({ method: 'GET', url: '/api/search?q=bjork&limit=1', headers: alice.headers });
    expect(SearchResponse.parse(limited.json()).songs).toHaveLength(1);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/search?q=a&limit=0', headers: alice.headers })).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/search', headers: alice.headers })).statusCode).toBe(400);
  });
});
