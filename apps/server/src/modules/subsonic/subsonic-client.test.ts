import type { AddressInfo } from 'node:net';
import { CreatedApiKey, RecentPlaysResponse, Song } from '@tonearm/contract';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import {
  makeAdmin,
  makeArtist,
  makePlaylist,
  makeSong,
  makeUser,
  placeOnAlbum,
  type TestUser,
} from '../../../test/factories.js';
import { picture, toneWav } from '../../../test/media.js';
import { PCM_RATE, decodePcm } from '../../../test/ffmpeg.js';
import { subsonicFetch } from '../../../test/subsonic-answers.js';

const checkedFetch = subsonicFetch();

/**
 * Issue 13 through a real Subsonic client library from the npm registry (`subsonic-api`), over real HTTP: what an app
 * does, with the library's own token authentication (u+t+s with a fresh salt per call), API keys, and formPost.
 */
describeEachDialect('a Subsonic client library against Tonearm (%s)', (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let premium: TestUser;
  let other: TestUser;
  let base: string;
  let artistId: number;
  let albumId: number;
  let songIds: number[];
  let audio: Buffer;
  let appPassword: string;
  let apiKey: string;

  // Every answer the library receives is checked against the OpenSubsonic schemas (test/subsonic-answers.ts).
  const client = (auth: { username: string; password: string } | { apiKey: string }, extra = {}) =>
    new SubsonicAPI({ url: base, auth, fetch: checkedFetch, ...extra });
  const appPasswordOf = async (user: TestUser) => {
    const response = await t.as(user).post(`/api/users/${user.id}/subsonic-password`);
    expect(response.statusCode, response.body).toBe(201);
    return z.object({ password: z.string().min(16) }).parse(response.json()).password;
  };
  const listenerApp = () => client({ username: listener.username, password: appPassword });
  const failed = (answer: { status: string; error?: { code: number } }) => answer.error?.code;

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    premium = await makeUser(t, { premium: true });
    other = await makeUser(t);
    artistId = await makeArtist(t, admin, 'Client Library Band');
    audio = toneWav(330, 2);
    songIds = [
      await makeSong(t, admin, { name: 'Lantern Waltz', artistId, audio, cover: await picture(5, 'jpeg', 700) }),
      await makeSong(t, admin, { name: 'Harbour Lights', artistId }),
    ];
    const album = await t.db
      .insertInto('albums')
      .values({
        name: 'Night Ferry',
        artist_id: artistId,
        year: 2021,
        image_key: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    albumId = album.id;
    for (const [index, songId] of songIds.entries()) await placeOnAlbum(t, songId, albumId, 1, index + 1);
    appPassword = await appPasswordOf(listener);
    apiKey = CreatedApiKey.parse(
      (await t.as(listener).post(`/api/users/${listener.id}/api-keys`, { name: 'Phone' })).json(),
    ).key;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  describe('every way of signing in, and a wrong one for each', () => {
    it('the app password as the md5 token (the library salts every call), by GET and by formPost', async () => {
      expect((await listenerApp().ping()).status).toBe('ok');
      const posted = client({ username: listener.username, password: appPassword }, { post: true });
      expect((await posted.ping()).status).toBe('ok');
      expect(failed(await client({ username: listener.username, password: 'wrong-password' }).ping())).toBe(40);
      expect(failed(await client({ username: 'nobody-here', password: appPassword }).ping())).toBe(40);
    });

    it('the account password does not work: it is kept only as a hash', async () => {
      expect(
        failed(await client({ username: listener.username, password: 'correct horse battery staple' }).ping()),
      ).toBe(40);
    });

    it('the app password in plain and enc: form (u+p)', async () => {
      const call = (p: string) =>
        `${base}/rest/ping?f=json&u=${encodeURIComponent(listener.username)}&p=${encodeURIComponent(p)}`;
      const status = async (p: string) =>
        (
          (await (await checkedFetch(call(p))).json()) as {
            'subsonic-response': { status: string; error?: { code: number } };
          }
        )['subsonic-response'];
      expect((await status(appPassword)).status).toBe('ok');
      expect((await status(`enc:${Buffer.from(appPassword, 'utf8').toString('hex')}`)).status).toBe('ok');
      expect((await status('wrong')).error?.code).toBe(40);
      expect((await status(`enc:${Buffer.from('wrong', 'utf8').toString('hex')}`)).error?.code).toBe(40);
    });

    it('an API key, and a revoked or wrong one', async () => {
      expect((await client({ apiKey }).ping()).status).toBe('ok');
      expect(failed(await client({ apiKey: `${apiKey}x` }).ping())).toBe(44);
      const made = CreatedApiKey.parse(
        (await t.as(listener).post(`/api/users/${listener.id}/api-keys`, { name: 'Old' })).json(),
      );
      expect((await client({ apiKey: made.key }).ping()).status).toBe('ok');
      expect((await t.as(listener).delete(`/api/users/${listener.id}/api-keys/${made.id}`)).statusCode).toBe(204);
      expect(failed(await client({ apiKey: made.key }).ping())).toBe(44);
    });

    it('a revoked app password stops working', async () => {
      const password = await appPasswordOf(other);
      const app = client({ username: other.username, password });
      expect((await app.ping()).status).toBe('ok');
      expect((await t.as(other).delete(`/api/users/${other.id}/subsonic-password`)).statusCode).toBe(204);
      expect(failed(await app.ping())).toBe(40);
    });
  });

  describe('browse and search', () => {
    it('walks artists → artist → album → songs, and finds a song by a word of its title', async () => {
      const app = listenerApp();
      const { artists } = await app.getArtists();
      const listed = artists.index?.flatMap((index) => index.artist ?? []) ?? [];
      expect(listed.map((artist) => artist.name)).toContain('Client Library Band');
      const { artist } = await app.getArtist({ id: `ar-${artistId}` });
      expect(artist.album?.map((album) => album.name)).toEqual(['Night Ferry']);
      const { album } = await app.getAlbum({ id: `al-${albumId}` });
      expect(album.song?.map((song) => song.title)).toEqual(['Lantern Waltz', 'Harbour Lights']);
      expect(album.song?.map((song) => song.track)).toEqual([1, 2]);
      const { albumList2 } = await app.getAlbumList2({ type: 'newest', size: 50 });
      expect(albumList2.album?.map((entry) => entry.id)).toContain(`al-${albumId}`);
      const { searchResult3 } = await app.search3({ query: 'lantern' });
      expect(searchResult3.song?.map((song) => song.title)).toEqual(['Lantern Waltz']);
    });
  });

  describe('stars', () => {
    it("star is the web app's like, and unstar takes it back", async () => {
      const app = listenerApp();
      const id = String(songIds[1]);
      expect((await app.star({ id, albumId: `al-${albumId}`, artistId: `ar-${artistId}` })).status).toBe('ok');
      const { starred2 } = await app.getStarred2();
      expect(starred2.song?.map((song) => song.id)).toEqual([id]);
      expect(starred2.album?.map((album) => album.id)).toEqual([`al-${albumId}`]);
      expect(starred2.artist?.map((artist) => artist.id)).toEqual([`ar-${artistId}`]);
      const liked = await t.as(listener).json('/api/songs/liked', z.array(Song));
      expect(liked.map((song) => song.id)).toEqual([songIds[1]]);
      await app.unstar({ id, albumId: `al-${albumId}`, artistId: `ar-${artistId}` });
      const after = (await app.getStarred2()).starred2;
      expect([...(after.song ?? []), ...(after.album ?? []), ...(after.artist ?? [])]).toEqual([]);
      expect(await t.as(listener).json('/api/songs/liked', z.array(Song))).toEqual([]);
    });
  });

  describe('playlists', () => {
    it("creates, reads, changes and deletes a playlist; another user's private playlist does not exist", async () => {
      const app = listenerApp();
      const ids = songIds.map(String);
      const created = await app.createPlaylist({ name: 'Road Trip', songId: ids });
      expect(created.status).toBe('ok');
      const playlistId = created.playlist.id;
      expect(created.playlist.entry?.map((song) => song.id)).toEqual(ids);
      await app.updatePlaylist({ playlistId, name: 'Road Trip II', songIndexToRemove: [0] });
      const { playlist } = await app.getPlaylist({ id: playlistId });
      expect(playlist.name).toBe('Road Trip II');
      expect(playlist.entry?.map((song) => song.id)).toEqual([ids[1]]);
      const { playlists } = await app.getPlaylists();
      expect(playlists.playlist?.map((entry) => entry.name)).toContain('Road Trip II');
      expect((await app.deletePlaylist({ id: playlistId })).status).toBe('ok');
      expect(failed(await app.getPlaylist({ id: playlistId }))).toBe(70);

      const secret = await makePlaylist(t, other, { name: 'Secret Mix', isPublic: false });
      expect(failed(await app.getPlaylist({ id: String(secret.id) }))).toBe(70);
      expect(failed(await app.deletePlaylist({ id: String(secret.id) }))).toBe(70);
      const open = await makePlaylist(t, other, { name: 'Open Mix', isPublic: true });
      expect((await app.getPlaylist({ id: String(open.id) })).playlist.name).toBe('Open Mix');
    });
  });

  describe('scrobble and media', () => {
    it("a scrobble is a play in the web app's recent list", async () => {
      const app = listenerApp();
      expect((await app.scrobble({ id: String(songIds[0]), submission: true })).status).toBe('ok');
      const recent = await t.as(listener).json('/api/plays/recent', RecentPlaysResponse);
      expect(recent.map((play) => play.songId)).toContain(songIds[0]);
    });

    it('reportPlayback (playbackReport) shows the playback in now playing and counts its play once', async () => {
      const app = listenerApp();
      const id = String(songIds[0]);
      const extensions = (await app.getOpenSubsonicExtensions()).openSubsonicExtensions.map((item) => item.name);
      expect(extensions).toEqual([
        'formPost',
        'apiKeyAuthentication',
        'songLyrics',
        'transcodeOffset',
        'playbackReport',
        'indexBasedQueue',
        'topSongsByArtistId',
        'sonicSimilarity',
      ]);
      const plays = async () =>
        (await t.db.selectFrom('songs').select('play_count').where('id', '=', Number(id)).executeTakeFirstOrThrow())
          .play_count;
      const before = await plays();
      expect(
        (await app.reportPlayback({ mediaId: id, mediaType: 'song', positionMs: 0, state: 'starting' })).status,
      ).toBe('ok');
      await app.reportPlayback({
        mediaId: id,
        mediaType: 'song',
        positionMs: 700,
        state: 'paused',
        playbackRate: 1.25,
      });
      const { nowPlaying } = await client({ apiKey }).getNowPlaying();
      expect(nowPlaying.entry?.find((entry) => entry.id === id)).toMatchObject({
        username: listener.username,
        state: 'paused',
        positionMs: 700,
        playbackRate: 1.25,
      });
      expect(await plays()).toBe(before);
      // The song is 2 s long: a report at its middle counts the play, once.
      await app.reportPlayback({ mediaId: id, mediaType: 'song', positionMs: 1000, state: 'playing' });
      await app.reportPlayback({ mediaId: id, mediaType: 'song', positionMs: 2000, state: 'stopped' });
      expect(await plays()).toBe(before + 1);
      expect(
        failed(await app.reportPlayback({ mediaId: 'al-1', mediaType: 'song', positionMs: 0, state: 'playing' })),
      ).toBe(70);
    });

    it('bookmarks a song, lists and deletes the bookmark', async () => {
      const app = listenerApp();
      const id = String(songIds[0]);
      expect((await app.createBookmark({ id, position: 1500, comment: 'Here' })).status).toBe('ok');
      const { bookmarks } = await app.getBookmarks();
      expect(bookmarks.bookmark?.map((mark) => [mark.entry.id, mark.position, mark.comment])).toEqual([
        [id, 1500, 'Here'],
      ]);
      expect((await app.deleteBookmark({ id })).status).toBe('ok');
      expect((await app.getBookmarks()).bookmarks.bookmark ?? []).toEqual([]);
      expect(failed(await app.deleteBookmark({ id }))).toBe(70);
    });

    it('getArtistInfo and getAlbumInfo answer the pictures as URLs of this server', async () => {
      const app = listenerApp();
      const { artistInfo } = await app.getArtistInfo({ id: `ar-${artistId}` });
      expect(artistInfo).toEqual({});
      const { albumInfo } = await app.getAlbumInfo2({ id: `al-${albumId}` });
      // The album has no cover: its first track's picture.
      expect(albumInfo.largeImageUrl).toMatch(new RegExp(`^${base}/media/images/[a-z0-9]+\\.[a-z]+\\?w=640$`));
      expect((await app.getAlbumInfo({ id: String(songIds[0]) })).albumInfo).toEqual(albumInfo);
    });

    it('stream starts at timeOffset (transcodeOffset)', async () => {
      const app = listenerApp();
      const whole = await app.stream({ id: String(songIds[0]), format: 'mp3' });
      const late = await app.stream({ id: String(songIds[0]), format: 'mp3', timeOffset: 1 });
      expect(late.headers.get('content-type')).toBe('audio/mpeg');
      const seconds = async (response: Response) =>
        (await decodePcm(Buffer.from(await response.arrayBuffer()))).length / PCM_RATE;
      expect(await seconds(whole)).toBeGreaterThan(1.9);
      const fromOne = await seconds(late);
      expect(fromOne).toBeGreaterThan(0.8);
      expect(fromOne).toBeLessThan(1.3);
    });

    it('streams the original bytes, and a Range of them', async () => {
      const whole = await listenerApp().stream({ id: String(songIds[0]) });
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(audio)).toBe(true);
      const ranged = client(
        { username: listener.username, password: appPassword },
        {
          fetch: (url: string | URL | Request, init?: RequestInit) =>
            checkedFetch(url, {
              ...init,
              headers: { ...(init?.headers as Record<string, string>), range: 'bytes=10-19' },
            }),
        },
      );
      const part = await ranged.stream({ id: String(songIds[0]) });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 10-19/${audio.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(10, 20))).toBe(true);
    });

    it('download is refused to a listener without premium (50) and allowed to premium and admins', async () => {
      const refused = await listenerApp().download({ id: String(songIds[0]) });
      const answer = (await refused.json()) as { 'subsonic-response': { status: string; error?: { code: number } } };
      expect(answer['subsonic-response'].error?.code).toBe(50);
      for (const user of [premium, admin]) {
        const password = await appPasswordOf(user);
        const file = await client({ username: user.username, password }).download({ id: String(songIds[0]) });
        expect(file.status).toBe(200);
        expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
        expect(Buffer.from(await file.arrayBuffer()).equals(audio)).toBe(true);
      }
    });

    it("getCoverArt answers the song's picture at the size asked", async () => {
      const cover = await listenerApp().getCoverArt({ id: String(songIds[0]), size: 300 });
      expect(cover.status).toBe(200);
      expect(cover.headers.get('content-type')).toMatch(/^image\//);
      expect((await cover.arrayBuffer()).byteLength).toBeGreaterThan(100);
    });
  });
});
