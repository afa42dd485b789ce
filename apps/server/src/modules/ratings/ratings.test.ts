import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Album,
  AlbumPage,
  AlbumSummary,
  Artist,
  Library,
  RatingMessages,
  Song,
  SongPage,
  UNKNOWN_ALBUM,
} from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, placeOnAlbum, type TestUser } from '../../../test/factories.js';

const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/** Issue 28: each user's 1–5 stars on songs, albums and artists, through the web API. */
describeEachDialect('ratings API (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let artistId: number;
  let albumId: number;
  let songA: number;
  let songB: number;
  let hiddenSong: number;
  let hiddenAlbum: number;
  let hiddenArtist: number;
  let base: string;

  const rate = (who: TestUser | undefined, kind: string, id: number, rating: unknown) =>
    t.as(who).inject({ method: 'PUT', url: `/api/${kind}/${id}/rating`, payload: { rating } });
  const unrate = (who: TestUser | undefined, kind: string, id: number) =>
    t.as(who).inject({ method: 'DELETE', url: `/api/${kind}/${id}/rating` });
  const song = async (who: TestUser, id: number) => Song.parse((await t.as(who).get(`/api/songs/${id}`)).json());
  const album = async (who: TestUser, id: number) => Album.parse((await t.as(who).get(`/api/albums/${id}`)).json());
  const artist = async (who: TestUser, id: number) => Artist.parse((await t.as(who).get(`/artists/${id}`)).json());
  const makeAlbum = async (name: string, albumArtistId: number) => {
    const created = await t.as(admin).post('/api/albums', { name, artistId: albumArtistId });
    expect(created.statusCode, created.body).toBe(201);
    return AlbumSummary.parse(created.json()).id;
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
    artistId = await makeArtist(t, admin, 'Star Chart');
    songA = await makeSong(t, admin, { name: 'First Light', artistId });
    songB = await makeSong(t, admin, { name: 'Second Wind', artistId });
    albumId = await makeAlbum('Constellations', artistId);
    await placeOnAlbum(t, songA, albumId, 1, 1);
    await placeOnAlbum(t, songB, albumId, 1, 2);

    // A library hidden from everyone but the admin: its song, album and artist do not exist for the others.
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-ratings-'));
    const folder = path.join(base, 'Private');
    await mkdir(folder);
    await encodeAudio(path.join(folder, 'secret.mp3'), 'mp3', {
      seconds: 1,
      tags: { title: 'Secret Song', artist: 'Hidden Band', album: 'Hidden Album', genre: 'Rock' },
    });
    const added = await t.as(admin).post('/api/libraries', { path: folder });
    expect(added.statusCode, added.body).toBe(201);
    await t.composition.services.libraries.settled();
    const library = Library.parse(added.json());
    const access = await t.as(admin).put(`/api/libraries/${library.id}/access`, { everyone: false, memberIds: [] });
    expect(access.statusCode, access.body).toBe(200);
    const row = await t.db
      .selectFrom('songs')
      .innerJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
      .select(['songs.id', 'songs.artist_id', 'album_tracks.album_id'])
      .where('songs.name', '=', 'Secret Song')
      .executeTakeFirstOrThrow();
    hiddenSong = row.id;
    hiddenAlbum = row.album_id;
    hiddenArtist = row.artist_id ?? 0;
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('needs a session: 401 for every rating route', async () => {
    for (const kind of ['songs', 'albums', 'artists']) {
      expect((await rate(undefined, kind, songA, 3)).statusCode).toBe(401);
      expect((await unrate(undefined, kind, songA)).statusCode).toBe(401);
    }
  });

  it('sets, changes and clears a song rating (0 and DELETE both clear, both idempotent)', async () => {
    expect((await song(alice, songA)).rating).toBeNull();
    expect((await rate(alice, 'songs', songA, 4)).statusCode).toBe(204);
    expect((await song(alice, songA)).rating).toBe(4);
    expect((await rate(alice, 'songs', songA, 2)).statusCode).toBe(204);
    expect((await song(alice, songA)).rating).toBe(2);
    expect((await rate(alice, 'songs', songA, 0)).statusCode).toBe(204);
    expect((await song(alice, songA)).rating).toBeNull();
    expect((await rate(alice, 'songs', songA, 0)).statusCode).toBe(204);
    expect((await rate(alice, 'songs', songA, 5)).statusCode).toBe(204);
    expect((await unrate(alice, 'songs', songA)).statusCode).toBe(204);
    expect((await unrate(alice, 'songs', songA)).statusCode).toBe(204);
    expect((await song(alice, songA)).rating).toBeNull();
  });

  it('rates albums and artists; their pages carry the caller’s own stars', async () => {
    expect((await album(alice, albumId)).rating).toBeNull();
    expect((await rate(alice, 'albums', albumId, 5)).statusCode).toBe(204);
    expect((await rate(alice, 'artists', artistId, 3)).statusCode).toBe(204);
    expect((await album(alice, albumId)).rating).toBe(5);
    expect((await artist(alice, artistId)).rating).toBe(3);
    expect((await unrate(alice, 'albums', albumId)).statusCode).toBe(204);
    expect((await album(alice, albumId)).rating).toBeNull();
    expect((await rate(alice, 'artists', artistId, 0)).statusCode).toBe(204);
    expect((await artist(alice, artistId)).rating).toBeNull();
  });

  it('is per user: one user’s stars never show in another’s answers, lists and pages included', async () => {
    await rate(alice, 'songs', songB, 5);
    await rate(bob, 'songs', songB, 1);
    await rate(alice, 'albums', albumId, 4);
    expect((await song(alice, songB)).rating).toBe(5);
    expect((await song(bob, songB)).rating).toBe(1);
    expect((await song(admin, songB)).rating).toBeNull();
    expect((await album(bob, albumId)).rating).toBeNull();
    expect((await album(alice, albumId)).songs.map((s) => s.rating)).toEqual([null, 5]);
    expect((await album(bob, albumId)).songs.map((s) => s.rating)).toEqual([null, 1]);
    // The song list (the catalogue index serves it from memory) and its keyset pages, then the whole-catalogue stream.
    const list = z.array(Song).parse((await t.as(bob).get('/api/songs')).json());
    expect(list.find((s) => s.id === songB)?.rating).toBe(1);
    const page = SongPage.parse((await t.as(alice).get('/api/songs/page?limit=50')).json());
    expect(page.items.find((s) => s.id === songB)?.rating).toBe(5);
    const data = z.looseObject({ songs: z.array(Song) }).parse((await t.as(bob).get('/api/songs/data')).json());
    expect(data.songs.find((s) => s.id === songB)?.rating).toBe(1);
    expect(data.songs.find((s) => s.id === songA)?.rating).toBeNull();
  });

  describe('bad values: 400 with the contract’s message on `rating`, and nothing written', () => {
    for (const bad of [6, -1, 2.5, '3', null, true]) {
      it(`refuses ${JSON.stringify(bad)}`, async () => {
        await rate(alice, 'songs', songA, 3);
        for (const kind of ['songs', 'albums', 'artists']) {
          const id = kind === 'songs' ? songA : kind === 'albums' ? albumId : artistId;
          const answer = await rate(alice, kind, id, bad);
          expect(answer.statusCode, answer.body).toBe(400);
          const { error } = ErrorBody.parse(answer.json());
          expect(error.message).toBe(RatingMessages.invalidRating);
          expect(error.field).toBe('rating');
        }
        expect((await song(alice, songA)).rating).toBe(3);
      });
    }

    it('refuses a body without a rating', async () => {
      const answer = await t.as(alice).inject({ method: 'PUT', url: `/api/songs/${songA}/rating`, payload: {} });
      expect(answer.statusCode, answer.body).toBe(400);
    });
  });

  it('404 for an item that does not exist', async () => {
    for (const kind of ['songs', 'albums', 'artists']) {
      expect((await rate(alice, kind, 999_999, 3)).statusCode).toBe(404);
      expect((await unrate(alice, kind, 999_999)).statusCode).toBe(404);
    }
  });

  it('404 for the song, album and artist of a hidden library; the admin who sees it may rate them', async () => {
    for (const [kind, id] of [
      ['songs', hiddenSong],
      ['albums', hiddenAlbum],
      ['artists', hiddenArtist],
    ] as const) {
      expect((await rate(alice, kind, id, 3)).statusCode).toBe(404);
      expect((await unrate(alice, kind, id)).statusCode).toBe(404);
      expect((await rate(admin, kind, id, 3)).statusCode).toBe(204);
    }
    const count = await t.db
      .selectFrom('song_ratings')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', alice.id)
      .where('song_id', '=', hiddenSong)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('a rating goes with its item and with its user', async () => {
    const doomed = await makeSong(t, admin, { name: 'Short Lived', artistId });
    await rate(alice, 'songs', doomed, 4);
    expect((await t.as(admin).inject({ method: 'DELETE', url: `/api/songs/${doomed}` })).statusCode).toBe(200);
    const left = await t.db.selectFrom('song_ratings').select('song_id').where('song_id', '=', doomed).execute();
    expect(left).toEqual([]);
  });

  describe('the Rating sort of GET /api/songs/page: highest first, unrated last, ties by id, per user', () => {
    let songC: number;
    let songD: number;

    /** Every page of the order, `limit` songs at a time, through the cursors. */
    const pages = async (who: TestUser, query: string, limit: number) => {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const url = `/api/songs/page?${query}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`;
        const answer = await t.as(who).get(url);
        expect(answer.statusCode, answer.body).toBe(200);
        const page = SongPage.parse(answer.json());
        ids.push(...page.items.map((s) => s.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return ids;
    };

    beforeAll(async () => {
      songC = await makeSong(t, admin, { name: 'Third Eye', artistId });
      songD = await makeSong(t, admin, { name: 'Fourth Wall', artistId });
      await rate(alice, 'songs', songA, 2);
      await rate(alice, 'songs', songB, 5);
      await rate(alice, 'songs', songC, 5);
      await unrate(alice, 'songs', songD);
      await rate(bob, 'songs', songB, 1);
      await unrate(bob, 'songs', songA);
    });

    it('orders by the caller’s stars, across page boundaries, in both directions', async () => {
      for (const limit of [1, 2, 3, 50]) {
        expect(await pages(alice, 'order=rating', limit)).toEqual([songC, songB, songA, songD]);
        expect(await pages(alice, 'order=rating&direction=desc', limit)).toEqual([songC, songB, songA, songD]);
        expect(await pages(alice, 'order=rating&direction=asc', limit)).toEqual([songD, songA, songB, songC]);
      }
    });

    it('is the caller’s own order: another user’s stars sort their list, and a cursor is not theirs to reuse', async () => {
      expect(await pages(bob, 'order=rating', 2)).toEqual([songB, songD, songC, songA]);
      const first = SongPage.parse((await t.as(alice).get('/api/songs/page?order=rating&limit=1')).json());
      expect(first.total).toBe(4);
      const stolen = await t.as(bob).get(`/api/songs/page?order=rating&limit=1&cursor=${first.nextCursor ?? ''}`);
      expect(stolen.statusCode).toBe(400);
    });

    it('narrows to one artist like any order, and leaves a hidden library’s songs out', async () => {
      expect(await pages(alice, `order=rating&artistId=${artistId}`, 2)).toEqual([songC, songB, songA, songD]);
      expect(await pages(alice, `order=rating&artistId=${hiddenArtist}`, 2)).toEqual([]);
      expect(await pages(admin, 'order=rating', 50)).toContain(hiddenSong);
    });
  });

  describe('GET /api/albums?sort=rating: the caller’s rated albums by stars, then the unrated by name', () => {
    let otherAlbum: number;

    const names = async (who: TestUser, limit: number, filter = '') => {
      const found: string[] = [];
      let cursor: string | null = null;
      do {
        const url = `/api/albums?sort=rating${filter}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`;
        const answer = await t.as(who).get(url);
        expect(answer.statusCode, answer.body).toBe(200);
        const page = AlbumPage.parse(answer.json());
        found.push(...page.items.map((album) => album.name));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return found;
    };

    beforeAll(async () => {
      otherAlbum = await makeAlbum('Another Sky', artistId);
      await rate(alice, 'albums', otherAlbum, 5);
      await rate(alice, 'albums', albumId, 4);
      await unrate(bob, 'albums', otherAlbum);
      await rate(bob, 'albums', albumId, 1);
    });

    it('pages through both parts, per user; a hidden library’s album stays out', async () => {
      for (const limit of [1, 2, 50]) {
        expect(await names(alice, limit)).toEqual(['Another Sky', 'Constellations', UNKNOWN_ALBUM]);
        expect(await names(bob, limit)).toEqual(['Constellations', 'Another Sky', UNKNOWN_ALBUM]);
      }
      expect(await names(admin, 50)).toContain('Hidden Album');
      const first = AlbumPage.parse((await t.as(alice).get('/api/albums?sort=rating&limit=1')).json());
      expect(first.total).toBe(3);
      const stolen = await t.as(bob).get(`/api/albums?sort=rating&limit=1&cursor=${first.nextCursor ?? ''}`);
      expect(stolen.statusCode).toBe(400);
    });

    it('breaks ties of stars by id, newest first, and pages the unrated by name, across page boundaries', async () => {
      const band = await makeArtist(t, admin, 'Tie Breakers');
      const ids: Record<string, number> = {};
      for (const name of ['Echo', 'Alpha', 'Delta', 'Bravo', 'Charlie']) ids[name] = await makeAlbum(name, band);
      await rate(alice, 'albums', ids.Echo ?? 0, 3);
      await rate(alice, 'albums', ids.Alpha ?? 0, 3);
      await rate(alice, 'albums', ids.Delta ?? 0, 5);
      await rate(bob, 'albums', ids.Bravo ?? 0, 5);
      for (const limit of [1, 2, 3, 50]) {
        expect(await names(alice, limit, `&artistId=${band}`)).toEqual(['Delta', 'Alpha', 'Echo', 'Bravo', 'Charlie']);
        expect(await names(bob, limit, `&artistId=${band}`)).toEqual(['Bravo', 'Alpha', 'Charlie', 'Delta', 'Echo']);
      }
    });
  });

  describe('GET /artists?sort=rating: the caller’s rated artists by stars, then the others by name', () => {
    const names = async (who: TestUser, query = '') => {
      const answer = await t.as(who).get(`/artists?sort=rating${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return z
        .array(Artist)
        .parse(answer.json())
        .map((artist) => artist.name);
    };

    beforeAll(async () => {
      await makeArtist(t, admin, 'Aardvark Trio');
      await makeArtist(t, admin, 'Zephyr');
      const zephyr = await t.db
        .selectFrom('artists')
        .select('id')
        .where('name', '=', 'Zephyr')
        .executeTakeFirstOrThrow();
      await rate(alice, 'artists', zephyr.id, 5);
      await rate(alice, 'artists', artistId, 2);
      await rate(bob, 'artists', artistId, 4);
    });

    it('orders per user, keeps the name order among equals, honours limit, and leaves the name order as it was', async () => {
      const mine = await names(alice);
      expect(mine.slice(0, 2)).toEqual(['Zephyr', 'Star Chart']);
      const rest = mine.slice(2);
      expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
      expect(rest).toContain('Aardvark Trio');
      expect(rest).not.toContain('Hidden Band');
      expect((await names(bob)).slice(0, 1)).toEqual(['Star Chart']);
      expect(await names(alice, '&limit=1')).toEqual(['Zephyr']);
      const byName = z.array(Artist).parse((await t.as(alice).get('/artists')).json());
      expect(byName[0]?.name).toBe('Aardvark Trio');
      const bad = await t.as(alice).get('/artists?sort=stars');
      expect(bad.statusCode).toBe(400);
    });

    it('keeps the name order among artists with the same stars', async () => {
      for (const name of ['Tied Beta', 'Tied Alpha']) await rate(bob, 'artists', await makeArtist(t, admin, name), 3);
      expect((await names(bob)).slice(0, 3)).toEqual(['Star Chart', 'Tied Alpha', 'Tied Beta']);
    });
  });
});
