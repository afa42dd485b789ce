import { UNKNOWN_ALBUM } from '@tonearm/contract';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertManySongs, insertSongs } from '../../../test/factories.js';
import { appliedMigrations, migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 018 (album placeholders) on %s', { uses: 'database', fresh: 'each' }, (t) => {
  /** Reverts the migrations down to (and including) 018; answers what was reverted, newest first. */
  async function revert(): Promise<string[]> {
    const reverted: string[] = [];
    while (!reverted.includes('018-album-placeholders')) reverted.push(...(await migrateDown(t.db)));
    expect(await appliedMigrations(t.db)).not.toContain('018-album-placeholders');
    return reverted;
  }

  /** Every song with the album it is on (null: none) and that album's name, artist and placeholder mark. */
  const places = () =>
    t.db
      .selectFrom('songs')
      .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
      .leftJoin('albums', 'albums.id', 'album_tracks.album_id')
      .select([
        'songs.id',
        'songs.artist_id',
        'album_tracks.album_id',
        'album_tracks.track_number',
        'albums.name',
        'albums.artist_id as album_artist',
      ])
      .orderBy('songs.id')
      .execute();

  it('puts every song on no album on its artist placeholder, and takes them off again going down', async () => {
    const reverted = await revert();
    // As the version before left things: songs of two artists and of none, some on a real album, and an album an
    // import made of files tagged "Unknown album".
    const quartet = await insertSongs(t, 3, 'Quartet');
    const trio = await insertSongs(t, 2, 'Trio');
    const orphans = await insertManySongs(t, 2);
    const artistOf = async (songId: number) =>
      (await t.db.selectFrom('songs').select('artist_id').where('id', '=', songId).executeTakeFirstOrThrow()).artist_id;
    const quartetId = await artistOf(quartet[0]?.id ?? 0);
    const trioId = await artistOf(trio[0]?.id ?? 0);
    const now = new Date().toISOString();
    const real = await t.db
      .insertInto('albums')
      .values({ name: 'Real Record', artist_id: quartetId, year: 1999, image_key: 'cover.jpg', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tagged = await t.db
      .insertInto('albums')
      .values({ name: UNKNOWN_ALBUM, artist_id: trioId, year: null, image_key: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('album_tracks')
      .values([
        { song_id: quartet[0]?.id ?? 0, album_id: real.id, disc_number: 1, track_number: 1 },
        { song_id: trio[0]?.id ?? 0, album_id: tagged.id, disc_number: null, track_number: null },
      ])
      .execute();
    const before = await places();

    expect(await migrateToLatest(t.db)).toEqual(reverted.reverse());
    const after = await places();
    expect(after.every((song) => song.album_id !== null)).toBe(true);
    const byId = new Map(after.map((song) => [song.id, song]));
    // The real album keeps its song where it was.
    expect(byId.get(quartet[0]?.id ?? 0)).toMatchObject({ album_id: real.id, track_number: 1 });
    // The others are on their own artist's placeholder, the songs of no artist on "Unknown artist"'s.
    for (const song of [...quartet.slice(1), ...trio, ...orphans.map((id) => ({ id }))]) {
      const placed = byId.get(song.id);
      expect(placed).toMatchObject({ name: UNKNOWN_ALBUM, track_number: null });
      expect(placed?.album_artist).toBe(placed?.artist_id);
    }
    // The album already named so became the trio's placeholder: one per artist.
    expect(byId.get(trio[1]?.id ?? 0)?.album_id).toBe(tagged.id);
    const albums = await t.db
      .selectFrom('albums')
      .select(['id', 'name', 'artist_id', 'is_placeholder', 'image_key', 'year'])
      .orderBy('id')
      .execute();
    expect(albums).toHaveLength(4);
    const placeholders = albums.filter((album) => album.is_placeholder === 1).map((album) => album.artist_id);
    expect(placeholders).toHaveLength(3);
    expect(placeholders).toEqual(expect.arrayContaining([trioId, quartetId, null]));
    expect(albums.find((album) => album.id === real.id)).toMatchObject({ is_placeholder: 0, image_key: 'cover.jpg' });
    expect(albums.filter((album) => album.is_placeholder === 1).every((album) => album.image_key === null)).toBe(true);

    // Down: the songs are back on no album, the real album is as it was.
    await revert();
    const columns = (await t.db.introspection.getTables()).find((table) => table.name === 'albums')?.columns ?? [];
    expect(columns.map((column) => column.name)).not.toContain('is_placeholder');
    expect(await places()).toEqual(
      before.map((song) =>
        song.album_id === tagged.id ? { ...song, album_id: null, name: null, album_artist: null } : song,
      ),
    );
    expect(await t.db.selectFrom('albums').select('id').execute()).toEqual([{ id: real.id }]);
    expect(await migrateToLatest(t.db)).toContain('018-album-placeholders');
    expect((await places()).every((song) => song.album_id !== null)).toBe(true);
  });

  it('changes nothing on a database whose songs are all on albums', async () => {
    await revert();
    expect(await migrateToLatest(t.db)).toContain('018-album-placeholders');
    expect(await t.db.selectFrom('albums').select('id').execute()).toEqual([]);
  });
});
