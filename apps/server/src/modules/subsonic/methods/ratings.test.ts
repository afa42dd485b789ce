import type { AddressInfo } from 'node:net';
import { AlbumSummary, SubsonicErrorCodes, SubsonicMessages } from '@tonearm/contract';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, placeOnAlbum, type TestUser } from '../../../../test/factories.js';
import { apiKeyOf, AlbumID3, ArtistID3, Child, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';
import { subsonicFetch } from '../../../../test/subsonic-answers.js';

const SongAnswer = z.strictObject({ song: Child });
const AlbumAnswer = z.strictObject({ album: AlbumID3.extend({ song: z.array(Child).optional() }) });
const ArtistAnswer = z.strictObject({ artist: ArtistID3.extend({ album: z.array(AlbumID3).optional() }) });

/**
 * Issue 28: setRating (a song's, an album's or an artist's id; 0 clears; 1–5), and the caller's `userRating` on the
 * entries every answer lists, through raw requests (JSON and XML alike) and through the npm `subsonic-api` client.
 */
describeEachDialect('Subsonic ratings (%s)', (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let api: SubsonicApi;
  let otherApi: SubsonicApi;
  let client: SubsonicAPI;
  let songId: number;
  let albumId: number;
  let artistId: number;

  const userRatingOf = async (who: SubsonicApi) => {
    const [song, album, artist] = await Promise.all([
      who.shape('getSong', { id: songId }, SongAnswer),
      who.shape('getAlbum', { id: `al-${albumId}` }, AlbumAnswer),
      who.shape('getArtist', { id: `ar-${artistId}` }, ArtistAnswer),
    ]);
    return { song: song.song.userRating, album: album.album.userRating, artist: artist.artist.userRating };
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    const other = await makeUser(t);
    api = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    otherApi = subsonicApi(t, { apiKey: await apiKeyOf(t, other) });
    artistId = await makeArtist(t, admin, 'Rated Band');
    songId = await makeSong(t, admin, { name: 'Five Stars', artistId });
    const created = await t.as(admin).post('/api/albums', { name: 'Top Marks', artistId });
    expect(created.statusCode, created.body).toBe(201);
    albumId = AlbumSummary.parse(created.json()).id;
    await placeOnAlbum(t, songId, albumId, 1, 1);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    client = new SubsonicAPI({ url: base, auth: { apiKey: await apiKeyOf(t, listener) }, fetch: subsonicFetch() });
  });

  it('sets, changes and clears the caller’s stars on a song, an album and an artist', async () => {
    expect(await userRatingOf(api)).toEqual({ song: undefined, album: undefined, artist: undefined });
    await api.shape('setRating', { id: songId, rating: 5 }, z.strictObject({}));
    await api.shape('setRating', { id: `al-${albumId}`, rating: 4 }, z.strictObject({}));
    await api.shape('setRating', { id: `ar-${artistId}`, rating: 2 }, z.strictObject({}));
    expect(await userRatingOf(api)).toEqual({ song: 5, album: 4, artist: 2 });
    await api.shape('setRating', { id: songId, rating: 1 }, z.strictObject({}));
    await api.shape('setRating', { id: `al-${albumId}`, rating: 0 }, z.strictObject({}));
    expect(await userRatingOf(api)).toEqual({ song: 1, album: undefined, artist: 2 });
    // Another user sees none of them; the web API shows the same stars.
    expect(await userRatingOf(otherApi)).toEqual({ song: undefined, album: undefined, artist: undefined });
    const web = z.object({ rating: z.number().nullable() });
    expect(web.parse((await t.as(listener).get(`/api/songs/${songId}`)).json()).rating).toBe(1);
  });

  it('carries userRating in search3, getStarred2, getAlbumList2 and the album’s songs', async () => {
    await api.shape('setRating', { id: songId, rating: 3 }, z.strictObject({}));
    await api.shape('setRating', { id: `al-${albumId}`, rating: 5 }, z.strictObject({}));
    await api.shape('star', { id: songId, albumId: `al-${albumId}`, artistId: `ar-${artistId}` }, z.strictObject({}));
    const search = z.strictObject({
      searchResult3: z.strictObject({
        artist: z.array(ArtistID3).optional(),
        album: z.array(AlbumID3).optional(),
        song: z.array(Child).optional(),
      }),
    });
    const found = (await api.shape('search3', { query: '' }, search)).searchResult3;
    expect(found.song?.find((s) => s.id === String(songId))?.userRating).toBe(3);
    expect(found.album?.find((a) => a.id === `al-${albumId}`)?.userRating).toBe(5);
    expect(found.artist?.find((a) => a.id === `ar-${artistId}`)?.userRating).toBe(2);
    const starred = z.strictObject({
      starred2: z.strictObject({
        artist: z.array(ArtistID3).optional(),
        album: z.array(AlbumID3).optional(),
        song: z.array(Child).optional(),
      }),
    });
    const stars = (await api.shape('getStarred2', {}, starred)).starred2;
    expect(stars.song?.map((s) => s.userRating)).toEqual([3]);
    expect(stars.album?.map((a) => a.userRating)).toEqual([5]);
    const list = z.strictObject({ albumList2: z.strictObject({ album: z.array(AlbumID3).optional() }) });
    const highest = (await api.shape('getAlbumList2', { type: 'highest' }, list)).albumList2.album ?? [];
    expect(highest.map((a) => [a.name, a.userRating])).toEqual([['Top Marks', 5]]);
    const other = (await otherApi.shape('getAlbumList2', { type: 'highest' }, list)).albumList2.album ?? [];
    expect(other).toEqual([]);
    const album = await api.shape('getAlbum', { id: `al-${albumId}` }, AlbumAnswer);
    expect(album.album.song?.map((s) => s.userRating)).toEqual([3]);
    // The artist index (getArtists), read at once for the whole index.
    const index = z.strictObject({
      artists: z.strictObject({
        ignoredArticles: z.string(),
        index: z.array(z.strictObject({ name: z.string(), artist: z.array(ArtistID3) })).optional(),
      }),
    });
    const artists = (await api.shape('getArtists', {}, index)).artists.index?.flatMap((letter) => letter.artist);
    expect(artists?.find((a) => a.id === `ar-${artistId}`)?.userRating).toBe(2);
    const theirs = (await otherApi.shape('getArtists', {}, index)).artists.index?.flatMap((letter) => letter.artist);
    expect(theirs?.find((a) => a.id === `ar-${artistId}`)?.userRating).toBeUndefined();
  });

  describe('errors', () => {
    it('10 without id or rating; 0 for a rating that is no whole number from 0 to 5', async () => {
      await api.error('setRating', { rating: 3 }, SubsonicErrorCodes.missingParameter);
      await api.error('setRating', { id: songId }, SubsonicErrorCodes.missingParameter);
      for (const rating of ['6', '-1', '2.5', 'three', '10', '05x']) {
        const message = await api.error('setRating', { id: songId, rating }, SubsonicErrorCodes.generic);
        expect(message).toBe(SubsonicMessages.ratingRange);
      }
      // Nothing changed.
      expect((await api.shape('getSong', { id: songId }, SongAnswer)).song.userRating).toBe(3);
    });

    it('70 for an id that names nothing, or a playlist', async () => {
      for (const id of ['999999', 'al-999999', 'ar-999999', 'pl-1', 'nonsense']) {
        await api.error('setRating', { id, rating: 3 }, SubsonicErrorCodes.notFound);
      }
    });
  });

  it('through the npm subsonic-api client: setRating, then getSong and getAlbum show the stars', async () => {
    await client.setRating({ id: String(songId), rating: 4 });
    await client.setRating({ id: `al-${albumId}`, rating: 2 });
    expect((await client.getSong({ id: String(songId) })).song.userRating).toBe(4);
    expect((await client.getAlbum({ id: `al-${albumId}` })).album.userRating).toBe(2);
    await client.setRating({ id: String(songId), rating: 0 });
    expect((await client.getSong({ id: String(songId) })).song.userRating).toBeUndefined();
    // The client types 0–5; an app built otherwise sends 7.
    const refused = (await client.setRating({ id: String(songId), rating: 7 as 5 })) as unknown as {
      status: string;
      error?: { code: number };
    };
    expect(refused.status).toBe('failed');
    expect(refused.error?.code).toBe(SubsonicErrorCodes.generic);
  });
});
