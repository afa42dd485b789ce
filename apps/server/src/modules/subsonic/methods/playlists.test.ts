import { type Playlist } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import {
  insertPlaylist,
  insertSongs,
  makeAdmin,
  makeUser,
  type TestSong,
  type TestUser,
} from '../../../../test/factories.js';
import { Child, apiKeyOf, subsonicApi, type SubsonicApi, type SubsonicQuery } from '../../../../test/subsonic.js';

const IsoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'an ISO 8601 date');
const int = z.number().int();

/** Playlist, with the fields the OpenSubsonic documentation lists (Tonearm has no comment nor allowed users). */
const PlaylistShape = z.strictObject({
  id: z.string(),
  name: z.string(),
  comment: z.string().optional(),
  owner: z.string().optional(),
  public: z.boolean().optional(),
  songCount: int,
  duration: int,
  created: IsoDate,
  changed: IsoDate,
  coverArt: z.string().optional(),
  allowedUser: z.array(z.string()).optional(),
  /** OpenSubsonic: set (true) on a playlist that follows a library's playlist file. */
  readonly: z.boolean().optional(),
});
const PlaylistWithSongs = PlaylistShape.extend({ entry: z.array(Child).optional() });
const Playlists = z.strictObject({ playlists: z.strictObject({ playlist: z.array(PlaylistShape).optional() }) });
const OnePlaylist = z.strictObject({ playlist: PlaylistWithSongs });
const Empty = z.strictObject({});

const PLAYLISTS_PER_USER = 4;

/**
 * A write's answer, called once (`shape` calls twice, in JSON then in XML, which would write twice): the JSON body
 * checked against the strict schema. getPlaylist's shape test covers the XML of the same playlist answer.
 */
async function once<T>(api: SubsonicApi, method: string, query: SubsonicQuery, schema: z.ZodType<T>): Promise<T> {
  const answer = await api.json(method, query);
  expect(answer.error, `${method} failed`).toBeUndefined();
  const { status, version: _version, type: _type, serverVersion: _server, openSubsonic: _open, ...body } = answer;
  expect(status).toBe('ok');
  return schema.parse(body);
}

