import type { Worker } from 'node:worker_threads';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, insertUser, type TestSong } from '../../../test/factories.js';
import { createRadioRepository } from './radio.repository.js';
import { createRadioService } from './radio.service.js';
import { engineOnThread } from './radio-thread.js';
import { encodeVector } from '../analysis/feature-layout.js';

describeEachDialect('radio service (%s)', { uses: 'database' }, (t) => {
  let near: TestSong[];
  let far: TestSong[];

  beforeEach(async () => {
    near = await insertSongs(t, 6);
    far = await insertSongs(t, 6);
  });

  /** Stores a vector for a song as the analyser would (version 1). */
  async function storeVector(songId: number, values: number[], version = 1, analysedAt = '2026-01-01T00:00:00Z') {
    await t.db
      .insertInto('song_features')
      .values({
        song_id: songId,
        version,
        vector: encodeVector(values),
        failed: null,
        analysed_at: analysedAt,
      })
      .execute();
  }

  async function storeTwoStyles() {
    for (const [i, s] of near.entries()) await storeVector(s.id, [1 + i * 0.01, 0, 5]);
    for (const [i, s] of far.entries()) await storeVector(s.id, [-1 - i * 0.01, 3, 5]);
  }

  const service = () => createRadioService(createRadioRepository(t.db));
  /** A new library (its id), for songs a listener may not see (the database is kept from test to test). */
  const privateLibrary = async () => {
    const name = `Private ${String(near[0]?.id)}`;
    const row = await t.db
      .insertInto('libraries')
      .values({ name, path: `/music/${name}`, created_at: '2026-01-01T00:00:00Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
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

  it('checks its songs against the database: a song hidden or missing since its facts were read is not answered', async () => {
    await storeTwoStyles();
    const radio = service();
    const seed = near[0]?.id ?? 0;
    const before = await radio.next({ seedIds: [seed], historyIds: [], count: 6, hidden: [] });
    const [hiddenSong, missingSong] = [ids(before)[1] ?? 0, ids(before)[2] ?? 0];
    const library = await privateLibrary();
    // Neither edit changes what the facts' stamp reads (the songs' count, newest id and plays): the facts stay stale.
    await t.db.updateTable('songs').set({ library_id: library }).where('id', '=', hiddenSong).execute();
    await t.db
      .updateTable('songs')
      .set({ missing_since: '2026-01-02T00:00:00Z' })
      .where('id', '=', missingSong)
      .execute();
    const after = await radio.next({ seedIds: [seed], historyIds: [], count: 6, hidden: [library] });
    expect(ids(after)).not.toContain(hiddenSong);
    expect(ids(after)).not.toContain(missingSong);
    // The batch is chosen again without them: still full.
    expect(after).toHaveLength(6);
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

  it('tells the audio similarity of songs to one: 1 for itself, null without vectors', async () => {
    await storeTwoStyles();
    const [seed, close, away] = [near[0]?.id ?? 0, near[1]?.id ?? 0, far[0]?.id ?? 0];
    const bare = (await insertSongs(t, 1))[0]?.id ?? 0;
    const radio = service();
    const similar = await radio.similarities(seed, [seed, close, away, bare]);
    expect(similar.get(seed)).toBe(1);
    expect(similar.get(close)).toBeGreaterThan(0.9);
    expect(similar.get(away)).toBeLessThan(0);
    expect(similar.get(bare)).toBeNull();
    expect((await radio.similarities(bare, [seed, bare])).get(seed)).toBeNull();
  });

  it('finds the artists like one among those of the songs its radio chooses, that the listener sees', async () => {
    // No vectors here: a genre of their own ties the seed's artist to one other, and a third shares nothing.
    const [kin, stranger] = [await insertSongs(t, 4), await insertSongs(t, 3)];
    const genre = `Kin ${String(near[0]?.id)}`;
    const ofSongs = (songs: TestSong[]) => songs.map((s) => s.id);
    await t.db
      .updateTable('songs')
      .set({ genre })
      .where('id', 'in', [...ofSongs(near), ...ofSongs(kin)])
      .execute();
    const artistOf = async (songId: number) =>
      (await t.db.selectFrom('songs').select('artist_id').where('id', '=', songId).executeTakeFirstOrThrow())
        .artist_id ?? 0;
    const [artistId, kinArtist] = [await artistOf(near[0]?.id ?? 0), await artistOf(kin[0]?.id ?? 0)];
    expect(await artistOf(stranger[0]?.id ?? 0)).not.toBe(kinArtist);
    const request = { artistId, seedIds: ofSongs(near), count: 5, hidden: [] };
    expect(await service().similarArtists(request)).toEqual([kinArtist]);
    expect(await service().similarArtists({ ...request, count: 0 })).toEqual([]);
    expect(await service().similarArtists({ ...request, seedIds: [] })).toEqual([]);
    const library = await privateLibrary();
    await t.db.updateTable('songs').set({ library_id: library }).where('id', 'in', ofSongs(kin)).execute();
    expect(await service().similarArtists({ ...request, hidden: [library] })).toEqual([]);
  });

  it('leads a sonic path from one song to another through the songs between their sounds', async () => {
    // A line of sounds from the first near song's to the last far song's: the path walks along it.
    const line = [...near, ...far];
    for (const [i, s] of line.entries())
      await storeVector(s.id, [Math.cos((i * Math.PI) / 22), Math.sin((i * Math.PI) / 22), 5 + (i % 2) * 0.001]);
    const [start, end] = [line[0]?.id ?? 0, line.at(-1)?.id ?? 0];
    const radio = service();
    const path = await radio.path({ startId: start, endId: end, length: 6, hidden: [] });
    expect(path[0]).toBe(start);
    expect(path.at(-1)).toBe(end);
    expect(path).toHaveLength(6);
    expect(new Set(path).size).toBe(6);
    // Each step further from the start's sound.
    const similar = await radio.similarities(start, path);
    const steps = path.map((id) => similar.get(id) ?? 2);
    expect([...steps].sort((a, b) => b - a)).toEqual(steps);
    expect(await radio.path({ startId: start, endId: start, length: 6, hidden: [] })).toEqual([start]);
    expect(await radio.path({ startId: start, endId: end, length: 1, hidden: [] })).toEqual([start, end]);
  });

  it('gives a path of the two ends alone without vectors, and none through songs the listener may not play', async () => {
    const radio = service();
    const [start, end] = [near[0]?.id ?? 0, far[0]?.id ?? 0];
    expect(await radio.path({ startId: start, endId: end, length: 10, hidden: [] })).toEqual([start, end]);
    await storeTwoStyles();
    const library = await privateLibrary();
    const hidden = [near[1]?.id ?? 0, near[2]?.id ?? 0, far[1]?.id ?? 0];
    await t.db.updateTable('songs').set({ library_id: library }).where('id', 'in', hidden).execute();
    const path = await service().path({ startId: start, endId: end, length: 12, hidden: [library] });
    expect([path[0], path.at(-1)]).toEqual([start, end]);
    expect(path.length).toBeGreaterThan(2);
    expect(path.some((id) => hidden.includes(id))).toBe(false);
    expect(await service().path({ startId: hidden[0] ?? 0, endId: end, length: 5, hidden: [library] })).toEqual([]);
  });

  it('answers the same with its engine on a thread of its own as in this thread', async () => {
    await storeTwoStyles();
    const here = service();
    const thread = createRadioService(createRadioRepository(t.db), { engine: engineOnThread() });
    try {
      const seed = near[0]?.id ?? 0;
      const request = { seedIds: [seed], historyIds: [near[3]?.id ?? 0], count: 6, hidden: [] };
      const chosen = ids(await thread.next(request));
      expect(chosen).toHaveLength(6);
      expect(chosen).toEqual(ids(await here.next(request)));
      const path = { startId: seed, endId: far[0]?.id ?? 0, length: 8, hidden: [] };
      expect(await thread.path(path)).toEqual(await here.path(path));
      const others = far.map((s) => s.id);
      expect(await thread.similarities(seed, others)).toEqual(await here.similarities(seed, others));
      expect(await thread.indexed(seed)).toBe(true);
      expect(await thread.indexBytes()).toBe(await here.indexBytes());
    } finally {
      await thread.close();
    }
  });

  it('recovers from the death of its thread: the next request starts another and reads the snapshot again', async () => {
    await storeTwoStyles();
    const threads: Worker[] = [];
    const radio = createRadioService(createRadioRepository(t.db), {
      engine: engineOnThread({ onStart: (worker) => threads.push(worker) }),
    });
    try {
      const request = { seedIds: [near[0]?.id ?? 0], historyIds: [], count: 6, hidden: [] };
      const before = ids(await radio.next(request));
      expect(before).toHaveLength(6);
      await threads[0]?.terminate();
      await new Promise((resolve) => setImmediate(resolve));
      expect(ids(await radio.next(request))).toEqual(before);
      expect(threads).toHaveLength(2);
      expect(await radio.indexed(near[0]?.id ?? 0)).toBe(true);
    } finally {
      await radio.close();
    }
  });

  it("reads the songs' facts again when songs, plays or listens are added, and not before the stamp's interval", async () => {
    let clock = 0;
    const radio = createRadioService(createRadioRepository(t.db), { now: () => clock });
    const genre = `Stamp Kin ${String(near[0]?.id)}`;
    await t.db
      .updateTable('songs')
      .set({ genre })
      .where('id', '=', near[0]?.id ?? 0)
      .execute();
    const seed = { seedIds: [near[0]?.id ?? 0], historyIds: [], count: 10, hidden: [] };
    expect(ids(await radio.next(seed))[0]).toBe(near[0]?.id);
    // A song of the seed's genre added since: a tag candidate only once the facts are read again.
    const [kin] = await insertSongs(t, 1);
    await t.db
      .updateTable('songs')
      .set({ genre })
      .where('id', '=', kin?.id ?? 0)
      .execute();
    expect(ids(await radio.next(seed))).not.toContain(kin?.id);
    clock += 60_000;
    await radio.next(seed);
    await radio.refreshed();
    expect(ids(await radio.next(seed))).toContain(kin?.id);
  });

  it("moves the songs' stamp with every song, play and listen added", async () => {
    const repository = createRadioRepository(t.db);
    const user = await insertUser(t, { username: `stamp${String(near[0]?.id)}` });
    const stamps = [await repository.songsStamp()];
    await insertSongs(t, 1);
    stamps.push(await repository.songsStamp());
    await t.db
      .insertInto('plays')
      .values({ user_id: user.id, song_id: near[0]?.id ?? 0, played_at: '2026-03-02T10:00:00Z' })
      .execute();
    stamps.push(await repository.songsStamp());
    await t.db
      .insertInto('listens')
      .values({
        user_id: user.id,
        song_id: near[0]?.id ?? 0,
        played_at: '2026-03-02T10:00:00Z',
        listened_ms: 60_000,
        source: 'web',
        client: null,
      })
      .execute();
    stamps.push(await repository.songsStamp());
    expect(new Set(stamps).size).toBe(4);
  });

  it('reads vectors again when they change, and only those of the newest version', async () => {
    let clock = 0;
    const radio = createRadioService(createRadioRepository(t.db), { now: () => clock });
    await storeVector(near[0]?.id ?? 0, [1, 0, 5]);
    await radio.refresh();
    expect(await radio.indexed(near[0]?.id ?? 0)).toBe(true);
    for (const s of far) await storeVector(s.id, [0, 1, 2], 2, '2026-01-02T00:00:00Z');
    // Within the stamp's interval the index stays as it was; after it, the newest version replaces the old.
    await radio.next({ seedIds: [far[0]?.id ?? 0], historyIds: [], count: 1, hidden: [] });
    expect(await radio.indexed(far[0]?.id ?? 0)).toBe(false);
    clock += 60_000;
    // After it, a request starts the check in the background; the new index is there once its build ends.
    await radio.next({ seedIds: [far[0]?.id ?? 0], historyIds: [], count: 1, hidden: [] });
    await radio.refreshed();
    expect(await Promise.all(far.map((s) => radio.indexed(s.id)))).toEqual(far.map(() => true));
    expect(await radio.indexed(near[0]?.id ?? 0)).toBe(false);
  });
});
