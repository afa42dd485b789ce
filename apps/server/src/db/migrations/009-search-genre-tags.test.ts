import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeUser } from '../../../test/factories.js';
import { migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 009 (genre tags in search) on %s', (t) => {
  // Made while every migration is applied: signing up counts in rate_counters (013), gone below it.
  let listener: Awaited<ReturnType<typeof makeUser>>;
  // Songs only: below migration 015 the album search's index (album_names) is not there to read.
  const search = async (q: string) => {
    const answer = await t.as(listener).get(`/api/search?q=${encodeURIComponent(q)}&kind=songs`);
    expect(answer.statusCode).toBe(200);
    return answer.json<{ songs: { name: string }[] }>().songs.map((song) => song.name);
  };

  it('finds a song by its genre tag, for songs tagged before and after it, and reverts cleanly', async () => {
    listener = await makeUser(t);
    const [before] = await insertSongs(t, 1, 'Tag Artist');
    const reverted: string[] = [];
    while (!reverted.includes('009-search-genre-tags')) reverted.push(...(await migrateDown(t.db)));
    // Tagged while the search knew only the catalogue genre.
    await t.db
      .updateTable('songs')
      .set({ genre_tag: 'Shoegaze' })
      .where('id', '=', before?.id ?? 0)
      .execute();
    expect(await migrateToLatest(t.db)).toEqual(reverted.reverse());

    const [after] = await insertSongs(t, 1, 'Other Artist');
    await t.db
      .updateTable('songs')
      .set({ genre_tag: 'Vaporwave Deluxe' })
      .where('id', '=', after?.id ?? 0)
      .execute();
    expect(await search('shoegaze')).toEqual([before?.name]);
    expect(await search('vaporw')).toEqual([after?.name]);

    while (!(await migrateDown(t.db)).includes('009-search-genre-tags'));
    expect(await search('vaporwave')).toEqual([]);
    await t.db
      .updateTable('songs')
      .set({ name: 'Renamed' })
      .where('id', '=', after?.id ?? 0)
      .execute();
    await migrateToLatest(t.db);
    expect(await search('vaporwave')).toEqual(['Renamed']);
  });
});
