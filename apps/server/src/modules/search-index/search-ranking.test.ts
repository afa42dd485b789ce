import { randomBytes } from 'node:crypto';
import { RequestMessages } from '@tonearm/contract';
import type { Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
import { HttpError } from '../../http/errors.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertPlaylist, insertUser } from '../../../test/factories.js';
import { createSearchIndexRepository, type SearchIndexRepository } from './search-index.repository.js';
import { searchTerms } from './search-terms.js';

/** Inserts an artist and answers its id. */
async function artist(db: Kysely<DB>, name: string): Promise<number> {
  return (await db.insertInto('artists').values({ name, image_key: null }).returning('id').executeTakeFirstOrThrow())
    .id;
}

/** Inserts songs (name, genre, artist) in this order, 500 a statement, and answers their ids. */
async function songs(db: Kysely<DB>, rows: readonly [string, string, number | null][]): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const values = rows.slice(start, start + 500).map(([name, genre, artistId]) => {
      const sha = randomBytes(32).toString('hex');
      return {
        name,
        genre,
        artist_id: artistId,
        audio_key: `${sha}.mp3`,
        audio_sha256: sha,
        mime: 'audio/mpeg',
        size_bytes: 1,
        duration_ms: null,
        image_key: null,
        created_at: new Date().toISOString(),
      };
    });
    const inserted = await db.insertInto('songs').values(values).returning('id').execute();
    ids.push(...inserted.map((row) => row.id).sort((a, b) => a - b));
  }
  return ids;
}

/** Every id of a group, page by page through the cursors (at most `pages` pages). */
async function allPages(
  page: (cursor: string | undefined) => Promise<{ ids: number[]; nextCursor: string | null }>,
  pages = 1000,
): Promise<{ ids: number[]; pageCount: number }> {
  const ids: number[] = [];
  let cursor: string | undefined;
  let pageCount = 0;
  do {
    const result = await page(cursor);
    ids.push(...result.ids);
    pageCount += 1;
    cursor = result.nextCursor ?? undefined;
  } while (cursor !== undefined && pageCount < pages);
  return { ids, pageCount };
}

