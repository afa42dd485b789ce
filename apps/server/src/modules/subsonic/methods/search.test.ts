import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../../test/factories.js';
import { AlbumID3, ArtistID3, Child, apiKeyOf, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';

const IsoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'an ISO 8601 date');

/** Artist (the folder-based lists: search2, getStarred), as the OpenSubsonic documentation lists its fields. */
const Artist = z.strictObject({
  id: z.string(),
  name: z.string(),
  artistImageUrl: z.string().optional(),
  starred: IsoDate.optional(),
  userRating: z.number().int().optional(),
  averageRating: z.number().optional(),
});

/** An album as a directory Child (search2, getStarred): `isDir` true. */
const AlbumChild = Child.extend({ isDir: z.literal(true) });
const SongChild = Child.extend({ isDir: z.literal(false) });

const SearchResult2 = z.strictObject({
  searchResult2: z.strictObject({
    artist: z.array(Artist).optional(),
    album: z.array(AlbumChild).optional(),
    song: z.array(SongChild).optional(),
  }),
});
const SearchResult3 = z.strictObject({
  searchResult3: z.strictObject({
    artist: z.array(ArtistID3).optional(),
    album: z.array(AlbumID3).optional(),
    song: z.array(SongChild).optional(),
  }),
});
const Starred = z.strictObject({
  starred: z.strictObject({
    artist: z.array(Artist).optional(),
    album: z.array(AlbumChild).optional(),
    song: z.array(SongChild).optional(),
  }),
});
const Starred2 = z.strictObject({
  starred2: z.strictObject({
    artist: z.array(ArtistID3).optional(),
    album: z.array(AlbumID3).optional(),
    song: z.array(SongChild).optional(),
  }),
});
const Empty = z.strictObject({});

const ids = (items: readonly { id: string }[] | undefined) => (items ?? []).map((item) => item.id);

