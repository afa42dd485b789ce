import { SUBSONIC_BINARY_METHODS, SubsonicResponseBodies } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makePlaylist, makeSong, placeOnAlbum, type TestUser } from '../../../test/factories.js';
import { picture } from '../../../test/media.js';
import { apiKeyOf, queryString, type SubsonicQuery } from '../../../test/subsonic.js';
import { checkSubsonicAnswer } from '../../../test/subsonic-answers.js';

/**
 * Every method Tonearm answers, called once in JSON and once in XML with parameters that succeed, each answer checked
 * against its method's OpenSubsonic schema (test/subsonic-answers.ts, on every `/rest/` answer of the tests). The
 * list of calls must name exactly the methods the server has, so a new method cannot go unchecked. What each method
 * does is tested in methods/*.test.ts; this is the shape of a successful answer, in both formats.
 */

/** What the calls need: ids of a small catalogue. */
interface Fixture {
  admin: TestUser;
  artistId: number;
  albumId: number;
  songIds: [number, number];
  /** Two playlists, one for each format's deletePlaylist. */
  doomedPlaylists: [number, number];
  playlistId: number;
}

const FORMATS = ['json', 'xml'] as const;

/** One call per method; `turn` is 0 for the JSON call, 1 for the XML one (writes that can only happen once each). */
const CALLS: Record<string, (f: Fixture, turn: 0 | 1) => SubsonicQuery> = {
  ping: () => ({}),
  getLicense: () => ({}),
  tokenInfo: () => ({}),
  getOpenSubsonicExtensions: () => ({}),
  getLyrics: () => ({ artist: 'Conformance', title: 'Nothing' }),
  getLyricsBySongId: (f) => ({ id: f.songIds[0] }),
  getMusicFolders: () => ({}),
  getIndexes: () => ({}),
  getMusicDirectory: (f) => ({ id: `ar-${f.artistId}` }),
  getGenres: () => ({}),
  getArtists: () => ({}),
  getArtist: (f) => ({ id: `ar-${f.artistId}` }),
  getAlbum: (f) => ({ id: `al-${f.albumId}` }),
  getSong: (f) => ({ id: f.songIds[0] }),
  getArtistInfo: (f) => ({ id: `ar-${f.artistId}` }),
  getArtistInfo2: (f) => ({ id: `ar-${f.artistId}` }),
  getAlbumInfo: (f) => ({ id: `al-${f.albumId}` }),
  getAlbumInfo2: (f) => ({ id: `al-${f.albumId}` }),
  getAlbumList: () => ({ type: 'alphabeticalByName' }),
  getAlbumList2: () => ({ type: 'newest' }),
  getRandomSongs: () => ({ size: 5 }),
  getSongsByGenre: () => ({ genre: 'Rock' }),
  getSimilarSongs: (f) => ({ id: f.songIds[0], count: 5 }),
  getSimilarSongs2: (f) => ({ id: `ar-${f.artistId}` }),
  getTopSongs: () => ({ artist: 'Harbour Lights', count: 3 }),
  getSonicSimilarTracks: (f) => ({ id: f.songIds[0], count: 5 }),
  findSonicPath: (f) => ({ startSongId: f.songIds[0], endSongId: f.songIds[1] }),
  getNowPlaying: () => ({}),
  getStarred: () => ({}),
  getStarred2: () => ({}),
  search2: () => ({ query: 'harbour' }),
  search3: () => ({ query: '' }),
  star: (f) => ({ id: f.songIds[0], albumId: `al-${f.albumId}`, artistId: `ar-${f.artistId}` }),
  unstar: (f) => ({ id: f.songIds[1] }),
  setRating: (f) => ({ id: f.songIds[0], rating: 4 }),
  getPlaylists: () => ({}),
  getPlaylist: (f) => ({ id: `pl-${f.playlistId}` }),
  createPlaylist: (f, turn) => ({ name: `Conformance ${turn}`, songId: f.songIds }),
  updatePlaylist: (f, turn) => ({ playlistId: `pl-${f.playlistId}`, name: `Renamed ${turn}` }),
  deletePlaylist: (f, turn) => ({ id: `pl-${f.doomedPlaylists[turn]}` }),
  stream: (f) => ({ id: f.songIds[0] }),
  download: (f) => ({ id: f.songIds[0] }),
  getCoverArt: (f) => ({ id: f.songIds[0], size: 64 }),
  scrobble: (f) => ({ id: f.songIds[0] }),
  reportPlayback: (f) => ({ mediaId: f.songIds[0], mediaType: 'song', positionMs: 500, state: 'playing' }),
  savePlayQueue: (f) => ({ id: f.songIds, current: f.songIds[1], position: 1200 }),
  getPlayQueue: () => ({}),
  savePlayQueueByIndex: (f) => ({ id: [f.songIds[0], f.songIds[1], f.songIds[0]], currentIndex: 2, position: 900 }),
  getPlayQueueByIndex: () => ({}),
  getBookmarks: () => ({}),
  createBookmark: (f) => ({ id: f.songIds[0], position: 3000, comment: 'Conformance' }),
  // Each format deletes the bookmark made for it (beforeAll marks both songs).
  deleteBookmark: (f, turn) => ({ id: f.songIds[turn] }),
  getUser: (f) => ({ username: f.admin.username }),
  getScanStatus: () => ({}),
  startScan: () => ({}),
};

