import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs } from '../../../test/factories.js';
import { CatalogueIndex } from './catalogue-index.js';
import { createSongPagesRepository } from './song-pages.repository.js';

describeEachDialect('the in-memory catalogue (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  const version = () => createSongPagesRepository(t.db).version();

  it('sees its version move with every write that changes a list, whoever makes it', async () => {
    let last = await version();
    const moved = async (what: string) => {
      const now = await version();
      expect(now, what).not.toBe(last);
      last = now;
    };
    const [song] = await insertSongs(t, 1, 'Versioned');
    await moved('insert');
    await t.db
      .updateTable('songs')
      .set({ genre: 'Jazz' })
      .where('id', '=', song?.id ?? 0)
      .execute();
    await moved('genre');
    await t.db.updateTable('songs').set({ name: 'Renamed' }).execute();
    expect(await version(), 'a new name changes no list').toBe(last);
    // The foreign key's "set null" is a write too.
    await t.db.deleteFrom('artists').where('name', '=', 'Versioned').execute();
    await moved('artist deleted');
    await t.db.deleteFrom('songs').execute();
    await moved('delete');
  });

  it('loads in chunks, filters, counts, and refreshes from the snapshot it has when someone else writes', async () => {
    const a = await insertSongs(t, 7, 'Index A');
    const b = await insertSongs(t, 5, 'Index B');
    await t.db
      .updateTable('songs')
      .set({ genre: 'Rock' })
      .where('id', '=', a[0]?.id ?? 0)
      .execute();
    const artistA = (
      await t.db
        .selectFrom('songs')
        .select('artist_id')
        .where('id', '=', a[0]?.id ?? 0)
        .executeTakeFirst()
    )?.artist_id;
    const index = new CatalogueIndex(createSongPagesRepository(t.db), 3, 0);
    const first = await index.snapshot();
    expect([...first.ids]).toEqual([...a, ...b].map((song) => song.id));
    expect(first.count({})).toBe(12);
    expect(first.count({ artistId: artistA ?? 0 })).toBe(7);
    expect(first.count({ genre: 'Rock' })).toBe(1);
    expect(first.count({ genre: 'Rock', artistId: artistA ?? 0 })).toBe(1);
    expect(first.count({ genre: 'Polka' })).toBe(0);
    expect(first.holds(a[0]?.id ?? 0, { genre: 'Rock' })).toBe(true);
    expect(first.holds(a[1]?.id ?? 0, { genre: 'Rock' })).toBe(false);
    expect(first.holds(999_999, {})).toBe(false);

    const [added] = await insertSongs(t, 1, 'Index C');
    // Someone else's write: answered from the snapshot at hand while a fresh one loads.
    expect(await index.snapshot()).toBe(first);
    await expect.poll(async () => (await index.snapshot()).ids.includes(added?.id ?? 0)).toBe(true);

    // This process's own writes show at once, without a load.
    index.songSaved({ id: 999_999, artist_id: null, genre: 'Rock' });
    expect((await index.snapshot()).count({ genre: 'Rock' })).toBe(2);
    index.songSaved({ id: a[0]?.id ?? 0, artist_id: artistA ?? 0, genre: 'Pop' });
    index.songRemoved(added?.id ?? 0);
    const now = await index.snapshot();
    expect(now.count({ genre: 'Rock' })).toBe(1);
    expect([...now.ids]).toEqual([...a, ...b].map((song) => song.id).concat(999_999));
    expect(first.count({ genre: 'Rock' }), 'snapshots do not change').toBe(1);
  });
});

describeEachDialect('the in-memory catalogue while it loads (%s)', { uses: 'database' }, (t) => {
  it('replays this process’s changes made during a load on the loaded snapshot', async () => {
    const songs = await insertSongs(t, 5, 'Replayed');
    const repository = createSongPagesRepository(t.db);
    let release: (value: undefined) => void = () => undefined;
    const gate = new Promise<undefined>((resolve) => {
      release = resolve;
    });
    const chunks: number[] = [];
    const slow = {
      version: () => repository.version(),
      chunk: async (afterId: number, limit: number) => {
        chunks.push(afterId);
        if (chunks.length === 2) await gate;
        return repository.chunk(afterId, limit);
      },
    };
    const index = new CatalogueIndex(slow, 2, 0);
    const loading = index.snapshot();
    await expect.poll(() => chunks.length).toBe(2);
    // Neither is in the database: only the replay can bring them into the snapshot.
    index.songSaved({ id: 888_888, artist_id: null, genre: 'Jazz' });
    index.songRemoved(songs[0]?.id ?? 0);
    release(undefined);
    const loaded = await loading;
    expect([...loaded.ids]).toEqual([...songs.slice(1).map((song) => song.id), 888_888]);
    expect(await index.snapshot()).toBe(loaded);
  });
});
