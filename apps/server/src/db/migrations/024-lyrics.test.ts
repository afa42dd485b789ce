import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs } from '../../../test/factories.js';
import { appliedMigrations, migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 024 (lyrics) on %s', { uses: 'database', fresh: 'each' }, (t) => {
  /** Reverts the migrations down to (and including) 024; answers what was reverted, newest first. */
  async function revert(): Promise<string[]> {
    const reverted: string[] = [];
    while (!reverted.includes('024-lyrics')) reverted.push(...(await migrateDown(t.db)));
    expect(await appliedMigrations(t.db)).not.toContain('024-lyrics');
    return reverted;
  }

  const tables = async () => (await t.db.introspection.getTables()).map((table) => table.name);

  it('has every file scanned before read again once (for its tags’ lyrics), and drops it all going down', async () => {
    const reverted = await revert();
    expect(await tables()).not.toContain('song_lyrics');
    const [song] = await insertSongs(t, 1);
    if (song === undefined) throw new Error('no song');
    const library = await sql<{ id: number }>`insert into libraries (name, path, created_at)
      values ('Music', '/music', '2025-01-01T00:00:00.000Z') returning id`.execute(t.db);
    const libraryId = library.rows[0]?.id ?? 0;
    await sql`insert into library_files (song_id, library_id, path, size_bytes, modified_ms, fingerprint)
      values (${song.id}, ${libraryId}, 'a.mp3', 10, 20, 'f')`.execute(t.db);

    expect(await migrateToLatest(t.db)).toEqual(reverted.reverse());
    const file = await t.db.selectFrom('library_files').select('lyrics_file').executeTakeFirstOrThrow();
    expect(file.lyrics_file).toBe('!');

    // One row a song, gone with the song.
    const row = {
      song_id: song.id,
      source: 'uploaded' as const,
      lang: null,
      synced: 0,
      offset_ms: 0,
      lines: '[{"text":"Hi"}]',
      updated_at: '2025-01-01T00:00:00.000Z',
    };
    await t.db.insertInto('song_lyrics').values(row).execute();
    await expect(t.db.insertInto('song_lyrics').values(row).execute()).rejects.toThrow();
    await t.db.deleteFrom('songs').where('id', '=', song.id).execute();
    expect(await t.db.selectFrom('song_lyrics').selectAll().execute()).toEqual([]);

    await revert();
    expect(await tables()).not.toContain('song_lyrics');
  });
});
