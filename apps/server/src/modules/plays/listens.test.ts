import { ListenMessages } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeUser, type TestSong, type TestUser } from '../../../test/factories.js';

/** POST /api/listens (issue 28): the web player's plays that counted, by the half-or-4-minutes rule. */
describeEachDialect('listens from the web player (%s)', (t) => {
  let alice: TestUser;
  let song: TestSong;
  let long: TestSong;
  let short: TestSong;
  const started = '2026-11-28T10:00:00.000Z';

  beforeAll(async () => {
    alice = await makeUser(t);
    [song, long, short] = (await insertSongs(t, 3, 'Listened Band')) as [TestSong, TestSong, TestSong];
    await t.db.updateTable('songs').set({ duration_ms: 200_000 }).where('id', '=', song.id).execute();
    await t.db.updateTable('songs').set({ duration_ms: 900_000 }).where('id', '=', long.id).execute();
    await t.db.updateTable('songs').set({ duration_ms: 25_000 }).where('id', '=', short.id).execute();
  });

  const report = (who: TestUser | null, body: object) => t.as(who).post('/api/listens', body);
  const listensOf = (userId: number) =>
    t.db
      .selectFrom('listens')
      .select(['song_id', 'listened_ms', 'source', 'played_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  it('needs a session, a song the listener sees and a well-formed report', async () => {
    expect((await report(null, { songId: song.id, startedAt: started, listenedMs: 150_000 })).statusCode).toBe(401);
    expect((await report(alice, { songId: 999_999, startedAt: started, listenedMs: 150_000 })).statusCode).toBe(404);
    for (const bad of [
      { songId: song.id },
      { songId: song.id, startedAt: 'yesterday', listenedMs: 1 },
      { songId: song.id, startedAt: started, listenedMs: -1 },
    ]) {
      expect((await report(alice, bad)).statusCode).toBe(400);
    }
  });

  it('counts half the song, or 4 minutes of a long one, and never a song of 30 seconds or less', async () => {
    const tooLittle = await report(alice, { songId: song.id, startedAt: started, listenedMs: 90_000 });
    expect(tooLittle.statusCode).toBe(400);
    expect(tooLittle.json()).toMatchObject({ error: { field: 'listenedMs', message: ListenMessages.tooShort } });
    expect((await report(alice, { songId: short.id, startedAt: started, listenedMs: 25_000 })).statusCode).toBe(400);
    expect((await report(alice, { songId: song.id, startedAt: started, listenedMs: 260_000 })).statusCode).toBe(400);
    expect((await report(alice, { songId: song.id, startedAt: started, listenedMs: 100_000 })).statusCode).toBe(204);
    expect((await report(alice, { songId: long.id, startedAt: started, listenedMs: 240_000 })).statusCode).toBe(204);
    expect(await listensOf(alice.id)).toEqual([
      { song_id: song.id, listened_ms: 100_000, source: 'web', played_at: started },
      { song_id: long.id, listened_ms: 240_000, source: 'web', played_at: started },
    ]);
  });

  it('stores a listen reported twice once, and a start in the future as now', async () => {
    const bob = await makeUser(t);
    const once = { songId: song.id, startedAt: '2026-11-28T11:00:00.000Z', listenedMs: 150_000 };
    expect((await report(bob, once)).statusCode).toBe(204);
    expect((await report(bob, once)).statusCode).toBe(204);
    const before = Date.now();
    expect((await report(bob, { ...once, startedAt: '2999-01-01T00:00:00.000Z' })).statusCode).toBe(204);
    const rows = await listensOf(bob.id);
    expect(rows).toHaveLength(2);
    expect(Date.parse(rows[1]?.played_at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(rows[1]?.played_at ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it('keeps one listen per play with the most heard: the report at the mark, then the one at its end', async () => {
    const carol = await makeUser(t);
    const heard: number[] = [];
    t.composition.services.plays.onListen((listen) => {
      if (listen.userId === carol.id) heard.push(listen.listenedMs);
      return Promise.resolve();
    });
    const play = { songId: song.id, startedAt: '2026-11-28T12:00:00.000Z' };
    expect((await report(carol, { ...play, listenedMs: 100_000 })).statusCode).toBe(204);
    expect((await report(carol, { ...play, listenedMs: 180_000 })).statusCode).toBe(204);
    // A late, smaller report (a retry) lowers nothing.
    expect((await report(carol, { ...play, listenedMs: 120_000 })).statusCode).toBe(204);
    expect((await listensOf(carol.id)).map((row) => row.listened_ms)).toEqual([180_000]);
    // Scrobbled (and counted) once, when it first counted.
    expect(heard).toEqual([100_000]);
  });
});
