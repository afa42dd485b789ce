import { GENRES, ServerMessages, Song, SongsDataResponse, UNKNOWN_ARTIST } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertPlaylist, makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { picture, toneWav } from '../../../test/media.js';
import { blobCounts, songCount } from '../../../test/stored.js';

const SongList = z.array(Song);

describeEachDialect('songs API (%s)', (t) => {
  let admin: TestUser;
  let user: TestUser;
  let other: TestUser;

  const get = (url: string, who?: TestUser) => t.as(who).get(url);
  const songs = async (url: string, who: TestUser = user) => {
    const response = await get(url, who);
    expect(response.statusCode, response.body).toBe(200);
    return SongList.parse(response.json());
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    user = await makeUser(t);
    other = await makeUser(t);
  });

  describe('on an empty catalogue', () => {
    it('GET /api/songs/data answers 200 with empty arrays', async () => {
      const response = await get('/api/songs/data', user);
      expect(response.statusCode).toBe(200);
      expect(SongsDataResponse.parse(response.json())).toEqual({ songs: [], artists: [] });
    });

    it('GET /api/songs answers an empty array', async () => {
      expect(await songs('/api/songs')).toEqual([]);
    });
  });

  describe('reads', () => {
    let solId: number;
    let lunaId: number;
    let first: number;
    let second: number;
    let third: number;

    beforeAll(async () => {
      solId = await makeArtist(t, admin, 'Sol Trio');
      lunaId = await makeArtist(t, admin, 'Luna Park');
      first = await makeSong(t, admin, { name: 'Morning Drive', genre: 'Pop', artistId: solId });
      second = await makeSong(t, admin, { name: 'Night Drive', genre: 'Rock', artistId: solId });
      third = await makeSong(t, admin, { name: 'Café Crème', genre: 'Lo-fi', artistId: lunaId });
    });

    it('require a session on every read', async () => {
      for (const url of ['/api/songs', '/api/songs/data', `/api/songs/${first}`, '/api/songs/playlistId/1']) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(401);
        expect(errorOf(response.body).message).toBe(ServerMessages.notAuthenticated);
      }
    });

    it('answer every song as the Song contract, newest first', async () => {
      const list = await songs('/api/songs');
      expect(list.map((s) => s.id)).toEqual([third, second, first]);
      const song = list.find((s) => s.id === first);
      expect(song).toMatchObject({
        name: 'Morning Drive',
        genre: 'Pop',
        artistId: solId,
        artistName: 'Sol Trio',
        likeSong: false,
        playlistIds: [],
      });
      expect(song?.link).toMatch(/^\/media\/audio\/[0-9a-f]{64}\.wav$/);
      expect(song?.imgLink).toMatch(/^\/media\/images\/[0-9a-f]{64}\.png\?w=300$/);
      expect(song?.durationMs).toBe(500);
    });

    it('GET /api/songs/{id} answers one song, 404 for an unknown id, 400 for a bad one', async () => {
      const response = await get(`/api/songs/${second}`, user);
      expect(response.statusCode).toBe(200);
      expect(Song.parse(response.json()).name).toBe('Night Drive');
      const missing = await get('/api/songs/999999', user);
      expect(missing.statusCode).toBe(404);
      expect(errorOf(missing.body).code).toBe('not-found');
      expect((await get('/api/songs/abc', user)).statusCode).toBe(400);
    });

    it('GET /api/songs/data answers songs and artists together', async () => {
      const data = SongsDataResponse.parse((await get('/api/songs/data', user)).json());
      expect(data.songs.map((s) => s.id).sort()).toEqual([first, second, third].sort());
      expect(data.artists.map((a) => a.name)).toEqual(['Luna Park', 'Sol Trio']);
      expect(data.artists.find((a) => a.id === solId)?.songs).toEqual([first, second]);
    });

    it('filters by genre and artistId, and pages with limit and offset', async () => {
      expect((await songs('/api/songs?genre=Rock')).map((s) => s.id)).toEqual([second]);
      expect((await songs(`/api/songs?artistId=${solId}`)).map((s) => s.id)).toEqual([second, first]);
      expect((await songs('/api/songs?limit=2')).map((s) => s.id)).toEqual([third, second]);
      expect((await songs('/api/songs?limit=2&offset=2')).map((s) => s.id)).toEqual([first]);
      expect((await songs('/api/songs?offset=1')).map((s) => s.id)).toEqual([second, first]);
      expect((await get('/api/songs?limit=0', user)).statusCode).toBe(400);
      expect((await get('/api/songs?limit=100000', user)).statusCode).toBe(400);
      expect((await get('/api/songs?offset=-1', user)).statusCode).toBe(400);
    });

    it('q searches names, artists and genres (prefix, accents and case ignored), combined with the filters', async () => {
      expect((await songs('/api/songs?q=drive')).map((s) => s.id).sort()).toEqual([first, second].sort());
      expect((await songs('/api/songs?q=CAFE%20cr')).map((s) => s.id)).toEqual([third]);
      expect((await songs('/api/songs?q=luna')).map((s) => s.id)).toEqual([third]);
      expect((await songs('/api/songs?q=lo-fi')).map((s) => s.id)).toEqual([third]);
      expect((await songs('/api/songs?q=drive&genre=Rock')).map((s) => s.id)).toEqual([second]);
      expect((await songs('/api/songs?q=drive&limit=1')).length).toBe(1);
      expect(await songs('/api/songs?q=nothing-like-this')).toEqual([]);
      expect(await songs('/api/songs?q=%22%27%3B')).toEqual([]);
    });

    it('GET /api/songs/playlistId/{id}: public to all, private to the owner and admins, in playlist order', async () => {
      const privateList = await insertPlaylist(t, {
        ownerId: user.id,
        name: 'Mix',
        isPublic: false,
        songIds: [third, first],
      });
      const publicList = await insertPlaylist(t, { ownerId: user.id, name: 'Mix', isPublic: true, songIds: [second] });

      expect((await songs(`/api/songs/playlistId/${privateList}`, user)).map((s) => s.id)).toEqual([third, first]);
      expect((await songs(`/api/songs/playlistId/${privateList}`, admin)).map((s) => s.id)).toEqual([third, first]);
      // The same 404 as a playlist that does not exist: no existence oracle.
      expect((await get(`/api/songs/playlistId/${privateList}`, other)).statusCode).toBe(404);
      expect((await songs(`/api/songs/playlistId/${publicList}`, other)).map((s) => s.id)).toEqual([second]);
      expect((await get('/api/songs/playlistId/999999', user)).statusCode).toBe(404);

      // playlistIds lists the caller's own playlists holding the song, nobody else's (admins too: theirs).
      const mine = await songs('/api/songs', user);
      expect(mine.find((s) => s.id === first)?.playlistIds).toEqual([privateList]);
      expect(mine.find((s) => s.id === second)?.playlistIds).toEqual([publicList]);
      expect((await songs('/api/songs', admin)).every((s) => s.playlistIds.length === 0)).toBe(true);
      expect((await songs('/api/songs', other)).every((s) => s.playlistIds.length === 0)).toBe(true);
    });
  });

  describe('writes', () => {
    let artistId: number;

    beforeAll(async () => {
      artistId = await makeArtist(t, admin, 'Writers Block');
    });

    const postSong = async (who: TestUser | undefined, frequency: number) =>
      t.as(who).form('POST', '/api/songs', {
        name: 'Fresh Tune',
        genre: 'Folk',
        artistId: String(artistId),
        songFile: { data: toneWav(frequency), filename: 'fresh.wav', type: 'audio/wav' },
        imageFile: { data: await picture(frequency), filename: 'fresh.png', type: 'image/png' },
      });

    it('POST /api/songs: admin → 201 "Song added successfully" as text/plain', async () => {
      const before = await songCount(t.db);
      const response = await postSong(admin, 1001);
      expect(response.statusCode).toBe(201);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toBe(ServerMessages.songAdded);
      expect(await songCount(t.db)).toBe(before + 1);
    });

    it('POST /api/songs: anonymous → 401, user → 403, nothing stored', async () => {
      const before = { rows: await songCount(t.db), blobs: await blobCounts(t.dataDir) };
      const anonymous = await postSong(undefined, 1002);
      expect(anonymous.statusCode).toBe(401);
      const listener = await postSong(user, 1003);
      expect(listener.statusCode).toBe(403);
      expect(errorOf(listener.body).message).toBe(ServerMessages.forbidden);
      expect(await songCount(t.db)).toBe(before.rows);
      expect(await blobCounts(t.dataDir)).toEqual(before.blobs);
    });

    it('PUT /api/songs/{id}: admin → "Song updated successfully"; fields change, files are optional', async () => {
      const id = await makeSong(t, admin, { name: 'Draft', artistId });
      const response = await t.as(admin).form('PUT', `/api/songs/${id}`, { name: 'Final Cut', genre: 'Ambient' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toBe(ServerMessages.songUpdated);
      const song = Song.parse((await get(`/api/songs/${id}`, user)).json());
      expect(song).toMatchObject({ name: 'Final Cut', genre: 'Ambient', artistId, artistName: 'Writers Block' });
    });

    it('PUT /api/songs/{id}: moves the song to another artist; an unknown or malformed artistId is 400', async () => {
      const id = await makeSong(t, admin, { name: 'Wanderer', artistId });
      const otherArtist = await makeArtist(t, admin, 'New Home');
      const edit = (artist: string) =>
        t.as(admin).form('PUT', `/api/songs/${id}`, { name: 'Wanderer', genre: 'Folk', artistId: artist });
      expect((await edit(String(otherArtist))).statusCode).toBe(200);
      expect(Song.parse((await get(`/api/songs/${id}`, user)).json())).toMatchObject({
        artistId: otherArtist,
        artistName: 'New Home',
      });
      const unknown = await edit('999999');
      expect(unknown.statusCode).toBe(400);
      expect(errorOf(unknown.body)).toMatchObject({ field: 'artistId', message: ServerMessages.artistNotFound });
      const malformed = await edit('abc');
      expect(malformed.statusCode).toBe(400);
      expect(errorOf(malformed.body)).toMatchObject({ field: 'artistId', message: 'Choose an artist' });
      expect(Song.parse((await get(`/api/songs/${id}`, user)).json()).artistId).toBe(otherArtist);
    });

    it('PUT /api/songs/{id}: anonymous 401, user 403, unknown song 404, bad genre 400', async () => {
      const id = await makeSong(t, admin, { name: 'Keep Me', artistId });
      const change = (who: TestUser | null, url: string) =>
        t.as(who).form('PUT', url, { name: 'Changed', genre: 'Pop' });
      expect((await change(null, `/api/songs/${id}`)).statusCode).toBe(401);
      expect((await change(user, `/api/songs/${id}`)).statusCode).toBe(403);
      const missing = await change(admin, '/api/songs/999999');
      expect(missing.statusCode).toBe(404);
      const badGenre = await t.as(admin).form('PUT', `/api/songs/${id}`, { name: 'Changed', genre: 'Polka' });
      expect(badGenre.statusCode).toBe(400);
      expect(errorOf(badGenre.body)).toMatchObject({ field: 'genre', message: 'Choose a genre from the list' });
      expect(Song.parse((await get(`/api/songs/${id}`, user)).json()).name).toBe('Keep Me');
    });

    it('DELETE /api/songs/{id}: admin → "Song deleted successfully"; anonymous 401, user 403, unknown 404', async () => {
      const id = await makeSong(t, admin, { name: 'Short Lived', artistId });
      const del = (who?: TestUser) => t.as(who).delete(`/api/songs/${id}`);
      expect((await del()).statusCode).toBe(401);
      expect((await del(user)).statusCode).toBe(403);
      const response = await del(admin);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toBe(ServerMessages.songDeleted);
      expect((await get(`/api/songs/${id}`, user)).statusCode).toBe(404);
      expect((await del(admin)).statusCode).toBe(404);
    });

    it('accepts every genre of SPEC §5 and nothing else', async () => {
      const id = await makeSong(t, admin, { name: 'Shape Shifter', artistId });
      for (const genre of GENRES) {
        const response = await t.as(admin).form('PUT', `/api/songs/${id}`, { name: 'Shape Shifter', genre });
        expect(response.statusCode, genre).toBe(200);
      }
      for (const genre of ['pop', 'Jazz', '', 'Hip Hop']) {
        const response = await t.as(admin).form('PUT', `/api/songs/${id}`, { name: 'Shape Shifter', genre });
        expect(response.statusCode, genre).toBe(400);
      }
    });
  });

  it('keeps songs of a deleted artist playable as "Unknown artist"', async () => {
    const artistId = await makeArtist(t, admin, 'Gone Band');
    const id = await makeSong(t, admin, { name: 'Left Behind', artistId });
    const response = await t.as(admin).delete(`/artists/${artistId}`);
    expect(response.statusCode).toBe(204);
    const song = Song.parse((await get(`/api/songs/${id}`, user)).json());
    expect(song).toMatchObject({ artistId: null, artistName: UNKNOWN_ARTIST });
    const audio = await get(song.link, user);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
  });
});
