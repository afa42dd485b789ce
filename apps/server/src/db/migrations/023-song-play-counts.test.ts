import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, insertUser } from '../../../test/factories.js';
import { appliedMigrations, migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 023 (song play counts) on %s', { uses: 'database', fresh: 'each' }, (t) => {
  /** Reverts the migrations down to (and including) 023; answers what was reverted, newest first. */
  async function revert(): Promise<string[]> {
    const reverted: string[] = [];
    while (!reverted.includes('023-song-play-counts')) reverted.push(...(await migrateDown(t.db)));
    expect(await appliedMigrations(t.db)).not.toContain('023-song-play-counts');
    return reverted;
  }

  const columnsOfSongs = async () =>
    (await t.db.introspection.getTables()).find((table) => table.name === 'songs')?.columns.map((c) => c.name) ?? [];

  it('counts each song’s kept plays, 0 for the others, and drops the column going down', async () => {
    const reverted = await revert();
    expect(await columnsOfSongs()).not.toContain('play_count');
    const [often, once, never] = await insertSongs(t, 3);
    if (often === undefined || once === undefined || never === undefined) throw new Error('no songs');
    const ann = (await insertUser(t)).id;
    const bob = (await insertUser(t)).id;
    const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString();
    await t.db
      .insertInto('plays')
      .values([
        { user_id: ann, song_id: often.id, played_at: at(0) },
        { user_id: ann, song_id: often.id, played_at: at(1) },
        { user_id: bob, song_id: often.id, played_at: at(2) },
        { user_id: bob, song_id: once.id, played_at: at(3) },
      ])
      .execute();

    expect(await migrateToLatest(t.db)).toEqual(reverted.reverse());
    const counts = await t.db.selectFrom('songs').select(['id', 'play_count']).orderBy('id').execute();
    expect(counts).toEqual([
      { id: often.id, play_count: 3 },
      { id: once.id, play_count: 1 },
      { id: never.id, play_count: 0 },
    ]);
    // A song added later starts at 0 (the column's default).
    const [later] = await insertSongs(t, 1);
    const row = await t.db
      .selectFrom('songs')
      .select('play_count')
      .where('id', '=', later?.id ?? 0)
      .executeTakeFirstOrThrow();
    expect(row.play_count).toBe(0);

    await revert();
    expect(await columnsOfSongs()).not.toContain('play_count');
  });

  it('indexes (play_count, id) for the plays order', async () => {
    const indexes =
      t.dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'songs'`.execute(t.db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'songs'`.execute(t.db);
    expect(indexes.rows.map((index) => index.name)).toContain('songs_play_count_sort_idx');
  });
});