describeEachDialect('search ranking and paging (%s)', { uses: 'database' }, (t) => {
  let search: SearchIndexRepository;
  const ids: Record<string, number> = {};
  const songIds = async (query: string, limit = 50) => search.songIds(searchTerms(query), limit);

  beforeAll(async () => {
    const { db } = t;
    search = createSearchIndexRepository(db, t.dialect);
    const bjork = await artist(db, 'Björk');
    const motley = await artist(db, 'Mötley Crüe');
    const riverBand = await artist(db, 'River Band');
    const riverdale = await artist(db, 'Riverdale Sound');
    ids.bjork = bjork;
    [
      ids.hyper = 0,
      ids.joga = 0,
      ids.kick = 0,
      ids.riverOld = 0,
      ids.quiet = 0,
      ids.riverside = 0,
      ids.calm = 0,
      ids.rover = 0,
      ids.river = 0,
      ids.folk = 0,
    ] = await songs(db, [
      ['Hyperballad', 'Experimental', bjork],
      ['Jóga', 'Electronic / EDM', bjork],
      ['Kickstart My Heart', 'Hard Rock', motley],
      ['River', 'Folk', null],
      ['Quiet Waters', 'Ambient', riverBand],
      ['Riverside', 'Pop', null],
      ['Calm', 'Jazz', riverdale],
      ['Rover', 'Rock', null],
      ['River', 'Pop', null],
      ['Old Folk Song', 'River Folk', null],
    ]);
  });

  it('ranks whole words (name first), then prefixes (name first), then one typo; newest first in each', async () => {
    expect(await songIds('river')).toEqual([
      ids.river, // exact, in the name: the newer one first
      ids.riverOld,
      ids.folk, // exact, in the genre
      ids.quiet, // exact, in the artist's name
      ids.riverside, // a prefix of a word of the name
      ids.calm, // a prefix of a word of the artist's name
      ids.rover, // one typo
    ]);
  });

  it('finds a song while its name is typed, from the first letter on', async () => {
    const name = 'hyperballad';
    for (let length = 1; length <= name.length; length += 1) {
      const found = await songIds(name.slice(0, length));
      expect(found, name.slice(0, length)).toContain(ids.hyper);
      if (length >= 3) expect(found[0], name.slice(0, length)).toBe(ids.hyper);
    }
    expect(await songIds('kickstart my he')).toEqual([ids.kick]);
  });

  it('finds a song through one typo in any of its words, and not through two', async () => {
    expect(await songIds('hyperbalad')).toEqual([ids.hyper]);
    expect(await songIds('kickstrat')).toEqual([ids.kick]);
    expect(await songIds('hyperballadd')).toEqual([ids.hyper]);
    expect(await songIds('hypreballad')).toEqual([ids.hyper]);
    expect(await songIds('hyperbxllad')).toEqual([ids.hyper]);
    expect(await songIds('kickstrat hart')).toEqual([ids.kick]);
    expect(await songIds('bjrok hyperbalad')).toEqual([ids.hyper]);
    expect(await songIds('hyprbalad')).toEqual([]);
    expect(await songIds('xyperbaxlad')).toEqual([]);
    expect((await search.idPage('artists', searchTerms('mottley'), undefined, 10)).ids).toEqual([
      (await t.db.selectFrom('artists').select('id').where('name', '=', 'Mötley Crüe').executeTakeFirstOrThrow()).id,
    ]);
  });

  it('ignores case and accents in the words, the prefixes and the typos', async () => {
    expect(await songIds('JOGA')).toEqual([ids.joga]);
    expect(await songIds('jóg')).toEqual([ids.joga]);
    expect(await songIds('BJÖRK HYPER')).toEqual([ids.hyper]);
    expect(await songIds('Hyperbalad')).toEqual([ids.hyper]);
    expect(await songIds('MÖTLEY KICKSTRAT')).toEqual([ids.kick]);
  });

  it('keeps the typo vocabulary in step with renames and deletions', async () => {
    const [renamed = 0] = await songs(t.db, [['Army of Me', 'Pop', null]]);
    expect(await songIds('armmy')).toEqual([renamed]);
    await t.db.updateTable('songs').set({ name: 'Isobel' }).where('id', '=', renamed).execute();
    expect(await songIds('armmy')).toEqual([]);
    expect(await songIds('isobell')).toEqual([renamed]);
    await t.db.deleteFrom('songs').where('id', '=', renamed).execute();
    expect(await songIds('isobell')).toEqual([]);
    const [again = 0] = await songs(t.db, [['Isobel', 'Pop', null]]);
    expect(await songIds('isobell')).toEqual([again]);
    await t.db.deleteFrom('songs').where('id', '=', again).execute();
  });

  it('pages each group by cursor: every match once, in ranking order', async () => {
    const terms = searchTerms('river');
    const whole = await songIds('river');
    for (const limit of [1, 2, 3]) {
      const paged = await allPages((cursor) => search.idPage('songs', terms, cursor, limit));
      expect(paged.ids).toEqual(whole);
      expect(paged.pageCount).toBe(Math.ceil(whole.length / limit));
    }
    const artists = await allPages((cursor) => search.idPage('artists', terms, cursor, 1));
    expect(artists.ids).toHaveLength(2);
    expect(new Set(artists.ids).size).toBe(2);
  });

  it('answers a song page with the number of matches', async () => {
    const terms = searchTerms('river');
    const first = await search.songPage(terms, undefined, 3);
    expect(first.total).toBe(7);
    expect(first.ids).toHaveLength(3);
    const second = await search.songPage(terms, first.nextCursor ?? undefined, 3);
    expect(second.total).toBe(7);
    expect([...first.ids, ...second.ids]).toEqual((await songIds('river')).slice(0, 6));
    expect((await search.songPage(searchTerms('nothingmatches'), undefined, 3)).total).toBe(0);
  });

  it('narrows song pages to an artist or a genre, and ties their cursors to the filter', async () => {
    const terms = searchTerms('river');
    const riverBand = (
      await t.db.selectFrom('artists').select('id').where('name', '=', 'River Band').executeTakeFirstOrThrow()
    ).id;
    expect(await search.songPage(terms, undefined, 10, { genre: 'Pop' })).toEqual({
      ids: [ids.river, ids.riverside],
      nextCursor: null,
      total: 2,
    });
    expect((await search.songPage(terms, undefined, 10, { artistId: riverBand })).ids).toEqual([ids.quiet]);
    expect((await search.songPage(terms, undefined, 10, { artistId: riverBand, genre: 'Pop' })).total).toBe(0);
    const first = await search.songPage(terms, undefined, 1, { genre: 'Pop' });
    expect((await search.songPage(terms, first.nextCursor ?? undefined, 1, { genre: 'Pop' })).ids).toEqual([
      ids.riverside,
    ]);
    await expect(search.songPage(terms, first.nextCursor ?? undefined, 1, { genre: 'Rock' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(search.songPage(terms, first.nextCursor ?? undefined, 1)).rejects.toMatchObject({ status: 400 });
  });

  it('takes the words of the query language as plain words, and no words as no match', async () => {
    expect(await songIds('AND OR NOT NEAR')).toEqual([]);
    expect(await songIds('river NOT')).toEqual([]);
    expect(await search.songPage([], undefined, 10)).toEqual({ ids: [], nextCursor: null, total: 0 });
    expect(await search.playlistPage([], undefined, 10, { kind: 'all' })).toEqual({ rows: [], nextCursor: null });
    expect(await songIds('x'.repeat(200))).toEqual([]);
  });

  it('refuses a cursor that is not one of this group and query (400 badCursor)', async () => {
    const terms = searchTerms('river');
    const { nextCursor } = await search.idPage('songs', terms, undefined, 1);
    expect(nextCursor).not.toBeNull();
    const cursor = nextCursor ?? '';
    const refused = async (run: () => Promise<unknown>) => {
      const error: unknown = await run().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 400, message: RequestMessages.badCursor });
    };
    await refused(() => search.idPage('artists', terms, cursor, 1));
    await refused(() => search.idPage('songs', searchTerms('rover'), cursor, 1));
    await refused(() => search.playlistPage(terms, cursor, 1, { kind: 'all' }));
    for (const forged of ['abc', 'c2VhcmNoLnMuMTIzLjkuMQ', Buffer.from('search.s.x.0.0').toString('base64url')]) {
      await refused(() => search.idPage('songs', terms, forged, 1));
    }
    expect((await search.idPage('songs', terms, cursor, 1)).ids).toHaveLength(1);
  });

  it('pages playlists under the visibility rule, the viewer’s own and public ones only', async () => {
    const owner = (await insertUser(t, { username: 'list_owner' })).id;
    const other = (await insertUser(t, { username: 'list_other' })).id;
    const mine = await insertPlaylist(t, { ownerId: owner, name: 'River Songs', isPublic: false });
    const open = await insertPlaylist(t, { ownerId: other, name: 'River Walks', isPublic: true });
    await insertPlaylist(t, { ownerId: other, name: 'River Secrets', isPublic: false });
    const typo = await insertPlaylist(t, { ownerId: other, name: 'Rover Trips', isPublic: true });
    const visible = { kind: 'public-or-own', userId: owner } as const;
    const paged = await allPages(async (cursor) => {
      const { rows, nextCursor } = await search.playlistPage(searchTerms('river'), cursor, 1, visible);
      return { ids: rows.map((row) => row.id), nextCursor };
    });
    expect(paged.ids).toEqual([open, mine, typo]);
    const all = await search.playlistPage(searchTerms('river'), undefined, 10, { kind: 'all' });
    expect(all.rows).toHaveLength(4);
  });
});

describeEachDialect('search paging over many rows (%s)', { uses: 'database' }, (t) => {
  it('pages a few thousand matches in every tier completely, across sparse and dense stages', async () => {
    const search = createSearchIndexRepository(t.db, t.dialect);
    const names = ['Amber River', 'Amberly', 'Ambr Song', 'Quiet Night', 'Amber Night'];
    // 3 000 songs: dense stages (Amber…), and sparse ones (one "Ambr" song in a hundred, whose rows mostly lie below
    // the newest ones), so that a stage is read both in the newest rows and further down.
    const rows = Array.from({ length: 3000 }, (_, i): [string, string, number | null] => [
      i % 100 === 7 ? 'Ambr Song' : (names[i % 2 === 0 ? 0 : i % 3 === 0 ? 3 : 4] ?? 'x'),
      'Pop',
      null,
    ]);
    rows[10] = ['Amberly', 'Pop', null];
    rows[2900] = ['Amberly', 'Pop', null];
    const inserted = await songs(t.db, rows);
    const byName = (name: string) => inserted.filter((_, i) => rows[i]?.[0] === name).sort((a, b) => b - a);
    const terms = searchTerms('amber');
    const paged = await allPages((cursor) => search.idPage('songs', terms, cursor, 50));
    const expected = [
      ...[...byName('Amber River'), ...byName('Amber Night')].sort((a, b) => b - a),
      ...byName('Amberly'),
      ...byName('Ambr Song'),
    ];
    expect(paged.ids).toHaveLength(expected.length);
    expect(paged.ids).toEqual(expected);
    expect((await search.songPage(terms, undefined, 10)).total).toBe(expected.length);
  }, 120_000);
});
