import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';

describeEachDialect('radio API (%s)', (t) => {
  it('answers the seed and then more songs, for a signed-in listener', async () => {
    const songs = await insertSongs(t, 5);
    const user = await makeUser(t);
    const seed = songs[0]?.id ?? 0;
    const response = await t.as(user).post('/api/radio/next', { seedIds: [seed], historyIds: [], count: 3 });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<{ songIds: number[]; songs: { id: number; link: string }[] }>();
    const { songIds } = answer;
    expect(songIds[0]).toBe(seed);
    expect(songIds).toHaveLength(3);
    // The same songs as the song lists answer them, for the player's queue.
    expect(answer.songs.map((song) => song.id)).toEqual(songIds);
    expect(answer.songs.every((song) => song.link.length > 0)).toBe(true);
  });

  it('never answers a song whose file went missing after an earlier radio, and its ids match its songs', async () => {
    const songs = await insertSongs(t, 8, 'Missing Radio Band');
    const user = await makeUser(t);
    const seed = songs[0]?.id ?? 0;
    // The radio's facts read now hold these songs as present: only the checks against the database can drop them
    // (listByIds keeps a missing song, unlike a hidden one).
    await t.composition.services.radio.refresh();
    const ask = async () =>
      (await t.as(user).post('/api/radio/next', { seedIds: [seed], historyIds: [], count: 8 })).json<{
        songIds: number[];
        songs: { id: number }[];
      }>();
    const before = await ask();
    const gone = before.songIds.slice(1, 4);
    expect(gone).toHaveLength(3);
    // Marking them missing changes no stamp the radio's facts are read again by.
    await t.db.updateTable('songs').set({ missing_since: '2026-01-02T00:00:00Z' }).where('id', 'in', gone).execute();
    const after = await ask();
    expect(after.songIds[0]).toBe(seed);
    expect(after.songIds.some((id) => gone.includes(id))).toBe(false);
    expect(after.songs.map((song) => song.id)).toEqual(after.songIds);
  });

  it('refuses a request without a seed, with too many songs asked, or with a bad id (400 naming the field)', async () => {
    const user = await makeUser(t);
    for (const [body, field] of [
      [{ seedIds: [] }, 'seedIds'],
      [{ seedIds: [1], count: 51 }, 'count'],
      [{ seedIds: ['x'] }, 'seedIds'],
      [{ seedIds: [1], historyIds: Array.from({ length: 101 }, (_, i) => i + 1) }, 'historyIds'],
    ] as const) {
      const response = await t.as(user).post('/api/radio/next', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorOf(response.body).field ?? '').toContain(field);
    }
  });

  it('answers no songs for a seed that does not exist', async () => {
    const user = await makeUser(t);
    const response = await t.as(user).post('/api/radio/next', { seedIds: [987_654] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ songIds: [], songs: [] });
  });
});
