import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, insertUser, type TestSong } from '../../../test/factories.js';
import { createRadioRepository } from './radio.repository.js';
import { createRadioService } from './radio.service.js';
import { encodeVector } from './vector-index.js';

describeEachDialect('radio service (%s)', { uses: 'database' }, (t) => {
  let near: TestSong[];
  let far: TestSong[];

  beforeEach(async () => {
    near = await insertSongs(t, 6);
    far = await insertSongs(t, 6);
  });

  /** Stores a vector for a song as the analyser would (version 1). */
  async function storeVector(songId: number, values: number[], version = 1) {
    await t.db
      .insertInto('song_features')
      .values({
        song_id: songId,
        version,
        vector: Buffer.from(encodeVector(values)),
        failed: null,
        analysed_at: '2026-01-01T00:00:00Z',
      })
      .execute();
  }

  async function storeTwoStyles() {
    for (const [i, s] of near.entries()) await storeVector(s.id, [1 + i * 0.01, 0, 5]);
    for (const [i, s] of far.entries()) await storeVector(s.id, [-1 - i * 0.01, 3, 5]);
  }

  const service = () => createRadioService(createRadioRepository(t.db));
  const ids = (songs: { songId: number }[]) => songs.map((s) => s.songId);

  it('starts with the seed and continues with the songs whose audio is nearest', async () => {
    await storeTwoStyles();
    // Different genres, so that only the audio tells the two groups apart.
    await t.db
      .updateTable('songs')
      .set({ genre: 'Rock' })
      .where('id', 'in', ids(far.map((s) => ({ songId: s.id }))))
      .execute();
    const radio = service();
    const next = await radio.next({ seedIds: [near[0]?.id ?? 0], historyIds: [], count: 4, hidden: [] });
    expect(ids(next)[0]).toBe(near[0]?.id);
    // At most 3 in a row by one artist: the seed and two more of the seed's artist, then another artist.
    expect(
      ids(next)
        .slice(1, 3)
        .every((id) => near.some((s) => s.id === id)),
    ).toBe(true);
    expect(far.some((s) => s.id === ids(next)[3])).toBe(true);
  });

  it('leaves out songs in a library the listener may not see, songs whose file is missing, and seeds it hides', async () => {
    await storeTwoStyles();
    const library = await t.db
      .insertInto('libraries')
      .values({ name: 'Private', path: '/music/private', created_at: '2026-01-01T00:00:00Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hiddenSong = near[1]?.id ?? 0;
    const missingSong = near[2]?.id ?? 0;
    await t.db.updateTable('songs').set({ library_id: library.id }).where('id', '=', hiddenSong).execute();
    await t.db
      .updateTable('songs')
      .set({ missing_since: '2026-01-02T00:00:00Z' })
      .where('id', '=', missingSong)
      .execute();
    const radio = service();
    const next = await radio.next({ seedIds: [near[0]?.id ?? 0], historyIds: [], count: 11, hidden: [library.id] });
    expect(ids(next)).not.toContain(hiddenSong);
    expect(ids(next)).not.toContain(missingSong);
    expect(await radio.next({ seedIds: [hiddenSong], historyIds: [], count: 5, hidden: [library.id] })).toEqual([]);
  });

  it('gives songs without vectors a radio from their tags and what listeners play together', async () => {
    const user = await insertUser(t, { username: 'ann' });
    const [seedSong, partner] = [near[0]?.id ?? 0, far[4]?.id ?? 0];
    await t.db
      .updateTable('songs')
      .set({ genre: 'Rock' })
      .where('artist_id', '=', (eb) => eb.selectFrom('songs').select('artist_id').where('id', '=', partner))
      .execute();
    // The seed's artist alone has its genre (the database keeps the earlier tests' songs, of the default genre).
    await t.db
      .updateTable('songs')
      .set({ genre: 'Folk' })
      .where(
        'id',
        'in',
        near.map((s) => s.id),
      )
      .execute();
    for (const [songId, at] of [
      [seedSong, '2026-03-01T20:05:00Z'],
      [partner, '2026-03-01T20:09:00Z'],
    ] as const) {
      await t.db
        .insertInto('listens')
        .values({ user_id: user.id, song_id: songId, played_at: at, listened_ms: 60_000, source: 'web', client: null })
        .execute();
    }
    const next = await service().next({ seedIds: [seedSong], historyIds: [], count: 12, hidden: [] });
    expect(ids(next)[0]).toBe(seedSong);
    // The co-listened song of another genre and artist comes right after the seed's artist's songs of its genre.
    expect(ids(next)).toContain(partner);
    expect(ids(next).filter((id) => far.some((s) => s.id === id))).toEqual([partner]);
  });

  it("finds the songs of the seed's genre as they are tagged, capitals and all", async () => {
    const genre = `Deep Kin ${String(near[0]?.id)}`;
    const kin = far[2]?.id ?? 0;
    await t.db
      .updateTable('songs')
      .set({ genre })
      .where('id', 'in', [near[0]?.id ?? 0, kin])
      .execute();
    const next = await service().next({ seedIds: [near[0]?.id ?? 0], historyIds: [], count: 10, hidden: [] });
    expect(ids(next)).toContain(kin);
  });

  it('continues a radio without the seed and without what was played or queued', async () => {
    await storeTwoStyles();
    const seed = near[0]?.id ?? 0;
    const history = [seed, near[1]?.id ?? 0, far[0]?.id ?? 0];
    const next = await service().next({ seedIds: [seed], historyIds: history, count: 20, hidden: [] });
    expect(ids(next).some((id) => history.includes(id))).toBe(false);
    expect(new Set(ids(next)).size).toBe(next.length);
  });

  it('reads vectors again when they change, and only those of the newest version', async () => {
    let clock = 0;
    const radio = createRadioService(createRadioRepository(t.db), () => clock);
    await storeVector(near[0]?.id ?? 0, [1, 0, 5]);
    await radio.refresh();
    expect(radio.indexed(near[0]?.id ?? 0)).toBe(true);
    for (const s of far) await storeVector(s.id, [0, 1, 2], 2);
    // Within the stamp's interval the index stays as it was; after it, the newest version replaces the old.
    await radio.next({ seedIds: [far[0]?.id ?? 0], historyIds: [], count: 1, hidden: [] });
    expect(radio.indexed(far[0]?.id ?? 0)).toBe(false);
    clock += 60_000;
    await radio.next({ seedIds: [far[0]?.id ?? 0], historyIds: [], count: 1, hidden: [] });
    expect(far.every((s) => radio.indexed(s.id))).toBe(true);
    expect(radio.indexed(near[0]?.id ?? 0)).toBe(false);
  });
});