describeEachDialect('every Subsonic method, in JSON and XML, against the OpenSubsonic schemas (%s)', (t) => {
  let f: Fixture;
  let apiKey: string;

  beforeAll(async () => {
    const admin = await makeAdmin(t);
    apiKey = await apiKeyOf(t, admin);
    const artistId = await makeArtist(t, admin, 'Conformance Band', await picture(61));
    const songIds: [number, number] = [
      await makeSong(t, admin, { name: 'Harbour Lights', genre: 'Rock', artistId }),
      await makeSong(t, admin, { name: 'Night Ferry', genre: 'Rock', artistId }),
    ];
    const album = await t.db
      .insertInto('albums')
      .values({
        name: 'Crossings',
        artist_id: artistId,
        year: 2020,
        image_key: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [index, songId] of songIds.entries()) await placeOnAlbum(t, songId, album.id, 1, index + 1);
    const playlist = async (name: string) => (await makePlaylist(t, admin, { name, isPublic: true })).id;
    f = {
      admin,
      artistId,
      albumId: album.id,
      songIds,
      playlistId: await playlist('Kept'),
      doomedPlaylists: [await playlist('Doomed 1'), await playlist('Doomed 2')],
    };
    for (const songId of songIds) {
      const made = await t
        .as(null)
        .get(`/rest/createBookmark?${queryString({ apiKey, id: songId, position: 1, f: 'json' })}`);
      expect(made.body).toContain('"status":"ok"');
    }
    await t.as(null).get(`/rest/unstar?${queryString({ apiKey, id: songIds[1] })}&f=json`);
  });

  it('has a call for exactly the methods the server answers, and a schema for each that answers the envelope', () => {
    const names = t.composition.services.subsonic.methodNames();
    expect(Object.keys(CALLS).sort()).toEqual([...names].sort());
    const binary: readonly string[] = SUBSONIC_BINARY_METHODS;
    expect(names.filter((name) => !binary.includes(name) && !Object.hasOwn(SubsonicResponseBodies, name))).toEqual([]);
  });

  it('refuses every method but getOpenSubsonicExtensions without credentials (10) or with a wrong key (44)', async () => {
    for (const [method, call] of Object.entries(CALLS)) {
      if (method === 'getOpenSubsonicExtensions') continue;
      for (const [credentials, code] of [
        [{}, 10],
        [{ apiKey: `${apiKey}x` }, 44],
      ] as const) {
        const answer = await t
          .as(null)
          .get(`/rest/${method}?${queryString({ ...credentials, ...call(f, 0), f: 'json' })}`);
        expect(answer.json(), method).toMatchObject({ 'subsonic-response': { status: 'failed', error: { code } } });
      }
    }
  });

  for (const [method, call] of Object.entries(CALLS)) {
    it(`${method} answers its schema in JSON and in XML`, async () => {
      for (const [turn, format] of FORMATS.entries()) {
        const query = { apiKey, ...call(f, turn as 0 | 1), ...(format === 'json' ? { f: 'json' } : {}) };
        const url = `/rest/${method}${turn === 1 ? '.view' : ''}?${queryString(query)}`;
        // t.as() checks the answer against the schema on its way; this says it was a success, in the asked format.
        const response = await t.as(null).get(url);
        const checked = checkSubsonicAnswer({
          url,
          httpMethod: 'GET',
          status: response.statusCode,
          contentType: response.headers['content-type']?.toString(),
          body: response.body,
        });
        const binary: readonly string[] = SUBSONIC_BINARY_METHODS;
        if (binary.includes(method)) expect(checked.format, `${method} in ${format}`).toBe('bytes');
        else {
          expect(checked.format).toBe(format);
          expect(checked.answer?.status, `${method} in ${format}: ${response.body.slice(0, 300)}`).toBe('ok');
        }
      }
    });
  }
});
