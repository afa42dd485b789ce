import { PlaylistMessages, RECENT_SONGS_MAX, type RecentPlay } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asAdmin,
  asUser,
  createTestApp,
  createTestDatabase,
  errorOf,
  login,
  testDatabases,
  type TestApp,
  type TestUser,
} from '../../../test/harness.js';
import { insertSongs, type TestSong } from '../playlists/test-fixtures.js';
import { createPlaysRepository } from './plays.repository.js';

describe.each(testDatabases())('plays API (%s)', (dialect) => {
  let t: TestApp;
  let songs: TestSong[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    songs = await insertSongs(t.db, 14);
  });

  afterAll(async () => {
    await t.close();
  });

  const song = (index: number): number => {
    const found = songs[index];
    if (found === undefined) throw new Error(`no song ${index}`);
    return found.id;
  };

  const play = (user: TestUser | { headers: { cookie: string } } | undefined, songId: number) =>
    t.app.inject({ method: 'POST', url: '/api/plays', headers: user?.headers, payload: { songId } });
  const recent = async (headers: { cookie: string }) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/plays/recent', headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RecentPlay[]>().map((r) => r.songId);
  };

  it('answers 401 without a session', async () => {
    expect((await play(undefined, song(0))).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/plays/recent' })).statusCode).toBe(401);
  });

  it('records a play (204) and refuses an unknown song (404) or a bad body (400)', async () => {
    const user = await asUser(t);
    expect((await play(user, song(0))).statusCode).toBe(204);
    const unknown = await play(user, 987_654);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown.body).message).toBe(PlaylistMessages.songNotFound);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/plays',
      headers: user.headers,
      payload: { songId: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).field).toBe('songId');
    expect(await recent(user.headers)).toEqual([song(0)]);
  });

  it('lists distinct songs, most recent first, at most 10 (SPEC §4)', async () => {
    const user = await asUser(t);
    for (let i = 0; i < 12; i += 1) expect((await play(user, song(i))).statusCode).toBe(204);
    // Replaying moves a song to the front instead of listing it twice.
    await play(user, song(3));
    await play(user, song(3));
    const list = await recent(user.headers);
    expect(list).toHaveLength(RECENT_SONGS_MAX);
    expect(list).toEqual([song(3), song(11), song(10), song(9), song(8), song(7), song(6), song(5), song(4), song(2)]);
    expect(new Set(list).size).toBe(list.length);
  });

  it('follows the user from one device (session) to another, and is nobody else’s', async () => {
    const user = await asUser(t);
    const phone = { cookie: await login(t.app, user.username, user.password) };
    await play({ headers: phone }, song(5));
    await play(user, song(6));
    expect(await recent(phone)).toEqual([song(6), song(5)]);
    expect(await recent(user.headers)).toEqual([song(6), song(5)]);
    const stranger = await asUser(t);
    const admin = await asAdmin(t);
    expect(await recent(stranger.headers)).toEqual([]);
    expect(await recent(admin.headers)).toEqual([]);
  });

  it('drops a song deleted from the catalogue from the recent list', async () => {
    const [gone] = await insertSongs(t.db, 1);
    if (gone === undefined) throw new Error('no song');
    const user = await asUser(t);
    await play(user, song(1));
    await play(user, gone.id);
    await t.db.deleteFrom('songs').where('id', '=', gone.id).execute();
    expect(await recent(user.headers)).toEqual([song(1)]);
  });
});

describe.each(testDatabases())('plays repository (%s)', (dialect) => {
  it('keeps only the newest plays of a user when trimming, and never touches other users', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const [a, b, c, d] = await insertSongs(database.db, 4);
      if (a === undefined || b === undefined || c === undefined || d === undefined) throw new Error('no songs');
      const users = await database.db
        .insertInto('users')
        .values(
          ['ann', 'bob'].map((username) => ({
            username,
            email: `${username}@example.test`,
            password_hash: 'x',
            role: 'USER' as const,
            created_at: new Date().toISOString(),
          })),
        )
        .returning('id')
        .execute();
      const [ann, bob] = users.map((u) => u.id);
      if (ann === undefined || bob === undefined) throw new Error('no users');
      const plays = createPlaysRepository(database.db);
      const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString();
      await plays.record(bob, a.id, at(0), 3);
      for (const [minute, song] of [a, b, c, a, d].entries()) await plays.record(ann, song.id, at(minute + 1), 3);
      const annRows = await database.db.selectFrom('plays').select('song_id').where('user_id', '=', ann).execute();
      expect(annRows.map((r) => r.song_id).sort()).toEqual([c.id, a.id, d.id].sort());
      expect(await plays.recent(ann, 10)).toEqual([
        { songId: d.id, playedAt: at(5) },
        { songId: a.id, playedAt: at(4) },
        { songId: c.id, playedAt: at(3) },
      ]);
      expect(await plays.recent(bob, 10)).toEqual([{ songId: a.id, playedAt: at(0) }]);
    } finally {
      await database.destroy();
    }
  });
});
