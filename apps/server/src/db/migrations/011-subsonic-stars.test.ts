import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs } from '../../../test/factories.js';
import { createSubsonicStarsRepository } from '../../modules/subsonic/subsonic-stars.repository.js';
import { appliedMigrations, migrateDown, migrateToLatest } from './index.js';

describeEachDialect('migration 011 (subsonic stars) on %s', { uses: 'database', fresh: 'each' }, (t) => {
  const now = new Date().toISOString();

  async function catalogue(tag: string) {
    const d = t.database;
    const [song] = await insertSongs(t, 1, `Starred Band ${tag}`);
    const { artist_id: artistId } = await d.db
      .selectFrom('songs')
      .select('artist_id')
      .where('id', '=', song?.id ?? 0)
      .executeTakeFirstOrThrow();
    const album = await d.db
      .insertInto('albums')
      .values({ name: 'Starred Album', artist_id: artistId, year: null, image_key: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await d.db
      .insertInto('users')
      .values({
        username: `starrer${tag}`,
        email: `starrer${tag}@example.test`,
        password_hash: 'x',
        role: 'USER',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { albumId: album.id, artistId: artistId ?? 0, userId: user.id };
  }

  it('keeps one star per user and item, and cascades deleted users, albums and artists', async () => {
    const d = t.database;
    const { albumId, artistId, userId } = await catalogue('a');
    const stars = createSubsonicStarsRepository(d.db);
    expect(await stars.star('album', userId, [albumId], now)).toBe(true);
    expect(await stars.star('album', userId, [albumId], new Date(0).toISOString())).toBe(true);
    expect(await stars.star('artist', userId, [artistId], now)).toBe(true);
    // The first star's date stays; the primary key refuses a second row.
    expect((await stars.starDates('album', userId, [albumId])).get(albumId)).toBe(now);
    await expect(
      d.db.insertInto('album_stars').values({ user_id: userId, album_id: albumId, created_at: now }).execute(),
    ).rejects.toThrow();
    // A star on an album that does not exist is refused by the foreign key.
    expect(await stars.star('album', userId, [albumId + 1000], now)).toBe(false);
    expect(await stars.starredAlbumIds(userId, 10, 0)).toEqual([albumId]);

    await d.db.deleteFrom('albums').where('id', '=', albumId).execute();
    expect(await d.db.selectFrom('album_stars').selectAll().execute()).toEqual([]);
    await d.db.updateTable('songs').set({ artist_id: null }).execute();
    await d.db.deleteFrom('artists').where('id', '=', artistId).execute();
    expect(await d.db.selectFrom('artist_stars').selectAll().execute()).toEqual([]);

    const again = await catalogue('b');
    await stars.star('album', again.userId, [again.albumId], now);
    await stars.star('artist', again.userId, [again.artistId], now);
    await d.db.deleteFrom('users').where('id', '=', again.userId).execute();
    expect(await d.db.selectFrom('album_stars').selectAll().execute()).toEqual([]);
    expect(await d.db.selectFrom('artist_stars').selectAll().execute()).toEqual([]);
  });

  it('reverts to the schema before it, and re-applies', async () => {
    const d = t.database;
    // Down past the later migrations to this one.
    while (!(await migrateDown(d.db)).includes('011-subsonic-stars'));
    expect(await appliedMigrations(d.db)).not.toContain('011-subsonic-stars');
    const tables = (await d.db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('album_stars');
    expect(tables).not.toContain('artist_stars');
    expect(await migrateToLatest(d.db)).toContain('011-subsonic-stars');
    expect(await appliedMigrations(d.db)).toContain('011-subsonic-stars');
  });
});
