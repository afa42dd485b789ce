import { PlaylistMessages, RECENT_SONGS_MAX, Song, type RecentPlay } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import type { Caller } from '../../../test/client.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, insertUser, makeAdmin, makeUser, type TestSong } from '../../../test/factories.js';
import { errorOf, login } from '../../../test/harness.js';
import { createPlaysRepository } from './plays.repository.js';

describeEachDialect('plays API (%s)', (t) => {
  let songs: TestSong[];

  beforeAll(async () => {
    songs = await insertSongs(t, 14);
  });

  const song = (index: number): number => {
    const found = songs[index];
    if (found === undefined) throw new Error(`no song ${index}`);
    return found.id;
  };

  const play = (user: Caller, songId: number) => t.as(user).post('/api/plays', { songId });
  const recent = async (user: Caller) => {
    const response = await t.as(user).get('/api/plays/recent');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RecentPlay[]>().map((r) => r.songId);
  };

  it('answers 401 without a session', async () => {
    expect((await play(undefined, song(0))).statusCode).toBe(401);
    expect((await t.as(null).get('/api/plays/recent')).statusCode).toBe(401);
  });

  it('records a play (204) and refuses an unknown song (404) or a bad body (400)', async () => {
    const user = await makeUser(t);
    expect((await play(user, song(0))).statusCode).toBe(204);
    const unknown = await play(user, 987_654);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown.body).message).toBe(PlaylistMessages.songNotFound);
    const bad = await t.as(user).post('/api/plays', { songId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).field).toBe('songId');
    expect(await recent(user)).toEqual([song(0)]);
  });

  it('lists distinct songs, most recent first, at most 10 (SPEC §4)', async () => {
    const user = await makeUser(t);
    for (let i = 0; i < 12; i += 1) expect((await play(user, song(i))).statusCode).toBe(204);
    // Replaying moves a song to the front instead of listing it twice.
    await play(user, song(3));
    await play(user, song(3));
    const list = await recent(user);
    expect(list).toHaveLength(RECENT_SONGS_MAX);
    expect(list).toEqual([song(3), song(11), song(10), song(9), song(8), song(7), song(6), song(5), song(4), song(2)]);
    expect(new Set(list).size).toBe(list.length);
  });

  it('follows the user from one device (session) to another, and is nobody else’s', async () => {
    const user = await makeUser(t);
    const phone = { cookie: await login(t.app, user.username, user.password) };
    await play(phone, song(5));
    await play(user, song(6));
    expect(await recent(phone)).toEqual([song(6), song(5)]);
    expect(await recent(user)).toEqual([song(6), song(5)]);
    const stranger = await makeUser(t);
    const admin = await makeAdmin(t);
    expect(await recent(stranger)).toEqual([]);
    expect(await recent(admin)).toEqual([]);
  });

  it('counts every play of a song, by anyone, in the Song answers’ plays (issue 26)', async () => {
    const playsOf = async (songId: number) => {
      const response = await t.as(admin).get(`/api/songs/${songId}`);
      expect(response.statusCode, response.body).toBe(200);
      return Song.parse(response.json()).plays;
    };
    const admin = await makeAdmin(t);
    const [counted, unplayed] = await insertSongs(t, 2);
    if (counted === undefined || unplayed === undefined) throw new Error('no songs');
    expect(await playsOf(counted.id)).toBe(0);
    const [ann, ben] = [await makeUser(t), await makeUser(t)];
    for (const user of [ann, ann, ben]) expect((await play(user, counted.id)).statusCode).toBe(204);
    expect(await play(ann, 987_654)).toMatchObject({ statusCode: 404 });
    expect(await playsOf(counted.id)).toBe(3);
    expect(await playsOf(unplayed.id)).toBe(0);
  });

  it('drops a song deleted from the catalogue from the recent list', async () => {
    const [gone] = await insertSongs(t, 1);
    if (gone === undefined) throw new Error('no song');
    const user = await makeUser(t);
    await play(user, song(1));
    await play(user, gone.id);
    await t.db.deleteFrom('songs').where('id', '=', gone.id).execute();
    expect(await recent(user)).toEqual([song(1)]);
  });
});

describeEachDialect('plays repository (%s)', { uses: 'database' }, (t) => {
  it('keeps only the newest plays of a user when trimming, and never touches other users', async () => {
    const [a, b, c, d] = await insertSongs(t, 4);
    if (a === undefined || b === undefined || c === undefined || d === undefined) throw new Error('no songs');
    const ann = (await insertUser(t, { username: 'ann' })).id;
    const bob = (await insertUser(t, { username: 'bob' })).id;
    const plays = createPlaysRepository(t.db);
    const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString();
    await plays.record(bob, a.id, at(0), 3);
    for (const [minute, song] of [a, b, c, a, d].entries()) await plays.record(ann, song.id, at(minute + 1), 3);
    const annRows = await t.db.selectFrom('plays').select('song_id').where('user_id', '=', ann).execute();
    expect(annRows.map((r) => r.song_id).sort()).toEqual([c.id, a.id, d.id].sort());
    expect(await plays.recent(ann, 10)).toEqual([
      { songId: d.id, playedAt: at(5) },
      { songId: a.id, playedAt: at(4) },
      { songId: c.id, playedAt: at(3) },
    ]);
    expect(await plays.recent(bob, 10)).toEqual([{ songId: a.id, playedAt: at(0) }]);
    // Each play counts in its song's play_count, in the same transaction; trimming the history takes none back.
    const counts = await t.db
      .selectFrom('songs')
      .select(['id', 'play_count'])
      .where('id', 'in', [a.id, b.id, c.id, d.id])
      .execute();
    expect(new Map(counts.map((row) => [row.id, row.play_count]))).toEqual(
      new Map([
        [a.id, 3],
        [b.id, 1],
        [c.id, 1],
        [d.id, 1],
      ]),
    );
  });

  it('records neither the play nor its count when the transaction fails', async () => {
    const [song] = await insertSongs(t, 1);
    if (song === undefined) throw new Error('no song');
    const plays = createPlaysRepository(t.db);
    // No such user: the play's insert fails its foreign key, after the count, which goes with it.
    await expect(plays.record(987_654, song.id, new Date().toISOString(), 3)).rejects.toThrow();
    const row = await t.db.selectFrom('songs').select('play_count').where('id', '=', song.id).executeTakeFirstOrThrow();
    expect(row.play_count).toBe(0);
  });
});
