import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs } from '../../../test/factories.js';
import { createAlbumsRepository } from '../../modules/albums/albums.repository.js';
import { appliedMigrations, migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 007 (import sources) on %s', { uses: 'database', fresh: 'each' }, (t) => {
  it('carries a database with albums, written before it, forward with every row', async () => {
    const d = t.database;
    const reverted: string[] = [];
    while (!reverted.includes('007-import-sources')) reverted.push(...(await migrateDown(d.db)));
    expect(await appliedMigrations(d.db)).toContain('006-albums');
    // Written by the code of the version before: songs, an album, and the songs' places on it.
    const songs = await insertSongs(t, 2, 'Kept Track');
    const albums = createAlbumsRepository(d.db);
    const albumId = await albums.insert({ name: 'Kept Album', artist_id: null, year: 1999 });
    for (const [index, song] of songs.entries()) {
      expect(await albums.placeSong(song.id, { albumId, discNumber: 1, trackNumber: index + 1 })).toEqual([]);
    }
    const before = await d.db.selectFrom('songs').selectAll().orderBy('id').execute();
    // Read raw: the repositories of this version select columns that 007 adds.
    const tracks = () => d.db.selectFrom('album_tracks').selectAll().orderBy('song_id').execute();
    const tracksBefore = await tracks();
    expect(tracksBefore).toHaveLength(2);

    expect(await migrateToLatest(d.db)).toEqual(reverted.reverse());
    const after = await d.db.selectFrom('songs').selectAll().orderBy('id').execute();
    expect(after).toEqual(
      before.map((row) => ({
        ...row,
        replay_gain_track_db: null,
        replay_gain_track_peak: null,
        replay_gain_album_db: null,
        replay_gain_album_peak: null,
        library_id: null,
        missing_since: null,
        display_artist: null,
        mb_recording_id: null,
        mb_track_id: null,
        original_date: null,
        play_count: 0,
      })),
    );
    expect(await tracks()).toEqual(tracksBefore);
    expect((await albums.tracks(albumId)).map((song) => song.track_number)).toEqual([1, 2]);
    expect(await d.db.selectFrom('import_sources').selectAll().execute()).toEqual([]);
  });

  it('reverts cleanly', async () => {
    const d = t.database;
    const reverted: string[] = [];
    while (!reverted.includes('007-import-sources')) reverted.push(...(await migrateDown(d.db)));
    const tables = (await d.db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('import_sources');
    const songColumns = (await d.db.introspection.getTables()).find((table) => table.name === 'songs')?.columns ?? [];
    expect(songColumns.map((column) => column.name)).not.toContain('replay_gain_track_db');
  });
});
