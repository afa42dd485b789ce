import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertPlaylist, insertUser } from '../../../test/factories.js';
import { createSearchIndexRepository } from '../../modules/search-index/search-index.repository.js';
import { searchTerms } from '../../modules/search-index/search-terms.js';
import { migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 005-search (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  it('carries the catalogue of a database made by 003 into the prefix and typo search', async () => {
    const { db } = t;
    // Back to the schema before 005 (reverting what came after it first).
    const reverted: string[] = [];
    while (!reverted.includes('005-search')) reverted.push(...(await migrateDown(db)));
    const tables = (await db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('search_words');

    // Written at 003, through 002's triggers only.
    const artist = await db
      .insertInto('artists')
      .values({ name: 'Björk', image_key: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const song = await db
      .insertInto('songs')
      .values({
        name: 'Hyperballad',
        genre: 'Experimental',
        artist_id: artist.id,
        audio_key: `${'b'.repeat(64)}.mp3`,
        audio_sha256: 'b'.repeat(64),
        mime: 'audio/mpeg',
        size_bytes: 1,
        duration_ms: null,
        image_key: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const owner = (await insertUser(t, { username: 'migrating_owner' })).id;
    const playlist = await insertPlaylist(t, { ownerId: owner, name: 'Kickstart Mix', isPublic: true });

    expect(await migrateToLatest(db)).toEqual(reverted.reverse());
    const search = createSearchIndexRepository(db, t.dialect);
    const songIds = (query: string) => search.songIds(searchTerms(query), 10);
    expect(await songIds('hyperballad')).toEqual([song.id]);
    expect(await songIds('hyp')).toEqual([song.id]);
    expect(await songIds('bjork hyper')).toEqual([song.id]);
    expect(await songIds('hyperbalad')).toEqual([song.id]);
    expect((await search.idPage('artists', searchTerms('bjrok'), undefined, 10)).ids).toEqual([artist.id]);
    const playlists = await search.playlistPage(searchTerms('kickstrat'), undefined, 10, { kind: 'all' });
    expect(playlists.rows.map((row) => row.id)).toEqual([playlist]);

    // And the index keeps following the catalogue.
    await db.updateTable('songs').set({ name: 'Isobel' }).where('id', '=', song.id).execute();
    expect(await songIds('isobell')).toEqual([song.id]);
    expect(await songIds('hyperbalad')).toEqual([]);
  });

  it('counts each word of the names once per name that holds it', async () => {
    const { db } = t;
    await db.insertInto('artists').values({ name: 'Night Night', image_key: null }).execute();
    await db.insertInto('artists').values({ name: 'Night Owls', image_key: null }).execute();
    const search = createSearchIndexRepository(db, t.dialect);
    await search.idPage('artists', searchTerms('nigth'), undefined, 1); // SQLite folds queued names in on a lookup.
    const { rows } = await sql<{ word: string; refs: number }>`
      select word, refs from search_words where word in ('night', 'owls') order by word`.execute(db);
    expect(rows).toEqual([
      { word: 'night', refs: 2 },
      { word: 'owls', refs: 1 },
    ]);
    await db.deleteFrom('artists').where('name', '=', 'Night Owls').execute();
    await search.idPage('artists', searchTerms('nigth'), undefined, 1);
    const after = await sql<{ word: string; refs: number }>`
      select word, refs from search_words where word in ('night', 'owls') order by word`.execute(db);
    expect(after.rows).toEqual([{ word: 'night', refs: 1 }]);
  });

  it('forgets the words of playlists deleted with their owner', async () => {
    const { db } = t;
    const owner = (await insertUser(t, { username: 'leaving_owner' })).id;
    await insertPlaylist(t, { ownerId: owner, name: 'Zephyr Mix', isPublic: true });
    const search = createSearchIndexRepository(db, t.dialect);
    const zephyr = async () => {
      await search.idPage('artists', searchTerms('zephyrr'), undefined, 1); // SQLite folds queued names in on a lookup.
      const { rows } = await sql<{ refs: number }>`select refs from search_words where word = 'zephyr'`.execute(db);
      return rows.map((row) => row.refs);
    };
    expect(await zephyr()).toEqual([1]);
    await db.deleteFrom('users').where('id', '=', owner).execute();
    expect(await zephyr()).toEqual([]);
  });
});
