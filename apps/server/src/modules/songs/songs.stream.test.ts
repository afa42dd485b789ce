import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SongList, SongsDataResponse, type Song } from '@tonearm/contract';
import { pino } from 'pino';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertManySongs, insertPlaylist, insertSongs, makeUser, type TestUser } from '../../../test/factories.js';
import type { TestApp } from '../../../test/harness.js';

/** Three songs per read: the eleven songs below cross four slice boundaries, the artists one per read. */
const SMALL_CHUNKS = { config: { catalogueChunkRows: 3 } };

/** Likes one song as `user`, straight into the database. */
async function like(t: TestApp, user: TestUser, songId: number): Promise<void> {
  await t.db
    .insertInto('likes')
    .values({ user_id: user.id, song_id: songId, created_at: new Date().toISOString() })
    .execute();
}

describeEachDialect('the whole catalogue, streamed in slices (%s)', SMALL_CHUNKS, (t) => {
  let listener: TestUser;
  /** The one-shot answer of the same songs: a page big enough to hold them all, read by the unchanged code path. */
  let oneShot: string;
  let ids: number[];
  let playlists: { mine: number; mineToo: number; theirs: number };

  beforeAll(async () => {
    listener = await makeUser(t);
    const other = await makeUser(t);
    const bandA = await insertSongs(t, 6, 'Band A');
    const bandB = await insertSongs(t, 5, 'Band B');
    await t.db.insertInto('artists').values({ name: 'Zero Band', image_key: null }).execute();
    ids = [...bandA, ...bandB].map((song) => song.id).sort((a, b) => b - a);
    // Newest first in slices of three: [0 1 2] [3 4 5] [6 7 8] [9 10]; the marks sit on both sides of the boundaries.
    const at = (index: number) => ids[index] ?? 0;
    await t.db
      .updateTable('songs')
      .set({ genre: 'Rock' })
      .where('id', 'in', [at(1), at(3), at(8)])
      .execute();
    await t.db.updateTable('songs').set({ artist_id: null }).where('id', '=', at(4)).execute();
    // Play counts (issue 26) on both sides of a slice boundary.
    for (const [index, plays] of [
      [2, 7],
      [3, 1],
    ] as const) {
      await t.db.updateTable('songs').set({ play_count: plays }).where('id', '=', at(index)).execute();
    }
    for (const index of [2, 3, 8, 10]) await like(t, listener, at(index));
    await like(t, other, at(0));
    playlists = {
      mine: await insertPlaylist(t, {
        ownerId: listener.id,
        name: 'Mine',
        isPublic: false,
        songIds: [at(2), at(3), at(9)],
      }),
      mineToo: await insertPlaylist(t, {
        ownerId: listener.id,
        name: 'Also mine',
        isPublic: false,
        songIds: [at(3), at(6)],
      }),
      theirs: await insertPlaylist(t, { ownerId: other.id, name: 'Theirs', isPublic: true, songIds: [at(2), at(5)] }),
    };
    oneShot = (await t.as(listener).get('/api/songs?limit=500')).body;
  });

  it('answers GET /api/songs with every song, newest first, exactly as the one-shot read', async () => {
    const response = await t.as(listener).get('/api/songs');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(oneShot);
    const songs = SongList.parse(JSON.parse(response.body));
    expect(songs.map((song) => song.id)).toEqual(ids);
    const byId = new Map(songs.map((song) => [song.id, song]));
    const marks = (index: number) => {
      const song = byId.get(ids[index] ?? 0);
      return [song?.likeSong, song?.playlistIds];
    };
    expect(marks(0)).toEqual([false, []]);
    expect(marks(2)).toEqual([true, [playlists.mine]]);
    expect(marks(3)).toEqual([true, [playlists.mine, playlists.mineToo]]);
    expect(marks(5)).toEqual([false, []]);
    expect(marks(9)).toEqual([false, [playlists.mine]]);
    expect(marks(10)).toEqual([true, []]);
    expect(byId.get(ids[4] ?? 0)?.artistName).toBe('Unknown artist');
    expect(ids.map((id) => byId.get(id)?.plays)).toEqual([0, 0, 7, 1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('streams one genre or one artist without a limit the same way', async () => {
    const bandB = await t.db.selectFrom('artists').select('id').where('name', '=', 'Band B').executeTakeFirstOrThrow();
    for (const filter of ['genre=Rock', `artistId=${bandB.id}`]) {
      const streamed = await t.as(listener).get(`/api/songs?${filter}`);
      const paged = await t.as(listener).get(`/api/songs?${filter}&limit=500`);
      expect(streamed.body).toBe(paged.body);
      expect(SongList.parse(JSON.parse(streamed.body)).length).toBeGreaterThan(1);
    }
  });

  it('answers GET /api/songs/data with the songs and the artists of the one-shot answers', async () => {
    const response = await t.as(listener).get('/api/songs/data');
    expect(response.statusCode).toBe(200);
    const artists = (await t.as(listener).get('/artists')).body;
    expect(response.body).toBe(`{"songs":${oneShot},"artists":${artists}}`);
    const data = SongsDataResponse.parse(JSON.parse(response.body));
    expect(data.artists.map((artist) => [artist.name, artist.songs.length])).toEqual([
      ['Band A', 6],
      ['Band B', 4],
      ['Zero Band', 0],
    ]);
  });

  it('compresses the stream: gzip and brotli decode to the same JSON', async () => {
    const plain = (await t.as(listener).get('/api/songs/data')).body;
    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const response = await t.as(listener).get('/api/songs/data', { headers: { 'accept-encoding': encoding } });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(decode(response.rawPayload).toString('utf8')).toBe(plain);
    }
  });

  it('needs a session', async () => {
    expect((await t.as(null).get('/api/songs')).statusCode).toBe(401);
    expect((await t.as(null).get('/api/songs/data')).statusCode).toBe(401);
  });
});

describeEachDialect('the whole catalogue of an empty library (%s)', { uses: 'nothing' }, (t) => {
  it('streams empty lists, and artists without songs', async () => {
    await t.withApp(SMALL_CHUNKS, async (app) => {
      const user = await makeUser(app);
      expect((await app.as(user).get('/api/songs')).body).toBe('[]');
      expect((await app.as(user).get('/api/songs/data')).body).toBe('{"songs":[],"artists":[]}');
      await app.db.insertInto('artists').values({ name: 'Silent Band', image_key: null }).execute();
      const data = SongsDataResponse.parse((await app.as(user).get('/api/songs/data')).json());
      expect(data).toEqual({ songs: [], artists: [expect.objectContaining({ name: 'Silent Band', songs: [] })] });
    });
  });
});

/** GETs `url` on a connection of its own, reads the first bytes of the answer, and hangs up; answers the status. */
function readFirstBytesAndLeave(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (response) => {
      response.once('data', () => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

describeEachDialect('a client that leaves mid-stream (%s)', { uses: 'nothing' }, (t) => {
  it('leaves the server serving, with nothing logged as an error', async () => {
    const logged: { level: number; msg?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(JSON.parse(chunk.toString('utf8')) as { level: number });
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    await t.withApp({ config: { catalogueChunkRows: 50 }, logger }, async (app) => {
      const user = await makeUser(app);
      const songs = await insertManySongs(app, 2000);
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      // A connection of its own per request (no keep-alive pool), so closing the app waits for nothing.
      const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
      const headers = { cookie: user.cookie };
      for (const path of ['/api/songs', '/api/songs/data']) {
        expect(await readFirstBytesAndLeave(`${base}${path}`, headers)).toBe(200);
        expect(await readFirstBytesAndLeave(`${base}${path}`, { ...headers, 'accept-encoding': 'gzip' })).toBe(200);
      }
      const whole = SongList.parse((await app.as(user).get('/api/songs')).json());
      expect(whole.map((song: Song) => song.id)).toEqual(songs.reverse());
    });
    expect(logged.filter((entry) => entry.level >= 40)).toEqual([]);
    // Fastify notes a stream cut before its end: the clients did leave mid-stream.
    expect(logged.filter((entry) => entry.msg === 'stream closed prematurely')).toHaveLength(4);
  });
});
