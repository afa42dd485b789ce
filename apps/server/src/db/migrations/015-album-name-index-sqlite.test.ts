import { AlbumPage } from '@tonearm/contract';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser } from '../../../test/factories.js';
import { migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 015 (the album name index on SQLite) on %s', (t) => {
  it('indexes the albums made before it, and reverts cleanly', async () => {
    const listener = await makeUser(t);
    const album = (name: string) =>
      t.db
        .insertInto('albums')
        .values({ name, artist_id: null, year: null, image_key: null, created_at: new Date().toISOString() })
        .execute();
    const names = async (q: string) => {
      const answer = await t.as(listener).get(`/api/albums?q=${encodeURIComponent(q)}`);
      expect(answer.statusCode).toBe(200);
      return AlbumPage.parse(answer.json()).items.map((item) => item.name);
    };
    await album('Harbour Lights');
    while (!(await migrateDown(t.db)).includes('015-album-name-index-sqlite'));
    // Made and renamed while the index is not there.
    await album('Lighthouse Keeper');
    await t.db.updateTable('albums').set({ name: 'Harbour Nights' }).where('name', '=', 'Harbour Lights').execute();
    expect(await migrateToLatest(t.db)).toContain('015-album-name-index-sqlite');
    expect(await names('light')).toEqual(['Lighthouse Keeper']);
    expect(await names('harbour nigh')).toEqual(['Harbour Nights']);
  });
});
