import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs } from '../../../test/factories.js';
import { CatalogueIndex, CatalogueSnapshot } from './catalogue-index.js';
import { shuffledPage } from './shuffle-order.js';
import { createSongPagesRepository, type CatalogueFilter } from './song-pages.repository.js';

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
    await expect.poll(async () => (await index.snapshot()).ids.includes(added?.id ?? 0), { timeout: 5000 }).toBe(true);

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
      featured: () => repository.featured(),
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

describe('a snapshot’s shuffled pages', () => {
  const ids = Int32Array.from({ length: 4000 }, (_, index) => index + 1);
  const artists = ids.map((id) => id % 40);
  const genres = ids.map((id) => id % 3);
  // Songs 1–1000 are held in the blob store (0); the rest are in libraries 1 and 2, alternately.
  const libraries = ids.map((id) => (id <= 1000 ? 0 : 1 + (id % 2)));
  const snapshot = new CatalogueSnapshot(
    1,
    ids,
    artists,
    genres,
    new Map([
      ['Rock', 0],
      ['Jazz', 1],
      ['Pop', 2],
    ]),
    libraries,
  );

  it('answers the same pages on a seed’s first request and once it is sorted, and through a filter', () => {
    const walk = (filter: CatalogueFilter, limit: number) => {
      const seen: number[] = [];
      let afterId: number | undefined;
      for (;;) {
        const page = snapshot.shuffledPage(77, afterId, limit, filter);
        expect(page).toEqual(
          shuffledPage(
            [...ids].filter((id) => snapshot.holds(id, filter)),
            { seed: 77, afterId, limit },
          ),
        );
        seen.push(...page.ids);
        if (!page.more) return seen;
        afterId = page.ids.at(-1);
      }
    };
    const first = snapshot.shuffledPage(77, undefined, 50, {});
    expect(snapshot.shuffledPage(77, undefined, 50, {}), 'sorted on the second request').toEqual(first);
    expect(walk({}, 333)).toHaveLength(4000);
    expect(walk({ artistId: 7 }, 30)).toHaveLength(100);
    expect(walk({ genre: 'Jazz' }, 500)).toHaveLength(1334);
    expect(walk({ genre: 'Jazz', artistId: 7 }, 10)).toHaveLength(100 / 3 + 2 / 3);
    expect(walk({ hidden: [2] }, 400), 'library 2 hidden').toHaveLength(2500);
    expect(walk({ hidden: [1, 2] }, 400), 'both libraries hidden').toHaveLength(1000);
    expect(walk({ hidden: [2], genre: 'Jazz' }, 100)).toHaveLength(
      [...ids].filter((id) => id % 3 === 1 && (id <= 1000 || id % 2 === 0)).length,
    );
    expect(snapshot.holds(1001, { hidden: [2] }), 'song 1001 is in library 2').toBe(false);
    expect(snapshot.holds(1001, { hidden: [1] })).toBe(true);
    expect(snapshot.count({ genre: 'Polka' })).toBe(0);
    expect(snapshot.shuffledPage(77, undefined, 10, { genre: 'Polka' })).toEqual({ ids: [], more: false, total: 0 });
  });

  it('keeps its pages when a song is added or removed: the new snapshot pages the changed catalogue', () => {
    snapshot.shuffledPage(5, undefined, 20, {});
    const sortedPage = snapshot.shuffledPage(5, undefined, 20, {});
    const gone = sortedPage.ids[3] ?? 0;
    const without = snapshot.withSong(gone, null);
    const page = without.shuffledPage(5, undefined, 20, {});
    expect(page.ids).not.toContain(gone);
    expect(page.total).toBe(3999);
    expect(snapshot.shuffledPage(5, undefined, 20, {}), 'the old snapshot does not change').toEqual(sortedPage);
    const withNew = without.withSong(5000, { id: 5000, artist_id: 7, genre: 'Rock' });
    expect(withNew.count({ artistId: 7 })).toBe(without.count({ artistId: 7 }) + 1);
    const inLibrary = withNew.withSong(5001, { id: 5001, artist_id: 7, genre: 'Rock', library_id: 3 });
    expect(inLibrary.count({ hidden: [3] })).toBe(withNew.count({}));
    expect(inLibrary.count({})).toBe(withNew.count({}) + 1);
  });
});
