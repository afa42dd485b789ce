import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type AppDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrations/index.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertPlaylist, insertUser } from '../../../test/factories.js';
import { testDatabases } from '../../../test/harness.js';
import { createSearchIndexRepository, type SearchIndexRepository } from './search-index.repository.js';
import { searchTerms } from './search-terms.js';

describeEachDialect('search index and repository (%s)', { uses: 'database' }, (t) => {
  let search: SearchIndexRepository;
  type Fixture =
    | 'beyonce'
    | 'acdc'
    | 'sigur'
    | 'halo'
    | 'thunder'
    | 'hoppipolla'
    | 'crazy'
    | 'haloGenre'
    | 'publicMix'
    | 'privateMix';
  const ids = {} as Record<Fixture, number>;
  let ownerId = 0;
  let strangerId = 0;

  const find = (query: string) => search.songIds(searchTerms(query), 20);
  const artists = async (query: string) => (await search.idPage('artists', searchTerms(query), undefined, 10)).ids;

  beforeAll(async () => {
    const { db } = t;
    search = createSearchIndexRepository(db, t.dialect);
    const now = new Date().toISOString();
    ownerId = (await insertUser(t, { username: 'owner' })).id;
    strangerId = (await insertUser(t, { username: 'stranger' })).id;
    const artist = async (name: string) =>
      (await db.insertInto('artists').values({ name, image_key: null }).returning('id').executeTakeFirstOrThrow()).id;
    ids.beyonce = await artist('Beyoncé');
    ids.acdc = await artist('AC/DC');
    ids.sigur = await artist('Sigur Rós');
    let n = 0;
    const song = async (name: string, genre: string, artistId: number | null) => {
      n += 1;
      const row = await db
        .insertInto('songs')
        .values({
          name,
          genre,
          artist_id: artistId,
          audio_key: `${String(n).padStart(64, '0')}.mp3`,
          audio_sha256: String(n).padStart(64, '0'),
          mime: 'audio/mpeg',
          size_bytes: 1,
          duration_ms: null,
          image_key: null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    ids.halo = await song('Halo', 'R&B / Soul', ids.beyonce);
    ids.thunder = await song('Thunderstruck', 'Hard Rock', ids.acdc);
    ids.hoppipolla = await song('Hoppípolla', 'Ambient', ids.sigur);
    ids.crazy = await song('Crazy in Love', 'Pop', ids.beyonce);
    ids.haloGenre = await song('Lonely Road', 'Hard Rock', null);
    ids.publicMix = await insertPlaylist(t, { ownerId, name: 'Road Trip Mix', isPublic: true });
    ids.privateMix = await insertPlaylist(t, { ownerId, name: 'Road Rage', isPublic: false });
  });

  it('matches song names by word prefix, case-insensitively', async () => {
    expect(await find('thunder')).toEqual([ids.thunder]);
    expect(await find('CRAZ')).toEqual([ids.crazy]);
  });

  it('ignores accents on both sides', async () => {
    expect(await find('hoppipolla')).toEqual([ids.hoppipolla]);
    expect(await find('HOPPÍ')).toEqual([ids.hoppipolla]);
    expect(await find('beyonce')).toEqual(expect.arrayContaining([ids.halo, ids.crazy]));
    expect(await artists('beyonce')).toEqual([ids.beyonce]);
    expect(await artists('ros')).toEqual([ids.sigur]);
  });

  it('finds songs by artist name and by genre, every word required', async () => {
    expect((await find('beyonce')).sort()).toEqual([ids.halo, ids.crazy].sort());
    expect(await find('beyonce halo')).toEqual([ids.halo]);
    expect((await find('hard rock')).sort()).toEqual([ids.thunder, ids.haloGenre].sort());
    expect(await find('ac dc')).toEqual([ids.thunder]);
    expect(await find('AC/DC')).toEqual([ids.thunder]);
  });

  it('ranks a name match above an artist or genre match', async () => {
    const db = t.db;
    await db.insertInto('artists').values({ name: 'Road Dogs', image_key: null }).execute();
    const artist = await db
      .selectFrom('artists')
      .select('id')
      .where('name', '=', 'Road Dogs')
      .executeTakeFirstOrThrow();
    await db.updateTable('songs').set({ artist_id: artist.id }).where('id', '=', ids.thunder).execute();
    const found = await find('road');
    expect(found[0]).toBe(ids.haloGenre);
    expect(found).toContain(ids.thunder);
    await db.updateTable('songs').set({ artist_id: ids.acdc }).where('id', '=', ids.thunder).execute();
    expect(await find('road')).toEqual([ids.haloGenre]);
  });

  it('follows renames and deletions through the triggers', async () => {
    const db = t.db;
    await db.updateTable('artists').set({ name: 'Queen B' }).where('id', '=', ids.beyonce).execute();
    expect((await find('queen')).sort()).toEqual([ids.halo, ids.crazy].sort());
    expect(await find('beyonce')).toEqual([]);
    await db.updateTable('songs').set({ name: 'Halo (Live)' }).where('id', '=', ids.halo).execute();
    // "Crazy in Love" comes after, in the fuzzy tier: "love" is one typo from "live".
    expect(await find('live')).toEqual([ids.halo, ids.crazy]);
    await db.updateTable('songs').set({ artist_id: null }).where('artist_id', '=', ids.beyonce).execute();
    await db.deleteFrom('artists').where('id', '=', ids.beyonce).execute();
    expect(await find('queen')).toEqual([]);
    expect(await artists('queen')).toEqual([]);
    await db.deleteFrom('songs').where('id', '=', ids.crazy).execute();
    expect(await find('crazy')).toEqual([]);
  });

  it('finds public playlists and the viewer’s own, never another user’s private ones', async () => {
    const playlistIds = async (query: string, viewerId: number) =>
      (await search.playlistPage(searchTerms(query), undefined, 10, { kind: 'public-or-own', userId: viewerId })).rows
        .map((row) => row.id)
        .sort();
    expect(await playlistIds('road', ownerId)).toEqual([ids.publicMix, ids.privateMix].sort());
    expect(await playlistIds('road', strangerId)).toEqual([ids.publicMix]);
    await t.db.updateTable('playlists').set({ name: 'Sunday Drive' }).where('id', '=', ids.publicMix).execute();
    expect(await playlistIds('sunday', strangerId)).toEqual([ids.publicMix]);
    expect(await playlistIds('road', strangerId)).toEqual([]);
  });

  it('bounds the answer by the limit', async () => {
    expect(await search.songIds(searchTerms('rock'), 1)).toHaveLength(1);
  });

  if (t.dialect === 'postgres') {
    it('tolerates typos through pg_trgm when no word matches (PostgreSQL)', async () => {
      expect(await find('thundrstruck')).toEqual([ids.thunder]);
      expect(await artists('sigurr')).toEqual([ids.sigur]);
      expect(await find('zzzzqqqq')).toEqual([]);
    });
  }
});

describe.each(testDatabases().filter((dialect) => dialect === 'postgres'))(
  'search migration without superuser rights (%s)',
  () => {
    const adminUrl = inject('pgAdminUrl') ?? '';
    const name = `t_limited_${randomBytes(4).toString('hex')}`;
    const role = `${name}_role`;
    const urlFor = (database: string, user: string) => {
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      url.username = user;
      return url.toString();
    };
    const asAdmin = async (database: string, statements: string[]) => {
      const client = new pg.Client({ connectionString: urlFor(database, new URL(adminUrl).username) });
      await client.connect();
      try {
        for (const statement of statements) await client.query(statement);
      } finally {
        await client.end();
      }
    };
    let database: AppDatabase;

    beforeAll(async () => {
      // A role that owns nothing and may not create extensions: what a locked-down hosting plan gives.
      await asAdmin('postgres', [`create role ${role} login nosuperuser nocreatedb`, `create database ${name}`]);
      await asAdmin(name, [`grant usage, create on schema public to ${role}`]);
      database = createDatabase({ dataDir: tmpdir(), databaseUrl: urlFor(name, role), poolSize: 2 });
    });

    afterAll(async () => {
      await database.destroy();
      await asAdmin('postgres', [`drop database if exists ${name} with (force)`, `drop role if exists ${role}`]);
    });

    it('migrates without unaccent or pg_trgm and still folds accents and case', async () => {
      const { db } = database;
      await migrateToLatest(db);
      const { rows } = await sql<{ extname: string }>`select extname from pg_extension`.execute(db);
      expect(rows.map((row) => row.extname)).not.toContain('unaccent');
      expect(rows.map((row) => row.extname)).not.toContain('pg_trgm');

      const artist = await db
        .insertInto('artists')
        .values({ name: 'Beyoncé', image_key: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('songs')
        .values({
          name: 'Déjà Vu',
          genre: 'R&B / Soul',
          artist_id: artist.id,
          audio_key: `${'a'.repeat(64)}.mp3`,
          audio_sha256: 'a'.repeat(64),
          mime: 'audio/mpeg',
          size_bytes: 1,
          duration_ms: null,
          image_key: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      const search = createSearchIndexRepository(db, 'postgres');
      expect(await search.songIds(searchTerms('DEJA vu'), 10)).toHaveLength(1);
      expect(await search.songIds(searchTerms('beyonce'), 10)).toHaveLength(1);
      expect((await search.idPage('artists', searchTerms('BEYON'), undefined, 10)).ids).toEqual([artist.id]);
      // Without pg_trgm there is no typo tolerance, and no error either.
      expect(await search.songIds(searchTerms('dejjavu'), 10)).toEqual([]);
    });
  },
);

describe('searchTerms', () => {
  it('splits on anything but letters and digits, lower-cases, drops duplicates and caps the count', () => {
    expect(searchTerms('  AC/DC — Back in Black! back ')).toEqual(['ac', 'dc', 'back', 'in', 'black']);
    expect(searchTerms('"; drop table songs; --')).toEqual(['drop', 'table', 'songs']);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
    expect(searchTerms('¡!?')).toEqual([]);
  });
});
