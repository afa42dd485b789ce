import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import type { AppDatabase } from '../database.js';
import { dialectOf } from '../dialect.js';
import { appliedMigrations, migrateDown, migrateToLatest, migrateUpTo, migrations } from './index.js';

const TABLES = ['artists', 'likes', 'orders', 'playlist_songs', 'playlists', 'plays', 'sessions', 'songs', 'users'];
/** Tables later migrations add (012: what Subsonic apps report of their listening; 013: shared rate counters; 025: bookmarks; 026: devices; 027: ratings, listens, audio features; 031 only adds a column). */
const LATER_TABLES = [
  'play_queue_songs',
  'play_queues',
  'subsonic_now_playing',
  'rate_counters',
  'subsonic_bookmarks',
  'devices',
  'song_ratings',
  'album_ratings',
  'artist_ratings',
  'listens',
  'song_features',
  'scrobble_accounts',
  'scrobble_queue',
];
const now = new Date().toISOString();

async function tableNames(database: AppDatabase): Promise<string[]> {
  const tables = await database.db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}

describeEachDialect('migrations on %s', { uses: 'database', fresh: 'each' }, (t) => {
  async function insertUser(d: AppDatabase, username: string, email: string) {
    return d.db
      .insertInto('users')
      .values({ username, email, password_hash: 'x', role: 'USER', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  it('creates every table, reverts every migration, and re-applies cleanly', async () => {
    const d = t.database;
    expect(dialectOf(d.db)).toBe(t.dialect);
    expect(await tableNames(d)).toEqual(expect.arrayContaining(TABLES));
    expect(await migrateToLatest(d.db)).toEqual([]);

    const reverted: string[] = [];
    for (let step = await migrateDown(d.db); step.length > 0; step = await migrateDown(d.db)) reverted.push(...step);
    expect(reverted).toEqual(Object.keys(migrations).reverse());
    expect(await tableNames(d)).toEqual([]);

    expect(await migrateToLatest(d.db)).toEqual(Object.keys(migrations));
    expect(await tableNames(d)).toEqual(expect.arrayContaining([...TABLES, ...LATER_TABLES]));
  });

  it('migrates up to a named migration, and never down to one', async () => {
    const d = t.database;
    const names = Object.keys(migrations);
    while ((await migrateDown(d.db)).length > 0);
    expect(await migrateUpTo(d.db, '001-initial')).toEqual(['001-initial']);
    expect(await appliedMigrations(d.db)).toEqual(['001-initial']);
    expect(await tableNames(d)).toEqual(expect.arrayContaining(TABLES));
    expect(await tableNames(d)).not.toContain('search_songs');
    expect(await migrateUpTo(d.db, '001-initial')).toEqual([]);
    expect(await migrateToLatest(d.db)).toEqual(names.slice(1));
    expect(await migrateUpTo(d.db, '001-initial')).toEqual([]);
    expect(await appliedMigrations(d.db)).toEqual(names);
  });

  it('makes usernames and emails unique regardless of case', async () => {
    const d = t.database;
    await insertUser(d, 'Alice', 'alice@example.test');
    await expect(insertUser(d, 'alice', 'other@example.test')).rejects.toThrow();
    await expect(insertUser(d, 'bob', 'alice@example.test')).rejects.toThrow();
    await expect(insertUser(d, 'bob', 'bob@example.test')).resolves.toBeDefined();
  });

  it('cascades a deleted user to sessions, playlists, likes and plays, and keeps the orders', async () => {
    const d = t.database;
    const { id: userId } = await insertUser(d, 'carol', 'carol@example.test');
    const { id: artistId } = await d.db
      .insertInto('artists')
      .values({ name: 'Band' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: songId } = await d.db
      .insertInto('songs')
      .values({
        name: 'Song',
        genre: 'Pop',
        artist_id: artistId,
        audio_key: 'a.mp3',
        audio_sha256: 'abc',
        mime: 'audio/mpeg',
        size_bytes: 10,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: playlistId } = await d.db
      .insertInto('playlists')
      .values({ owner_id: userId, name: 'Mine', type: '', is_public: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await d.db
      .insertInto('playlist_songs')
      .values({ playlist_id: playlistId, song_id: songId, position: 0, added_at: now })
      .execute();
    await d.db.insertInto('likes').values({ user_id: userId, song_id: songId, created_at: now }).execute();
    await d.db.insertInto('plays').values({ user_id: userId, song_id: songId, played_at: now }).execute();
    await d.db.insertInto('sessions').values({ id: 'h', user_id: userId, expires_at: now, created_at: now }).execute();
    await d.db
      .insertInto('orders')
      .values({
        user_id: userId,
        plan: 'monthly',
        amount_cents: 499,
        currency: 'EUR',
        provider: 'demo',
        provider_ref: 'ref-1',
        status: 'paid',
        created_at: now,
      })
      .execute();

    await d.db.deleteFrom('users').where('id', '=', userId).execute();

    for (const table of ['sessions', 'playlists', 'playlist_songs', 'likes', 'plays'] as const) {
      const { count } = await d.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(count, table).toBe(0);
    }
    const order = await d.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    expect(order.user_id).toBeNull();

    await d.db.deleteFrom('artists').where('id', '=', artistId).execute();
    const song = await d.db.selectFrom('songs').selectAll().executeTakeFirstOrThrow();
    expect(song.artist_id).toBeNull();
  });

  it('refuses duplicates the schema promises to prevent', async () => {
    const d = t.database;
    await d.db.insertInto('artists').values({ name: 'Same' }).execute();
    await expect(d.db.insertInto('artists').values({ name: 'Same' }).execute()).rejects.toThrow();
    const order = {
      plan: 'monthly',
      amount_cents: 1,
      currency: 'EUR',
      provider: 'stripe',
      status: 'pending' as const,
      created_at: now,
    };
    await d.db
      .insertInto('orders')
      .values({ ...order, provider_ref: 'cs_1' })
      .execute();
    await expect(
      d.db
        .insertInto('orders')
        .values({ ...order, provider_ref: 'cs_1' })
        .execute(),
    ).rejects.toThrow();
    // Orders without a provider reference yet do not collide.
    await d.db.insertInto('orders').values([order, order]).execute();
    await expect(
      sql`insert into users (username, email, password_hash, role, created_at)
      values ('x1', 'x1@e.t', 'h', 'ROOT', ${now})`.execute(d.db),
    ).rejects.toThrow();
  });

  it('enforces foreign keys', async () => {
    const d = t.database;
    await expect(
      d.db.insertInto('sessions').values({ id: 'h', user_id: 999, expires_at: now, created_at: now }).execute(),
    ).rejects.toThrow();
  });

  it('indexes every foreign key and request-path lookup', async () => {
    const d = t.database;
    const indexes =
      t.dialect === 'postgres'
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`.execute(
            d.db,
          )
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(d.db);
    const names = indexes.rows.map((r) => r.name);
    for (const expected of [
      'users_username_lower_unique',
      'sessions_user_id_idx',
      'songs_artist_id_idx',
      'songs_genre_idx',
      'playlists_owner_id_idx',
      'playlist_songs_order_idx',
      'playlist_songs_song_id_idx',
      'likes_song_id_idx',
      'plays_user_played_idx',
      'plays_song_id_idx',
      'orders_user_id_idx',
      'orders_provider_ref_unique',
      'likes_user_created_song_idx',
      'orders_user_created_idx',
      'users_premium_until_idx',
      'subsonic_now_playing_reported_at_idx',
      'play_queue_songs_song_id_idx',
      'song_ratings_song_id_idx',
      'album_ratings_album_id_idx',
      'artist_ratings_artist_id_idx',
      'listens_user_played_idx',
      'listens_song_id_idx',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('keeps ratings within 1–5 and a listen after its song is deleted (027)', async () => {
    const d = t.database;
    const user = await insertUser(d, 'rater', 'rater@example.com');
    const artist = await d.db.insertInto('artists').values({ name: 'Rated' }).returning('id').executeTakeFirstOrThrow();
    const song = await d.db
      .insertInto('songs')
      .values({
        name: 'Rated song',
        genre: 'Rock',
        artist_id: artist.id,
        audio_key: 'rated-key',
        audio_sha256: 'rated-sha',
        mime: 'audio/mpeg',
        size_bytes: 1,
        duration_ms: 1000,
        image_key: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rate = (rating: number) =>
      d.db.insertInto('song_ratings').values({ user_id: user.id, song_id: song.id, rating, updated_at: now }).execute();
    await expect(rate(0)).rejects.toThrow();
    await expect(rate(6)).rejects.toThrow();
    await rate(5);
    await d.db
      .insertInto('listens')
      .values({ user_id: user.id, song_id: song.id, played_at: now, listened_ms: 500, source: 'web', client: null })
      .execute();
    await d.db.deleteFrom('songs').where('id', '=', song.id).execute();
    expect(await d.db.selectFrom('song_ratings').selectAll().execute()).toEqual([]);
    const listens = await d.db.selectFrom('listens').select(['song_id', 'listened_ms']).execute();
    expect(listens).toEqual([{ song_id: null, listened_ms: 500 }]);
  });

  it("stores a smart playlist's rules on its playlist, null for any other (031)", async () => {
    const d = t.database;
    const user = await insertUser(d, 'smart', 'smart@example.com');
    const rules = JSON.stringify({ rules: { match: 'all', rules: [] }, sort: { field: 'random', direction: 'asc' } });
    const values = { owner_id: user.id, type: '', is_public: 0, image_key: null, created_at: now };
    await d.db
      .insertInto('playlists')
      .values({ ...values, name: 'Plain' })
      .execute();
    await d.db
      .insertInto('playlists')
      .values({ ...values, name: 'Smart', smart_rules: rules })
      .execute();
    const rows = await d.db.selectFrom('playlists').select(['name', 'smart_rules']).orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'Plain', smart_rules: null },
      { name: 'Smart', smart_rules: rules },
    ]);
  });
});