describeEachDialect('Subsonic search and stars (%s)', (t) => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let api: SubsonicApi;
  let bobApi: SubsonicApi;
  const id = { portishead: 0, massive: 0, glory: 0, roads: 0, teardrop: 0, dummy: 0, mezzanine: 0 };

  const keyOf = (user: TestUser) => apiKeyOf(t, user);
  const makeAlbum = async (name: string, artistId: number, songIds: number[]) => {
    const response = await t.as(admin).post('/api/albums', { name, artistId, year: 1994 });
    expect(response.statusCode, response.body).toBe(201);
    const albumId = response.json<{ id: number }>().id;
    for (const [index, songId] of songIds.entries()) {
      const placed = await t.as(admin).put(`/api/songs/${songId}/album`, { albumId, trackNumber: index + 1 });
      expect(placed.statusCode, placed.body).toBe(200);
    }
    return albumId;
  };

  beforeAll(async () => {
    alice = await makeUser(t);
    bob = await makeUser(t);
    admin = await makeAdmin(t);
    api = subsonicApi(t, { apiKey: await keyOf(alice) });
    bobApi = subsonicApi(t, { apiKey: await keyOf(bob) });
    id.portishead = await makeArtist(t, admin, 'Portishead');
    id.massive = await makeArtist(t, admin, 'Massive Attack');
    id.glory = await makeSong(t, admin, { name: 'Glory Box', genre: 'Electronic / EDM', artistId: id.portishead });
    id.roads = await makeSong(t, admin, { name: 'Roads', genre: 'Electronic / EDM', artistId: id.portishead });
    id.teardrop = await makeSong(t, admin, { name: 'Teardrop', genre: 'Electronic / EDM', artistId: id.massive });
    id.dummy = await makeAlbum('Dummy', id.portishead, [id.glory, id.roads]);
    id.mezzanine = await makeAlbum('Mezzanine', id.massive, [id.teardrop]);
  });

  describe('search3', () => {
    it("finds artists, albums and songs with Tonearm's search, as ID3 types", async () => {
      const { searchResult3: found } = await api.shape('search3', { query: 'portishead' }, SearchResult3);
      expect(found.artist).toEqual([{ id: `ar-${id.portishead}`, name: 'Portishead', albumCount: 1 }]);
      // Songs match by their artist's name too (the web's search); the newest match first.
      expect(ids(found.song).sort()).toEqual([String(id.glory), String(id.roads)].sort());
      expect(found.song?.[0]).toMatchObject({ albumId: `al-${id.dummy}`, artist: 'Portishead', album: 'Dummy' });
      // Albums match by their name, as in /api/search.
      expect(found.album ?? []).toEqual([]);
      const byAlbum = await api.shape('search3', { query: 'dumm' }, SearchResult3);
      expect(byAlbum.searchResult3.album).toEqual([
        expect.objectContaining({ id: `al-${id.dummy}`, name: 'Dummy', songCount: 2, artistId: `ar-${id.portishead}` }),
      ]);
    });

    it('pages each part with its count and offset', async () => {
      const all = (await api.shape('search3', { query: 'portishead' }, SearchResult3)).searchResult3;
      const first = await api.shape('search3', { query: 'portishead', songCount: 1 }, SearchResult3);
      const second = await api.shape('search3', { query: 'portishead', songCount: 1, songOffset: 1 }, SearchResult3);
      expect(ids(first.searchResult3.song)).toEqual(ids(all.song).slice(0, 1));
      expect(ids(second.searchResult3.song)).toEqual(ids(all.song).slice(1, 2));
      const past = await api.shape('search3', { query: 'portishead', songOffset: 2, artistCount: 0 }, SearchResult3);
      expect(past.searchResult3.song ?? []).toEqual([]);
      expect(past.searchResult3.artist ?? []).toEqual([]);
      // A count over the cap is clamped, not refused; one that is no number is error 0.
      await api.shape('search3', { query: 'portishead', songCount: 100_000 }, SearchResult3);
      await api.error('search3', { query: 'portishead', songCount: 'many' }, 0);
    });

    it('lists the whole catalogue by id for an empty query, paged ("" as some apps send it too)', async () => {
      const songIds = (await t.db.selectFrom('songs').select('id').orderBy('id').execute()).map((r) => String(r.id));
      const albumIds = (await t.db.selectFrom('albums').select('id').orderBy('id').execute()).map((r) => `al-${r.id}`);
      const artistIds = (await t.db.selectFrom('artists').select('id').orderBy('id').execute()).map(
        (r) => `ar-${r.id}`,
      );
      for (const query of ['', '""']) {
        const { searchResult3: all } = await api.shape('search3', { query, songCount: 500 }, SearchResult3);
        expect(ids(all.song)).toEqual(songIds);
        expect(ids(all.album)).toEqual(albumIds);
        expect(ids(all.artist)).toEqual(artistIds);
      }
      const page = await api.shape(
        'search3',
        { query: '', songCount: 2, songOffset: 1, albumCount: 1, albumOffset: 1, artistCount: 1 },
        SearchResult3,
      );
      expect(ids(page.searchResult3.song)).toEqual(songIds.slice(1, 3));
      expect(ids(page.searchResult3.album)).toEqual(albumIds.slice(1, 2));
      expect(ids(page.searchResult3.artist)).toEqual(artistIds.slice(0, 1));
    });

    it('leaves the placeholder albums out of a search by words, and keeps them in the empty query', async () => {
      // A song uploaded without an album is on its artist's placeholder album (issue 25).
      const sketch = await makeSong(t, admin, { name: 'Unfinished Sketch', artistId: id.massive });
      try {
        const placeholders = (
          await t.db.selectFrom('albums').select('id').where('is_placeholder', '=', 1).execute()
        ).map((row) => `al-${row.id}`);
        expect(placeholders).toHaveLength(1);
        const found = await api.shape('search3', { query: 'unknown album' }, SearchResult3);
        expect(found.searchResult3.album ?? []).toEqual([]);
        expect(ids(found.searchResult3.song)).toEqual([]);
        const all = await api.shape('search3', { query: '', albumCount: 500 }, SearchResult3);
        expect(ids(all.searchResult3.album)).toEqual(expect.arrayContaining(placeholders));
      } finally {
        expect((await t.as(admin).delete(`/api/songs/${sketch}`)).statusCode).toBe(200);
      }
    });

    it('wants its query (10 without one, in both formats); an empty one is everything', async () => {
      await api.error('search3', {}, 10);
      await api.error('search3', { songCount: 5, musicFolderId: 0 }, 10);
      await api.error('search2', {}, 10);
      expect((await api.json('search3', { query: '' })).status).toBe('ok');
    });

    it('finds nothing for a query with no words', async () => {
      const { searchResult3: found } = await api.shape('search3', { query: '!!' }, SearchResult3);
      expect([found.artist ?? [], found.album ?? [], found.song ?? []]).toEqual([[], [], []]);
    });
  });

  describe('search2', () => {
    it('answers artists as Artist and albums as directory Children', async () => {
      const { searchResult2: found } = await api.shape('search2', { query: 'massive' }, SearchResult2);
      expect(found.artist).toEqual([{ id: `ar-${id.massive}`, name: 'Massive Attack' }]);
      expect(ids(found.song)).toEqual([String(id.teardrop)]);
      const { searchResult2: albums } = await api.shape('search2', { query: 'mezzanine' }, SearchResult2);
      expect(albums.album).toEqual([
        expect.objectContaining({
          id: `al-${id.mezzanine}`,
          isDir: true,
          title: 'Mezzanine',
          parent: `ar-${id.massive}`,
          artist: 'Massive Attack',
        }),
      ]);
    });
  });

  describe('stars', () => {
    it('stars songs (the web likes), albums and artists; getStarred2 and search answer them with dates', async () => {
      await api.shape('star', { id: id.glory, albumId: `al-${id.dummy}`, artistId: `ar-${id.massive}` }, Empty);
      // Starring again is fine.
      await api.shape('star', { id: id.glory }, Empty);
      const liked = await t.as(alice).get('/api/songs/liked');
      expect(liked.json<{ id: number }[]>().map((song) => song.id)).toEqual([id.glory]);

      const { starred2 } = await api.shape('getStarred2', {}, Starred2);
      expect(ids(starred2.song)).toEqual([String(id.glory)]);
      expect(ids(starred2.album)).toEqual([`al-${id.dummy}`]);
      expect(ids(starred2.artist)).toEqual([`ar-${id.massive}`]);
      expect(starred2.song?.[0]?.starred).toBeDefined();
      expect(starred2.album?.[0]?.starred).toBeDefined();
      expect(starred2.artist?.[0]).toMatchObject({ albumCount: 1, name: 'Massive Attack' });

      const { starred } = await api.shape('getStarred', {}, Starred);
      expect(starred.album?.[0]).toMatchObject({ id: `al-${id.dummy}`, isDir: true });
      expect(starred.artist).toEqual([
        { id: `ar-${id.massive}`, name: 'Massive Attack', starred: starred2.artist?.[0]?.starred },
      ]);

      const { searchResult3: found } = await api.shape('search3', { query: '' }, SearchResult3);
      const starredIds = [
        ...(found.song ?? []).filter((song) => song.starred !== undefined).map((song) => song.id),
        ...(found.album ?? []).filter((album) => album.starred !== undefined).map((album) => album.id),
        ...(found.artist ?? []).filter((artist) => artist.starred !== undefined).map((artist) => artist.id),
      ];
      expect(starredIds).toEqual([String(id.glory), `al-${id.dummy}`, `ar-${id.massive}`]);

      // Stars are each user's own.
      const bobs = await bobApi.shape('getStarred2', {}, Starred2);
      expect([bobs.starred2.song ?? [], bobs.starred2.album ?? [], bobs.starred2.artist ?? []]).toEqual([[], [], []]);

      await api.shape('unstar', { id: id.glory, albumId: `al-${id.dummy}`, artistId: `ar-${id.massive}` }, Empty);
      const after = await api.shape('getStarred2', {}, Starred2);
      expect([after.starred2.song ?? [], after.starred2.album ?? [], after.starred2.artist ?? []]).toEqual([
        [],
        [],
        [],
      ]);
      expect((await t.as(alice).get('/api/songs/liked')).json()).toEqual([]);
    });

    it('takes repeated ids, and album and artist ids given as id', async () => {
      await api.shape('star', { id: [id.roads, id.teardrop, `al-${id.mezzanine}`, `ar-${id.portishead}`] }, Empty);
      const { starred2 } = await api.shape('getStarred2', {}, Starred2);
      expect(ids(starred2.song).sort()).toEqual([String(id.roads), String(id.teardrop)].sort());
      expect(ids(starred2.album)).toEqual([`al-${id.mezzanine}`]);
      expect(ids(starred2.artist)).toEqual([`ar-${id.portishead}`]);
      await api.shape('unstar', { id: [id.roads, id.teardrop], albumId: id.mezzanine, artistId: id.portishead }, Empty);
      const after = await api.shape('getStarred2', {}, Starred2);
      expect([after.starred2.song ?? [], after.starred2.album ?? [], after.starred2.artist ?? []]).toEqual([
        [],
        [],
        [],
      ]);
    });

    it('answers 70 for a missing item and stars nothing, 10 when nothing is named', async () => {
      await api.error('star', { id: [id.glory, 999_999] }, 70);
      await api.error('star', { id: id.glory, albumId: 'al-999999' }, 70);
      await api.error('star', { artistId: 'ar-999999' }, 70);
      await api.error('star', { albumId: 'nonsense' }, 70);
      await api.error('unstar', { id: 999_999 }, 70);
      const { starred2 } = await api.shape('getStarred2', {}, Starred2);
      expect([starred2.song ?? [], starred2.album ?? [], starred2.artist ?? []]).toEqual([[], [], []]);
      await api.error('star', {}, 10);
      await api.error('unstar', {}, 10);
    });

    it('leaves no star behind when the album, the artist or the user is deleted', async () => {
      const artistId = await makeArtist(t, admin, 'Tricky');
      const songId = await makeSong(t, admin, { name: 'Hell Is Round the Corner', artistId });
      const albumId = await makeAlbum('Maxinquaye', artistId, [songId]);
      const carol = await makeUser(t);
      const carolApi = subsonicApi(t, { apiKey: await keyOf(carol) });
      await api.shape('star', { albumId: `al-${albumId}`, artistId: `ar-${artistId}` }, Empty);
      await carolApi.shape('star', { albumId: `al-${albumId}`, artistId: `ar-${artistId}` }, Empty);
      const count = async (table: 'album_stars' | 'artist_stars', where: 'user_id' | 'item', value: number) => {
        const column = where === 'user_id' ? 'user_id' : table === 'album_stars' ? 'album_id' : 'artist_id';
        const rows = await t.db
          .selectFrom(table)
          .selectAll()
          .where(column as 'user_id', '=', value)
          .execute();
        return rows.length;
      };
      expect(await count('album_stars', 'item', albumId)).toBe(2);
      expect(await count('artist_stars', 'item', artistId)).toBe(2);

      expect((await t.as(admin).delete(`/api/users/${carol.id}`)).statusCode).toBeLessThan(300);
      expect(await count('album_stars', 'user_id', carol.id)).toBe(0);
      expect(await count('artist_stars', 'user_id', carol.id)).toBe(0);
      expect(await count('album_stars', 'item', albumId)).toBe(1);

      expect((await t.as(admin).delete(`/api/albums/${albumId}`)).statusCode).toBe(204);
      expect(await count('album_stars', 'item', albumId)).toBe(0);
      expect((await t.as(admin).delete(`/artists/${artistId}`)).statusCode).toBeLessThan(300);
      expect(await count('artist_stars', 'item', artistId)).toBe(0);
      const { starred2 } = await api.shape('getStarred2', {}, Starred2);
      expect([starred2.album ?? [], starred2.artist ?? []]).toEqual([[], []]);
    });
  });
});