describeEachDialect('Subsonic playlists (%s)', { env: { PLAYLISTS_PER_USER: String(PLAYLISTS_PER_USER) } }, (t) => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let api: SubsonicApi;
  let bobApi: SubsonicApi;
  let adminApi: SubsonicApi;
  let songs: TestSong[];
  let song: (index: number) => number;
  const id = { mine: 0, shared: 0, hidden: 0 };

  const keyOf = (user: TestUser) => apiKeyOf(t, user);
  const webPlaylist = async (user: TestUser, playlistId: number) => {
    const response = await t.as(user).get(`/api/playlists/${playlistId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Playlist>();
  };
  const playlistCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('playlists')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    alice = await makeUser(t);
    bob = await makeUser(t);
    admin = await makeAdmin(t);
    api = subsonicApi(t, { apiKey: await keyOf(alice) });
    bobApi = subsonicApi(t, { apiKey: await keyOf(bob) });
    adminApi = subsonicApi(t, { apiKey: await keyOf(admin) });
    songs = await insertSongs(t, 5, 'Playlist Band');
    song = (index: number) => songs[index]?.id ?? 0;
    id.mine = await insertPlaylist(t, {
      ownerId: alice.id,
      name: 'Mine',
      isPublic: false,
      songIds: [song(2), song(0), song(1)],
    });
    id.shared = await insertPlaylist(t, { ownerId: bob.id, name: 'Shared', isPublic: true, songIds: [song(3)] });
    id.hidden = await insertPlaylist(t, { ownerId: bob.id, name: 'Hidden', isPublic: false });
  });

  describe('getPlaylists', () => {
    it("lists the caller's own and the public playlists, with owner, totals and dates", async () => {
      const { playlists } = await api.shape('getPlaylists', {}, Playlists);
      const byId = new Map((playlists.playlist ?? []).map((playlist) => [playlist.id, playlist]));
      expect(byId.has(`pl-${id.hidden}`)).toBe(false);
      expect(byId.get(`pl-${id.mine}`)).toMatchObject({
        name: 'Mine',
        owner: alice.username,
        public: false,
        songCount: 3,
        duration: 3,
      });
      expect(byId.get(`pl-${id.shared}`)).toMatchObject({ owner: bob.username, public: true, songCount: 1 });
    });

    it("answers another user's playlists to an administrator only (50 to anyone else)", async () => {
      await api.error('getPlaylists', { username: bob.username }, 50);
      const own = await api.shape('getPlaylists', { username: alice.username }, Playlists);
      expect((own.playlists.playlist ?? []).map((playlist) => playlist.name)).toEqual(['Mine']);
      const bobs = await adminApi.shape('getPlaylists', { username: bob.username }, Playlists);
      expect((bobs.playlists.playlist ?? []).map((playlist) => playlist.name).sort()).toEqual(['Hidden', 'Shared']);
      await adminApi.error('getPlaylists', { username: 'nobody-here' }, 70);
    });
  });

  describe('getPlaylist', () => {
    it('answers the songs in playlist order, by pl-N or plain id, with the caller’s stars', async () => {
      expect((await t.as(alice).put(`/api/songs/${song(0)}/like`)).statusCode).toBeLessThan(300);
      const { playlist } = await api.shape('getPlaylist', { id: `pl-${id.mine}` }, OnePlaylist);
      expect(playlist).toMatchObject({ id: `pl-${id.mine}`, name: 'Mine', songCount: 3, owner: alice.username });
      expect((playlist.entry ?? []).map((entry) => entry.id)).toEqual([song(2), song(0), song(1)].map(String));
      expect((playlist.entry ?? []).map((entry) => entry.starred !== undefined)).toEqual([false, true, false]);
      const plain = await api.shape('getPlaylist', { id: id.mine }, OnePlaylist);
      expect(plain.playlist.id).toBe(`pl-${id.mine}`);
    });

    it("answers 70 for another user's private playlist exactly as for a missing one", async () => {
      const hidden = await api.error('getPlaylist', { id: `pl-${id.hidden}` }, 70);
      const missing = await api.error('getPlaylist', { id: 'pl-999999' }, 70);
      expect(hidden).toBe(missing);
      await api.error('getPlaylist', { id: 'ar-1' }, 70);
      await api.error('getPlaylist', {}, 10);
      await api.shape('getPlaylist', { id: `pl-${id.shared}` }, OnePlaylist);
      await adminApi.shape('getPlaylist', { id: `pl-${id.hidden}` }, OnePlaylist);
    });
  });

  describe('createPlaylist', () => {
    it('creates a private playlist with the songs in order, seen by the web app', async () => {
      const { playlist } = await once(
        api,
        'createPlaylist',
        { name: 'Road trip', songId: [song(4), song(1), song(4)] },
        OnePlaylist,
      );
      expect(playlist).toMatchObject({ name: 'Road trip', public: false, owner: alice.username, songCount: 2 });
      expect((playlist.entry ?? []).map((entry) => entry.id)).toEqual([song(4), song(1)].map(String));
      const web = await webPlaylist(alice, Number(playlist.id.slice(3)));
      expect(web).toMatchObject({ name: 'Road trip', isPublic: false, userId: alice.id, songIds: [song(4), song(1)] });
    });

    it('answers the new playlist in XML too', async () => {
      const xml = await api.xml('createPlaylist', { name: 'In XML', songId: song(1) });
      expect(xml).toMatch(
        new RegExp(`<playlist id="pl-\\d+" name="In XML" owner="[^"]+" public="false" songCount="1"`),
      );
      expect(xml).toContain(`<entry id="${song(1)}"`);
      await t.db.deleteFrom('playlists').where('name', '=', 'In XML').execute();
    });

    it('replaces the songs of an existing playlist given playlistId', async () => {
      const created = await insertPlaylist(t, {
        ownerId: alice.id,
        name: 'Replace me',
        isPublic: false,
        songIds: [song(0)],
      });
      const { playlist } = await once(
        api,
        'createPlaylist',
        { playlistId: `pl-${created}`, songId: [song(3), song(2)] },
        OnePlaylist,
      );
      expect((playlist.entry ?? []).map((entry) => entry.id)).toEqual([song(3), song(2)].map(String));
      expect((await webPlaylist(alice, created)).songIds).toEqual([song(3), song(2)]);
      await bobApi.error('createPlaylist', { playlistId: created, songId: song(0) }, 70);
      await api.error('createPlaylist', { playlistId: id.shared, songId: song(0) }, 50);
      expect((await webPlaylist(bob, id.shared)).songIds).toEqual([song(3)]);
      await t.db.deleteFrom('playlists').where('id', '=', created).execute();
    });

    it('answers 70 for a song that does not exist and creates nothing; 10 without a name', async () => {
      const before = await playlistCount();
      await api.error('createPlaylist', { name: 'Broken', songId: [song(0), 999_999] }, 70);
      await api.error('createPlaylist', { name: 'Broken', songId: 'al-3' }, 70);
      await api.error('createPlaylist', { songId: song(0) }, 10);
      await api.error('createPlaylist', { name: '   ' }, 0);
      expect(await playlistCount()).toBe(before);
      const replaced = await api.error('createPlaylist', { playlistId: id.mine, songId: [999_999] }, 70);
      expect(replaced).toContain('not found');
      expect((await webPlaylist(alice, id.mine)).songIds).toEqual([song(2), song(0), song(1)]);
    });

    it('applies the per-user playlist limit', async () => {
      const erin = await makeUser(t);
      const erinApi = subsonicApi(t, { apiKey: await keyOf(erin) });
      for (let index = 0; index < PLAYLISTS_PER_USER; index += 1) {
        await once(erinApi, 'createPlaylist', { name: `List ${index}` }, OnePlaylist);
      }
      const message = await erinApi.error('createPlaylist', { name: 'One too many' }, 0);
      expect(message).toContain(String(PLAYLISTS_PER_USER));
    });
  });

  describe('updatePlaylist', () => {
    it('renames, publishes, adds songs and removes them by position', async () => {
      const listId = await insertPlaylist(t, {
        ownerId: alice.id,
        name: 'Edit me',
        isPublic: false,
        songIds: [song(0), song(1), song(2)],
      });
      await once(
        api,
        'updatePlaylist',
        {
          playlistId: `pl-${listId}`,
          name: 'Edited',
          comment: 'not kept: Tonearm playlists have no comment',
          public: 'true',
          songIdToAdd: [song(4), song(3)],
          songIndexToRemove: [0, 2],
        },
        Empty,
      );
      expect(await webPlaylist(alice, listId)).toMatchObject({
        name: 'Edited',
        isPublic: true,
        songIds: [song(1), song(4), song(3)],
      });
      const { playlist } = await api.shape('getPlaylist', { id: listId }, OnePlaylist);
      expect(playlist.comment).toBeUndefined();
      await once(api, 'updatePlaylist', { playlistId: listId, public: 'false' }, Empty);
      expect((await webPlaylist(alice, listId)).isPublic).toBe(false);
      await t.db.deleteFrom('playlists').where('id', '=', listId).execute();
    });

    it('changes nothing when a song or a position does not exist (70), or the value is bad (0)', async () => {
      const before = await webPlaylist(alice, id.mine);
      await api.error('updatePlaylist', { playlistId: id.mine, name: 'Renamed', songIdToAdd: [song(4), 999_999] }, 70);
      await api.error('updatePlaylist', { playlistId: id.mine, name: 'Renamed', songIndexToRemove: 3 }, 70);
      await api.error('updatePlaylist', { playlistId: id.mine, songIndexToRemove: 'first' }, 0);
      await api.error('updatePlaylist', { playlistId: id.mine, public: 'maybe' }, 0);
      await api.error('updatePlaylist', {}, 10);
      expect(await webPlaylist(alice, id.mine)).toEqual(before);
    });

    it("lets only the owner or an administrator change a playlist; another's private one is 70", async () => {
      await api.error('updatePlaylist', { playlistId: id.shared, name: 'Taken' }, 50);
      await api.error('updatePlaylist', { playlistId: id.hidden, name: 'Taken' }, 70);
      expect((await webPlaylist(bob, id.shared)).name).toBe('Shared');
      await once(adminApi, 'updatePlaylist', { playlistId: id.shared, songIdToAdd: song(0) }, Empty);
      expect((await webPlaylist(bob, id.shared)).songIds).toEqual([song(3), song(0)]);
    });
  });

  describe('deletePlaylist', () => {
    it('deletes for the owner or an administrator only', async () => {
      const mine = await insertPlaylist(t, { ownerId: alice.id, name: 'Short lived', isPublic: false });
      const publicOne = await insertPlaylist(t, { ownerId: alice.id, name: 'Public, short lived', isPublic: true });
      await bobApi.error('deletePlaylist', { id: `pl-${mine}` }, 70);
      await bobApi.error('deletePlaylist', { id: `pl-${publicOne}` }, 50);
      await once(api, 'deletePlaylist', { id: `pl-${mine}` }, Empty);
      await once(adminApi, 'deletePlaylist', { id: publicOne }, Empty);
      expect((await t.as(alice).get(`/api/playlists/${mine}`)).statusCode).toBe(404);
      expect((await t.as(alice).get(`/api/playlists/${publicOne}`)).statusCode).toBe(404);
      await api.error('deletePlaylist', { id: `pl-${mine}` }, 70);
      await api.error('deletePlaylist', {}, 10);
    });
  });
});
