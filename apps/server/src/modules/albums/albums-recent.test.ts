import { AlbumPage } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser, type TestUser } from '../../../test/factories.js';

describeEachDialect('albums newest first (%s)', (t) => {
  let user: TestUser;
  const ids: Record<string, number> = {};

  const insertAlbum = async (name: string, createdAt: string) => {
    ids[name] = (
      await t.db
        .insertInto('albums')
        .values({ name, artist_id: null, year: null, image_key: null, created_at: createdAt })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };

  beforeAll(async () => {
    user = await makeUser(t);
    await insertAlbum('Oldest', '2024-01-01T00:00:00.000Z');
    // Two albums of the same instant: the later id comes first.
    await insertAlbum('Twin One', '2025-06-01T00:00:00.000Z');
    await insertAlbum('Twin Two', '2025-06-01T00:00:00.000Z');
    await insertAlbum('Newest', '2026-03-01T00:00:00.000Z');
    await insertAlbum('Middle', '2025-01-01T00:00:00.000Z');
  });

  const page = async (query: string) => {
    const reply = await t.as(user).get(`/api/albums?${query}`);
    expect(reply.statusCode, reply.body).toBe(200);
    return AlbumPage.parse(reply.json());
  };

  it('pages albums newest first by (created_at, id), without repeats or gaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: AlbumPage = await page(`sort=recent&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(next.total).toBe(5);
      expect(next.items.length).toBeLessThanOrEqual(2);
      seen.push(...next.items.map((album) => album.name));
      cursor = next.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(['Newest', 'Twin Two', 'Twin One', 'Middle', 'Oldest']);
  });

  it('keeps the name order by default, and a cursor to the order it came from', async () => {
    const byName = await page('limit=2');
    expect(byName.items.map((album) => album.name)).toEqual(['Middle', 'Newest']);
    const recent = await page('sort=recent&limit=1');
    expect(recent.items.map((album) => album.id)).toEqual([ids.Newest]);
    expect((await t.as(user).get(`/api/albums?limit=1&cursor=${recent.nextCursor ?? ''}`)).statusCode).toBe(400);
    expect((await t.as(user).get(`/api/albums?sort=recent&cursor=${byName.nextCursor ?? ''}`)).statusCode).toBe(400);
    expect((await t.as(user).get('/api/albums?sort=oldest')).statusCode).toBe(400);
  });

  it('narrows the newest albums by words of their name', async () => {
    const twins = await page('sort=recent&q=twin');
    expect(twins.items.map((album) => album.name)).toEqual(['Twin Two', 'Twin One']);
  });
});
