import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { insertSongs } from '../../test/factories.js';
import { createAlbumsRepository } from '../modules/albums/albums.repository.js';
import { createSongsRepository } from '../modules/songs/songs.repository.js';
import { CatalogueRows } from './catalogue-rows.js';

describeEachDialect('catalogue rows kept in memory (%s)', { uses: 'database' }, (t) => {
  const version = async () =>
    (await t.db.selectFrom('catalogue_rows_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow())
      .version;

  it('reads only the rows it does not hold, in the order asked, until the version moves', async () => {
    const [a, b, c] = await insertSongs(t, 3, 'Cache Artist');
    const ids = [a?.id ?? 0, b?.id ?? 0, c?.id ?? 0];
    const rows = new CatalogueRows<{ id: number; name: string }>(t.db, 10);
    const asked: number[][] = [];
    const load = async (missing: number[]) => {
      asked.push([...missing].sort((x, y) => x - y));
      return t.db.selectFrom('songs').select(['id', 'name']).where('id', 'in', missing).execute();
    };
    const names = async (list: number[]) => (await rows.get(list, load, (row) => row.id)).map((row) => row.id);

    expect(await names([ids[2] ?? 0, ids[0] ?? 0, 999_999, ids[2] ?? 0])).toEqual([ids[2], ids[0]]);
    expect(await names([ids[0] ?? 0, ids[1] ?? 0, ids[2] ?? 0])).toEqual(ids);
    expect(asked).toEqual([[ids[0], ids[2], 999_999], [ids[1]]]);
    const [held] = await rows.get([ids[0] ?? 0], load, (row) => row.id);
    expect(Object.isFrozen(held)).toBe(true);
    expect(asked).toHaveLength(2);

    // A write anyone makes (here straight through SQL) moves the version: everything is read again.
    await t.db
      .updateTable('songs')
      .set({ name: 'Renamed' })
      .where('id', '=', ids[0] ?? 0)
      .execute();
    const [renamed] = await rows.get([ids[0] ?? 0], load, (row) => row.id);
    expect(renamed?.name).toBe('Renamed');
    expect(asked.at(-1)).toEqual([ids[0]]);
  });

  it('moves the version with every write that changes what a song or an album answers', async () => {
    const [song] = await insertSongs(t, 1, 'Version Artist');
    const songId = song?.id ?? 0;
    const artistId = (
      await t.db.selectFrom('songs').select('artist_id').where('id', '=', songId).executeTakeFirstOrThrow()
    ).artist_id;
    const writes: [string, () => Promise<unknown>][] = [
      ['a song renamed', () => t.db.updateTable('songs').set({ name: 'New name' }).where('id', '=', songId).execute()],
      [
        'an artist renamed',
        () => t.db.updateTable('artists').set({ name: 'New artist' }).where('id', '=', artistId).execute(),
      ],
      [
        'an album added',
        () =>
          t.db
            .insertInto('albums')
            .values({ name: 'Versioned', artist_id: null, year: null, image_key: null, created_at: '2026-01-01' })
            .execute(),
      ],
      [
        'a track moved',
        async () => {
          const album = await t.db
            .selectFrom('albums')
            .select('id')
            .where('name', '=', 'Versioned')
            .executeTakeFirstOrThrow();
          // From its artist's placeholder (every song is on an album) to this one.
          await t.db
            .updateTable('album_tracks')
            .set({ album_id: album.id, disc_number: 1, track_number: 1 })
            .where('song_id', '=', songId)
            .execute();
        },
      ],
      [
        'a track renumbered',
        () => t.db.updateTable('album_tracks').set({ track_number: 2 }).where('song_id', '=', songId).execute(),
      ],
      [
        'an album renamed',
        () => t.db.updateTable('albums').set({ name: 'Versioned again' }).where('name', '=', 'Versioned').execute(),
      ],
      ['a track removed', () => t.db.deleteFrom('album_tracks').where('song_id', '=', songId).execute()],
      ['an album deleted', () => t.db.deleteFrom('albums').where('name', '=', 'Versioned again').execute()],
      ['an artist deleted', () => t.db.deleteFrom('artists').where('id', '=', artistId).execute()],
      ['a song deleted', () => t.db.deleteFrom('songs').where('id', '=', songId).execute()],
    ];
    for (const [name, write] of writes) {
      const before = await version();
      await write();
      expect({ name, moved: (await version()) > before }).toEqual({ name, moved: true });
    }
    // A new artist changes no row held (no song is theirs yet): the version stays.
    const before = await version();
    await t.db.insertInto('artists').values({ name: 'Newcomer', image_key: null }).execute();
    expect(await version()).toBe(before);
  });

  it('keeps at most its capacity, the oldest out first', async () => {
    const songs = await insertSongs(t, 3, 'Capacity Artist');
    const ids = songs.map((song) => song.id);
    const rows = new CatalogueRows<{ id: number }>(t.db, 2);
    let loads = 0;
    const load = (missing: number[]) => {
      loads += missing.length;
      return Promise.resolve(missing.map((id) => ({ id })));
    };
    await rows.get(ids, load, (row) => row.id);
    expect(loads).toBe(3);
    await rows.get(ids.slice(1), load, (row) => row.id);
    expect(loads).toBe(3);
    await rows.get(ids.slice(0, 1), load, (row) => row.id);
    expect(loads).toBe(4);
  });

  it('answers the songs and albums repositories from memory, and never inside a transaction', async () => {
    const [song] = await insertSongs(t, 1, 'Repository Artist');
    const songId = song?.id ?? 0;
    const songs = createSongsRepository(t.db);
    const albums = createAlbumsRepository(t.db);
    await t.db
      .insertInto('albums')
      .values({ name: 'Held', artist_id: null, year: null, image_key: null, created_at: '2026-01-01' })
      .execute();
    const albumId = (await t.db.selectFrom('albums').select('id').where('name', '=', 'Held').executeTakeFirstOrThrow())
      .id;
    await albums.placeSong(songId, { albumId, discNumber: 1, trackNumber: 1 });
    const [first] = await songs.byIds([songId]);
    const [again] = await songs.byIds([songId]);
    expect(again).toBe(first);
    expect((await albums.tracks(albumId)).map((row) => row.name)).toEqual([first?.name]);
    expect(await albums.find(albumId)).toBe(await albums.find(albumId));
    await t.db.updateTable('songs').set({ name: 'Heard anew' }).where('id', '=', songId).execute();
    expect((await songs.byIds([songId]))[0]?.name).toBe('Heard anew');
    expect((await albums.tracks(albumId)).map((row) => row.name)).toEqual(['Heard anew']);
    expect((await albums.find(albumId))?.song_count).toBe(1);
    await songs.inTransaction(async (inside) => {
      const [one] = await inside.byIds([songId]);
      const [two] = await inside.byIds([songId]);
      expect(two).not.toBe(one);
    });
  });
});
