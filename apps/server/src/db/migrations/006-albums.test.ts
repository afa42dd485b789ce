import { UNKNOWN_ALBUM } from '@tonearm/contract';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs } from '../../../test/factories.js';
import { createSongsRepository } from '../../modules/songs/songs.repository.js';
import { appliedMigrations, migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 006 (albums) on %s', { uses: 'database', fresh: 'each' }, (t) => {
  it('carries a database written before it forward with every row, each song on its artist placeholder', async () => {
    const d = t.database;
    // The schema as the version before issue 12 left it, written by that version's code paths (the factories and
    // repositories write only the columns it had).
    const reverted: string[] = [];
    while (!reverted.includes('006-albums')) reverted.push(...(await migrateDown(d.db)));
    expect(await appliedMigrations(d.db)).not.toContain('006-albums');
    const songs = await insertSongs(t, 3, 'Before Albums');
    const now = new Date().toISOString();
    const user = await d.db
      .insertInto('users')
      .values({ username: 'keeper', email: 'keeper@example.test', password_hash: 'x', role: 'USER', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const playlist = await d.db
      .insertInto('playlists')
      .values({ owner_id: user.id, name: 'Kept', type: 'Playlist', is_public: 1, image_key: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [position, song] of songs.entries()) {
      await d.db
        .insertInto('playlist_songs')
        .values({ playlist_id: playlist.id, song_id: song.id, position, added_at: now })
        .execute();
    }
    await d.db
      .insertInto('likes')
      .values({ user_id: user.id, song_id: songs[1]?.id ?? 0, created_at: now })
      .execute();
    const before = await d.db.selectFrom('songs').selectAll().orderBy('id').execute();

    expect(await migrateToLatest(d.db)).toEqual(reverted.reverse());
    const after = await d.db.selectFrom('songs').selectAll().orderBy('id').execute();
    expect(after).toEqual(
      before.map((row) => ({
        ...row,
        year: null,
        bitrate_kbps: null,
        sample_rate_hz: null,
        format: null,
        genre_tag: null,
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
    // 006 put no song on an album; 018 then put each song that is on none on its artist's placeholder.
    const listed = await createSongsRepository(d.db).list({});
    expect(listed).toHaveLength(3);
    const placeholder = await d.db.selectFrom('albums').select('id').executeTakeFirstOrThrow();
    for (const row of listed) {
      expect(row).toMatchObject({
        album_id: placeholder.id,
        album_name: UNKNOWN_ALBUM,
        track_number: null,
        disc_number: null,
        year: null,
      });
    }
    expect(await d.db.selectFrom('playlist_songs').select('song_id').orderBy('position').execute()).toEqual(
      songs.map((song) => ({ song_id: song.id })),
    );
    expect(await d.db.selectFrom('likes').select('song_id').execute()).toEqual([{ song_id: songs[1]?.id }]);
    expect(await d.db.selectFrom('albums').select(['name', 'is_placeholder']).execute()).toEqual([
      { name: UNKNOWN_ALBUM, is_placeholder: 1 },
    ]);
  });
});
