import { Playlist, PlaylistMessages, SmartPreview, SongPage, type SmartDefinition } from '@tonearm/contract';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../../test/subsonic.js';
import { multipartBody } from '../../../test/media.js';
import { SMART_REFRESH_MS } from './smart-playlists.service.js';

const SubsonicPlaylists = z.object({
  playlists: z.object({ playlist: z.array(z.object({ id: z.string(), readonly: z.boolean().optional() })) }),
});
const SubsonicPlaylist = z.object({
  playlist: z.object({ songCount: z.number(), entry: z.array(z.object({ id: z.string() })).optional() }),
});

/** Issue 28, item 2: smart playlists through the web API (the compiler's every operator: the repository's test). */
describeEachDialect('smart playlists API (%s)', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  /** Five songs: [genre, year, seconds]. */
  const shape: [string, number, number][] = [
    ['Rock', 1971, 200],
    ['Rock', 1975, 180],
    ['Jazz', 1971, 300],
    ['rock', 1990, 240],
    ['Pop', 1972, 210],
  ];
  let ids: number[] = [];
  const song = (index: number): number => ids[index] ?? 0;

  const seventiesRock: SmartDefinition = {
    rules: {
      match: 'all',
      rules: [
        { field: 'genre', op: 'is', value: 'rock' },
        { field: 'year', op: 'between', value: [1970, 1979] },
      ],
    },
    sort: { field: 'year', direction: 'desc' },
    limit: null,
  };
  const topRated: SmartDefinition = {
    rules: { match: 'all', rules: [{ field: 'rating', op: 'gte', value: 4 }] },
    sort: { field: 'rating', direction: 'desc' },
    limit: null,
  };

  async function createSmart(user: TestUser, body: Record<string, unknown>): Promise<Playlist> {
    const response = await t.as(user).post('/api/playlists/smart', body);
    expect(response.statusCode, response.body).toBe(201);
    return Playlist.parse(response.json());
  }
  async function read(user: TestUser, id: number): Promise<Playlist> {
    const response = await t.as(user).get(`/api/playlists/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return Playlist.parse(response.json());
  }
  const countPlaylists = async () =>
    Number(
      (
        await t.db
          .selectFrom('playlists')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Moves the clock past the refresh delay (only Date: timers and I/O stay real). */
  function later(): void {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SMART_REFRESH_MS + 1000 });
  }

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
    ids = (await insertSongs(t, shape.length, 'Smart Band')).map((row) => row.id);
    for (const [index, [genre, year, seconds]] of shape.entries()) {
      await t.db
        .updateTable('songs')
        .set({ genre, year, duration_ms: seconds * 1000 })
        .where('id', '=', song(index))
        .execute();
    }
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('needs a session: 401 for creating, editing and previewing', async () => {
    expect((await t.as(undefined).post('/api/playlists/smart', { name: 'x', definition: topRated })).statusCode).toBe(
      401,
    );
    expect((await t.as(undefined).put('/api/playlists/1/smart', { name: 'x' })).statusCode).toBe(401);
    expect((await t.as(undefined).post('/api/playlists/smart/preview', { definition: topRated })).statusCode).toBe(401);
  });

  it('creates a smart playlist whose rules choose its songs, in its order, and answers its rules', async () => {
    const playlist = await createSmart(alice, { name: 'Seventies rock', definition: seventiesRock });
    expect(playlist).toMatchObject({ name: 'Seventies rock', userId: alice.id, isPublic: false, readOnly: false });
    expect(playlist.smart).toEqual(seventiesRock);
    // Rock (any case) from the 1970s, newest first.
    expect(playlist.songIds).toEqual([song(1), song(0)]);
    // A page of its songs, as the web app plays it.
    const page = SongPage.parse((await t.as(alice).get(`/api/playlists/${playlist.id}/songs`)).json());
    expect(page.items.map((item) => item.id)).toEqual([song(1), song(0)]);
    // Any other playlist says it is not smart.
    const plain = await t.as(alice).post('/api/playlists', { name: 'By hand', songs: [song(2)] });
    expect(Playlist.parse(plain.json()).smart).toBeNull();
  });

  it('answers a bad rule with 400 naming it, and writes nothing', async () => {
    const before = await countPlaylists();
    const bad = {
      ...seventiesRock,
      rules: {
        match: 'all',
        rules: [
          { field: 'genre', op: 'is', value: 'Rock' },
          { match: 'any', rules: [{ field: 'year', op: 'gt', value: 'nineteen seventy' }] },
        ],
      },
    };
    const response = await t.as(alice).post('/api/playlists/smart', { name: 'Broken', definition: bad });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response.body).message).toBe('rules[1].rules[0]: year needs a number');
    const operator = await t.as(alice).post('/api/playlists/smart/preview', {
      definition: { ...seventiesRock, rules: { match: 'all', rules: [{ field: 'genre', op: 'gt', value: 'x' }] } },
    });
    expect(operator.statusCode).toBe(400);
    expect(errorOf(operator.body).message).toBe('rules[0]: genre cannot use the operator "gt"');
    const limit = await t.as(alice).post('/api/playlists/smart', {
      name: 'Too long',
      definition: { ...seventiesRock, limit: { kind: 'songs', value: 0 } },
    });
    expect(limit.statusCode).toBe(400);
    expect(errorOf(limit.body).message).toBe('limit: limit needs a whole number of songs from 1 to 5000');
    expect(await countPlaylists()).toBe(before);
  });

  it("previews a definition's count, length and first songs without saving anything", async () => {
    const before = await countPlaylists();
    const response = await t.as(alice).post('/api/playlists/smart/preview', {
      definition: { ...seventiesRock, rules: { match: 'all', rules: [{ field: 'genre', op: 'is', value: 'Rock' }] } },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(SmartPreview.parse(response.json())).toEqual({
      count: 3,
      durationMs: (200 + 180 + 240) * 1000,
      firstSongIds: [song(3), song(1), song(0)],
    });
    expect(await countPlaylists()).toBe(before);
  });

  it("follows the owner's ratings as they change, once its last choice is older than the refresh delay", async () => {
    const playlist = await createSmart(alice, { name: 'Top rated', definition: topRated });
    expect(playlist.songIds).toEqual([]);
    expect((await t.as(alice).put(`/api/songs/${song(2)}/rating`, { rating: 5 })).statusCode).toBe(204);
    expect((await t.as(alice).put(`/api/songs/${song(4)}/rating`, { rating: 4 })).statusCode).toBe(204);
    // Bob's stars are not Alice's: they choose nothing in her playlist.
    expect((await t.as(bob).put(`/api/songs/${song(0)}/rating`, { rating: 5 })).statusCode).toBe(204);
    later();
    expect((await read(alice, playlist.id)).songIds).toEqual([song(2), song(4)]);
    // Within the delay the choice stands; after it, an unrated song leaves.
    expect((await t.as(alice).delete(`/api/songs/${song(4)}/rating`)).statusCode).toBe(204);
    expect((await read(alice, playlist.id)).songIds).toEqual([song(2), song(4)]);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * (SMART_REFRESH_MS + 1000) });
    const page = SongPage.parse((await t.as(alice).get(`/api/playlists/${playlist.id}/songs`)).json());
    expect(page.items.map((item) => item.id)).toEqual([song(2)]);
  });

  it('refuses songs added, removed or reordered by hand (403), but takes a new name and new rules', async () => {
    const playlist = await createSmart(alice, { name: 'Rules only', definition: seventiesRock });
    const refused = [
      await t.as(alice).put(`/api/playlists/${playlist.id}/songs/${song(2)}`),
      await t.as(alice).delete(`/api/playlists/${playlist.id}/songs/${song(1)}`),
      await t.as(alice).put(`/api/playlists/${playlist.id}/order`, { songIds: [song(0), song(1)] }),
      await t.as(alice).put(`/api/playlists/updatePlaylist/${playlist.id}`, { songs: [song(2)] }),
      await t.as(alice).inject({
        method: 'PUT',
        url: `/api/playlists/updatePlaylist/${playlist.id}`,
        ...multipartBody({ songs: JSON.stringify([song(2)]) }),
      }),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(errorOf(response.body).message).toBe(PlaylistMessages.smartChoosesSongs);
    }
    expect((await read(alice, playlist.id)).songIds).toEqual([song(1), song(0)]);

    const renamed = await t.as(alice).put(`/api/playlists/updatePlaylist/${playlist.id}`, { name: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const jazz: SmartDefinition = {
      ...seventiesRock,
      rules: { match: 'any', rules: [{ field: 'genre', op: 'is', value: 'Jazz' }] },
    };
    const edited = await t.as(alice).put(`/api/playlists/${playlist.id}/smart`, { definition: jazz, isPublic: true });
    expect(edited.statusCode, edited.body).toBe(200);
    // New rules choose at once, without waiting for the refresh delay.
    expect(Playlist.parse(edited.json())).toMatchObject({
      name: 'Renamed',
      isPublic: true,
      smart: jazz,
      songIds: [song(2)],
    });
  });

  it('edits rules only of a smart playlist its caller may change: 409 plain, 403 shared, 404 private', async () => {
    const plain = Playlist.parse((await t.as(alice).post('/api/playlists', { name: 'Plain' })).json());
    const notSmart = await t.as(alice).put(`/api/playlists/${plain.id}/smart`, { definition: topRated });
    expect(notSmart.statusCode).toBe(409);
    expect(errorOf(notSmart.body).message).toBe(PlaylistMessages.notSmart);
    const shared = await createSmart(alice, { name: 'Shared', isPublic: true, definition: seventiesRock });
    const own = await createSmart(alice, { name: 'Own', definition: seventiesRock });
    expect((await t.as(bob).put(`/api/playlists/${shared.id}/smart`, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await t.as(bob).put(`/api/playlists/${own.id}/smart`, { name: 'Mine now' })).statusCode).toBe(404);
    const bad = await t.as(alice).put(`/api/playlists/${own.id}/smart`, {
      definition: { ...topRated, sort: { field: 'mood', direction: 'asc' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).message).toBe('sort: sort needs a known field');
    expect((await read(alice, own.id)).smart).toEqual(seventiesRock);
    // An administrator may change anyone's.
    expect((await t.as(admin).put(`/api/playlists/${own.id}/smart`, { name: 'Tidied' })).statusCode).toBe(200);
  });

  it("is shared read-only: another user reads the owner's choice (the owner's stars), and cannot change it", async () => {
    expect((await t.as(alice).put(`/api/songs/${song(3)}/rating`, { rating: 5 })).statusCode).toBe(204);
    const shared = await createSmart(alice, { name: "Alice's best", isPublic: true, definition: topRated });
    const seen = await read(bob, shared.id);
    expect(seen.songIds).toEqual(shared.songIds);
    expect(seen.songIds).toContain(song(3));
    expect(seen.songIds).not.toContain(song(0));
    expect((await t.as(bob).put(`/api/playlists/${shared.id}/songs/${song(0)}`)).statusCode).toBe(403);
    expect((await t.as(bob).delete(`/api/playlists/${shared.id}`)).statusCode).toBe(403);
  });

  it('appears in Subsonic apps as a read-only playlist with its chosen songs', async () => {
    const playlist = await createSmart(alice, { name: 'For apps', definition: seventiesRock });
    const api = subsonicApi(t, { apiKey: await apiKeyOf(t, alice) });
    const { playlists } = SubsonicPlaylists.parse(await api.json('getPlaylists', {}));
    expect(playlists.playlist.find((item) => item.id === `pl-${playlist.id}`)?.readonly).toBe(true);
    const one = SubsonicPlaylist.parse(await api.json('getPlaylist', { id: `pl-${playlist.id}` }));
    expect(one.playlist.songCount).toBe(2);
    expect(one.playlist.entry?.map((entry) => entry.id)).toEqual([String(song(1)), String(song(0))]);
    // Adding a song from an app is refused like in the web app (50: not authorised).
    await api.error('updatePlaylist', { playlistId: String(playlist.id), songIdToAdd: String(song(2)) }, 50);
  });
});
