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
    const index = new CatalogueIndex(createSongPagesRepository(t.db), 3);
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

    // A write of our own: the next snapshot waits for a fresh load.
    await t.db
      .deleteFrom('songs')
      .where('id', '=', added?.id ?? 0)
      .execute();
    index.invalidate();
    expect([...(await index.snapshot()).ids]).toEqual([...a, ...b].map((song) => song.id));
  });
});
