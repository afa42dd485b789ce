/**
 * Subsonic over several libraries (issue 25): every method answers from the libraries the caller may see (a hidden
 * item is error 70, exactly like one that does not exist), getMusicFolders lists those libraries and the blob store's
 * songs, and `musicFolderId` narrows every list and search to one of them. Real files in two library folders (made
 * with ffmpeg) and one uploaded song; each answer is checked against the OpenSubsonic schema in JSON and in XML.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Library, SubsonicBookmark } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import {
  AlbumID3,
  ArtistID3,
  Child,
  apiKeyOf,
  subsonicApi,
  type SubsonicApi,
  type SubsonicQuery,
} from '../../../test/subsonic.js';
import { folderId } from './subsonic-ids.js';

requireFfmpeg();

const int = z.number().int();
const IsoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'an ISO 8601 date');

const MusicFolders = z.strictObject({
  musicFolders: z.strictObject({
    musicFolder: z.array(z.strictObject({ id: int, name: z.string().optional() })).optional(),
  }),
});
const ArtistsID3 = z.strictObject({
  artists: z.strictObject({
    ignoredArticles: z.string(),
    index: z.array(z.strictObject({ name: z.string(), artist: z.array(ArtistID3) })).optional(),
  }),
});
const ArtistWithAlbums = z.strictObject({ artist: ArtistID3.extend({ album: z.array(AlbumID3).optional() }) });
const AlbumWithSongs = z.strictObject({ album: AlbumID3.extend({ song: z.array(Child).optional() }) });
const AlbumList = z.strictObject({ albumList: z.strictObject({ album: z.array(Child).optional() }) });
const AlbumList2 = z.strictObject({ albumList2: z.strictObject({ album: z.array(AlbumID3).optional() }) });
const RandomSongs = z.strictObject({ randomSongs: z.strictObject({ song: z.array(Child).optional() }) });
const SongsByGenre = z.strictObject({ songsByGenre: z.strictObject({ song: z.array(Child).optional() }) });
const Genres = z.strictObject({
  genres: z.strictObject({
    genre: z.array(z.strictObject({ value: z.string(), songCount: int, albumCount: int })).optional(),
  }),
});
/** Artist (the folder-based lists: search2, getStarred). */
const Artist = z.strictObject({
  id: z.string(),
  name: z.string(),
  starred: IsoDate.optional(),
  userRating: int.optional(),
});
const Parts = <A extends z.ZodType, B extends z.ZodType>(artist: A, album: B) =>
  z.strictObject({
    artist: z.array(artist).optional(),
    album: z.array(album).optional(),
    song: z.array(Child).optional(),
  });
const SearchResult2 = z.strictObject({ searchResult2: Parts(Artist, Child) });
const SearchResult3 = z.strictObject({ searchResult3: Parts(ArtistID3, AlbumID3) });
const Starred = z.strictObject({ starred: Parts(Artist, Child) });
const Starred2 = z.strictObject({ starred2: Parts(ArtistID3, AlbumID3) });
const PlaylistWithSongs = z.strictObject({
  playlist: z.strictObject({
    id: z.string(),
    name: z.string(),
    owner: z.string().optional(),
    public: z.boolean().optional(),
    songCount: int,
    duration: int,
    created: IsoDate,
    changed: IsoDate,
    coverArt: z.string().optional(),
    entry: z.array(Child).optional(),
  }),
});
const NowPlaying = z.strictObject({
  nowPlaying: z.strictObject({
    entry: z
      .array(Child.extend({ username: z.string(), minutesAgo: int, playerId: int, playerName: z.string().optional() }))
      .optional(),
  }),
});
const PlayQueueAnswer = z.strictObject({
  playQueue: z
    .strictObject({
      current: z.string().optional(),
      position: int.optional(),
      username: z.string(),
      changed: IsoDate,
      changedBy: z.string(),
      entry: z.array(Child).optional(),
    })
    .optional(),
});
const Bookmarks = z.strictObject({ bookmarks: z.strictObject({ bookmark: z.array(SubsonicBookmark).optional() }) });
const UserAnswer = z.object({ user: z.object({ folder: z.array(int).optional() }) });

/** Every album list type, with what it needs. */
const LIST_TYPES: readonly SubsonicQuery[] = [
  { type: 'random', size: 50 },
  { type: 'newest' },
  { type: 'highest' },
  { type: 'frequent' },
  { type: 'recent' },
  { type: 'alphabeticalByName' },
  { type: 'alphabeticalByArtist' },
  { type: 'starred' },
  { type: 'byYear', fromYear: 1900, toYear: 2100 },
  { type: 'byGenre', genre: 'Rock' },
];

/** Two library folders: "Open" (Ann Arbor, First Light, Dawn) and "Private" (Secret Band, Hidden Album: 2 songs). */
async function makeFolders(base: string): Promise<{ open: string; closed: string }> {
  const open = path.join(base, 'Open');
  const closed = path.join(base, 'Private');
  await mkdir(path.join(open, 'Ann Arbor'), { recursive: true });
  await mkdir(path.join(closed, 'Secret Band'), { recursive: true });
  await encodeAudio(path.join(open, 'Ann Arbor', 'Dawn.mp3'), 'mp3', {
    tags: { title: 'Dawn', artist: 'Ann Arbor', album: 'First Light', genre: 'Rock', date: '2001' },
    frequency: 330,
  });
  for (const [index, title] of ['Whisper', 'Murmur'].entries()) {
    await encodeAudio(path.join(closed, 'Secret Band', `0${String(index + 1)} ${title}.mp3`), 'mp3', {
      tags: {
        title,
        artist: 'Secret Band',
        album: 'Hidden Album',
        track: String(index + 1),
        genre: 'Rock',
        date: '2002',
      },
      frequency: 440 + index * 110,
    });
  }
  return { open, closed };
}

/** An ok JSON answer without its envelope. */
function withoutEnvelope(answer: Record<string, unknown>): Record<string, unknown> {
  expect(answer.error).toBeUndefined();
  const envelope = new Set(['status', 'version', 'type', 'serverVersion', 'openSubsonic']);
  return Object.fromEntries(Object.entries(answer).filter(([key]) => !envelope.has(key)));
}

const names = (items: readonly { name?: string; title?: string }[] | undefined) =>
  (items ?? []).map((item) => item.name ?? item.title ?? '').sort();

describeEachDialect('Subsonic over libraries (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let member: TestUser;
  let base: string;
  let open: Library;
  let closed: Library;
  let asAdmin: SubsonicApi;
  let asListener: SubsonicApi;
  let asMember: SubsonicApi;
  /** Subsonic ids of what the test names. */
  const id = { dawn: '', whisper: '', murmur: '', upload: '', hiddenAlbum: '', openAlbum: '', secret: '', ann: '' };
  let uploadArtist = '';
  let playlistId = '';

  const add = async (folder: string) => {
    const answer = await t.as(admin).post('/api/libraries', { path: folder });
    expect(answer.statusCode, answer.body).toBe(201);
    await t.composition.services.libraries.settled();
    return Library.parse(answer.json());
  };
  const setAccess = async (memberIds: number[]) => {
    const answer = await t.as(admin).put(`/api/libraries/${String(closed.id)}/access`, { everyone: false, memberIds });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  /** A write, called once (shape calls twice: JSON, then XML). */
  const write = async (api: SubsonicApi, method: string, query: SubsonicQuery) => {
    const answer = await api.json(method, query);
    expect(answer.error, `${method} failed`).toBeUndefined();
    return answer;
  };
  const bookmarksOf = async (api: SubsonicApi) =>
    (await api.shape('getBookmarks', {}, Bookmarks)).bookmarks.bookmark?.map((mark) => [
      mark.entry.title,
      mark.position,
    ]);
  const artistsOf = async (api: SubsonicApi, query: SubsonicQuery = {}) =>
    names((await api.shape('getArtists', query, ArtistsID3)).artists.index?.flatMap((group) => group.artist));
  /** A read's answer: `shape` (JSON and XML alike) unless its order is random (two calls, two orders). */
  const read = async <T>(api: SubsonicApi, method: string, query: SubsonicQuery, schema: z.ZodType<T>) =>
    query.type === 'random' || method === 'getRandomSongs'
      ? schema.parse(withoutEnvelope(await api.json(method, query)))
      : api.shape(method, query, schema);
  const albumsOf = async (api: SubsonicApi, query: SubsonicQuery) => ({
    id3: names((await read(api, 'getAlbumList2', query, AlbumList2)).albumList2.album),
    child: names((await read(api, 'getAlbumList', query, AlbumList)).albumList.album),
  });
  const songsOf = async (api: SubsonicApi, method: 'getRandomSongs' | 'getSongsByGenre', query: SubsonicQuery) =>
    method === 'getRandomSongs'
      ? names((await read(api, method, { size: 50, ...query }, RandomSongs)).randomSongs.song)
      : names((await read(api, method, { genre: 'Rock', count: 50, ...query }, SongsByGenre)).songsByGenre.song);
  const searchOf = async (api: SubsonicApi, query: SubsonicQuery) => {
    const two = (await api.shape('search2', query, SearchResult2)).searchResult2;
    const three = (await api.shape('search3', query, SearchResult3)).searchResult3;
    const parts = (result: typeof two | typeof three) => ({
      artist: names(result.artist),
      album: names(result.album),
      song: names(result.song),
    });
    expect(parts(two)).toEqual(parts(three));
    return parts(three);
  };
  const starredOf = async (api: SubsonicApi, query: SubsonicQuery = {}) => {
    const one = (await api.shape('getStarred', query, Starred)).starred;
    const two = (await api.shape('getStarred2', query, Starred2)).starred2;
    const parts = (result: typeof one | typeof two) => ({
      artist: names(result.artist),
      album: names(result.album),
      song: names(result.song),
    });
    expect(parts(one)).toEqual(parts(two));
    return parts(two);
  };
  const rockOf = async (api: SubsonicApi, query: SubsonicQuery = {}) => {
    const genres = (await api.shape('getGenres', query, Genres)).genres.genre ?? [];
    const rock = genres.find((genre) => genre.value === 'Rock');
    return rock === undefined ? null : { songs: rock.songCount, albums: rock.albumCount };
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t, { premium: true });
    member = await makeUser(t, { premium: true });
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-subsonic-folders-'));
    const folders = await makeFolders(base);
    open = await add(folders.open);
    closed = await add(folders.closed);
    const stored = await makeArtist(t, admin, 'Stored Singer');
    id.upload = String(await makeSong(t, admin, { name: 'Upload Tune', genre: 'Rock', artistId: stored }));
    uploadArtist = `ar-${String(stored)}`;
    asAdmin = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
    asListener = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    asMember = subsonicApi(t, { apiKey: await apiKeyOf(t, member) });

    const everything = await asAdmin.shape('search3', { query: '', songCount: 50 }, SearchResult3);
    const songId = (title: string) => everything.searchResult3.song?.find((song) => song.title === title);
    id.dawn = songId('Dawn')?.id ?? '';
    id.whisper = songId('Whisper')?.id ?? '';
    id.murmur = songId('Murmur')?.id ?? '';
    id.hiddenAlbum = songId('Whisper')?.albumId ?? '';
    id.openAlbum = songId('Dawn')?.albumId ?? '';
    id.secret = songId('Whisper')?.artistId ?? '';
    id.ann = songId('Dawn')?.artistId ?? '';
    expect(Object.values(id).every((value) => value !== '')).toBe(true);

    // While the listener may see the private library, they star, like, play and put its songs on a playlist...
    await setAccess([listener.id, member.id]);
    for (const api of [asListener, asMember]) {
      await write(api, 'star', { id: [id.dawn, id.whisper, id.upload], albumId: [id.hiddenAlbum, id.openAlbum] });
      await write(api, 'star', { artistId: [id.secret, id.ann, uploadArtist] });
      await write(api, 'scrobble', { id: [id.dawn, id.whisper, id.upload] });
      // Issue 28: ratings, which getAlbumList's `highest` lists.
      for (const rated of [id.hiddenAlbum, id.openAlbum, id.whisper, id.secret]) {
        await write(api, 'setRating', { id: rated, rating: 4 });
      }
    }
    const created = await write(asListener, 'createPlaylist', { name: 'Mixed', songId: [id.dawn, id.whisper] });
    await write(asListener, 'savePlayQueue', { id: [id.dawn, id.whisper], current: id.whisper, position: 5 });
    for (const song of [id.dawn, id.whisper]) await write(asListener, 'createBookmark', { id: song, position: 5000 });
    playlistId = z.object({ playlist: z.object({ id: z.string() }) }).parse(created).playlist.id;
    // ...then they lose sight of it: only the member (and administrators) see it.
    await setAccess([member.id]);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('getMusicFolders lists the libraries each user sees, and the blob store’s songs as folder 0', async () => {
    const folders = async (api: SubsonicApi) =>
      (await api.shape('getMusicFolders', {}, MusicFolders)).musicFolders.musicFolder;
    expect(await folders(asListener)).toEqual([
      { id: 0, name: 'Uploads' },
      { id: open.id, name: open.name },
    ]);
    const all = [
      { id: 0, name: 'Uploads' },
      { id: open.id, name: open.name },
      { id: closed.id, name: closed.name },
    ];
    expect(await folders(asMember)).toEqual(all);
    expect(await folders(asAdmin)).toEqual(all);
    const user = async (api: SubsonicApi, username: string) =>
      (await api.shape('getUser', { username }, UserAnswer)).user.folder;
    expect(await user(asListener, listener.username)).toEqual([0, open.id]);
    expect(await user(asAdmin, listener.username)).toEqual([0, open.id]);
    expect(await user(asAdmin, member.username)).toEqual([0, open.id, closed.id]);
  });

  it('leaves a hidden library’s artists, albums and songs out of every list and search', async () => {
    expect(await artistsOf(asListener)).toEqual(['Ann Arbor', 'Stored Singer']);
    expect(await artistsOf(asMember)).toEqual(['Ann Arbor', 'Secret Band', 'Stored Singer']);
    for (const query of LIST_TYPES) {
      const listed = await albumsOf(asListener, query);
      expect(listed.id3, String(query.type)).not.toContain('Hidden Album');
      if (query.type !== 'random') expect(listed.child, String(query.type)).toEqual(listed.id3);
      if (query.type !== 'newest' && query.type !== 'random') {
        expect((await albumsOf(asMember, query)).id3, String(query.type)).toContain('Hidden Album');
      }
    }
    expect((await albumsOf(asMember, { type: 'newest' })).id3).toContain('Hidden Album');
    expect((await albumsOf(asListener, { type: 'alphabeticalByName' })).id3).toContain('First Light');
    expect(await songsOf(asListener, 'getRandomSongs', {})).toEqual(['Dawn', 'Upload Tune']);
    expect(await songsOf(asMember, 'getRandomSongs', {})).toEqual(['Dawn', 'Murmur', 'Upload Tune', 'Whisper']);
    expect(await songsOf(asListener, 'getSongsByGenre', {})).toEqual(['Dawn', 'Upload Tune']);
    expect(await songsOf(asMember, 'getSongsByGenre', {})).toEqual(['Dawn', 'Murmur', 'Upload Tune', 'Whisper']);
    expect(await rockOf(asListener)).toEqual({ songs: 2, albums: 2 });
    expect(await rockOf(asMember)).toEqual({ songs: 4, albums: 3 });

    for (const query of ['secret', 'whisper', 'hidden']) {
      expect(await searchOf(asListener, { query }), query).toEqual({ artist: [], album: [], song: [] });
    }
    expect(await searchOf(asMember, { query: 'secret' })).toMatchObject({ artist: ['Secret Band'] });
    expect(await searchOf(asMember, { query: 'hidden' })).toMatchObject({ album: ['Hidden Album'] });
    expect(await searchOf(asMember, { query: 'whisper' })).toMatchObject({ song: ['Whisper'] });
    const everything = await searchOf(asListener, { query: '""', songCount: 50, albumCount: 50, artistCount: 50 });
    expect(everything.song).toEqual(['Dawn', 'Upload Tune']);
    expect(everything.artist).toEqual(['Ann Arbor', 'Stored Singer']);
    expect(everything.album).not.toContain('Hidden Album');

    expect(await starredOf(asListener)).toEqual({
      artist: ['Ann Arbor', 'Stored Singer'],
      album: ['First Light'],
      song: ['Dawn', 'Upload Tune'],
    });
    expect(await starredOf(asMember)).toEqual({
      artist: ['Ann Arbor', 'Secret Band', 'Stored Singer'],
      album: ['First Light', 'Hidden Album'],
      song: ['Dawn', 'Upload Tune', 'Whisper'],
    });
    const playlist = (await asListener.shape('getPlaylist', { id: playlistId }, PlaylistWithSongs)).playlist;
    expect(names(playlist.entry)).toEqual(['Dawn']);
    expect(playlist.songCount).toBe(1);
    const seenByAdmin = (await asAdmin.shape('getPlaylist', { id: playlistId }, PlaylistWithSongs)).playlist;
    expect(names(seenByAdmin.entry)).toEqual(['Dawn', 'Whisper']);
    expect(seenByAdmin.songCount).toBe(2);
  });

  it('answers 70 for a hidden artist, album or song, its media, and every write on it', async () => {
    for (const api of [asListener, asMember]) {
      const hidden = api === asListener;
      const call = async (method: string, query: SubsonicQuery) => {
        if (hidden) await api.error(method, query, 70);
        else expect((await api.json(method, query)).status, method).toBe('ok');
      };
      await call('getArtist', { id: id.secret });
      await call('getArtistInfo2', { id: id.secret });
      for (const artistOf of [id.secret, id.hiddenAlbum, id.whisper, folderId(closed.id, '')]) {
        await call('getArtistInfo', { id: artistOf });
      }
      for (const albumOf of [id.hiddenAlbum, id.whisper]) {
        await call('getAlbumInfo', { id: albumOf });
        await call('getAlbumInfo2', { id: albumOf });
      }
      await call('getAlbumInfo', { id: folderId(closed.id, '') });
      await call('getMusicDirectory', { id: id.secret });
      await call('getMusicDirectory', { id: id.hiddenAlbum });
      await call('getAlbum', { id: id.hiddenAlbum });
      await call('getSong', { id: id.whisper });
      if (hidden) {
        for (const method of ['stream', 'download']) await api.error(method, { id: id.whisper }, 70);
      } else {
        expect((await api.raw('stream', { id: id.whisper })).statusCode).toBe(200);
        expect((await api.raw('download', { id: id.whisper })).statusCode).toBe(200);
      }
      for (const target of [id.whisper, id.hiddenAlbum, id.secret]) {
        const cover = await api.raw('getCoverArt', { id: target });
        if (hidden) expect(JSON.parse(cover.body)).toMatchObject({ 'subsonic-response': { error: { code: 70 } } });
      }
    }
    expect(
      (await asListener.shape('getArtist', { id: id.ann }, ArtistWithAlbums)).artist.album?.map((a) => a.name),
    ).toEqual(['First Light']);
    expect(names((await asMember.shape('getAlbum', { id: id.hiddenAlbum }, AlbumWithSongs)).album.song)).toEqual([
      'Murmur',
      'Whisper',
    ]);

    // Writes on a hidden item change nothing: the listener's earlier stars stay where they were.
    const targets: SubsonicQuery[] = [{ id: id.murmur }, { albumId: id.hiddenAlbum }, { artistId: id.secret }];
    for (const query of targets) {
      await asListener.error('star', query, 70);
      await asListener.error('unstar', query, 70);
    }
    await asListener.error('unstar', { id: [id.dawn, id.whisper] }, 70);
    await asListener.error('scrobble', { id: id.murmur }, 70);
    await asListener.error('scrobble', { id: id.murmur, submission: false }, 70);
    await asListener.error('savePlayQueue', { id: [id.dawn, id.murmur] }, 70);
    await asListener.error('createPlaylist', { name: 'Sneaky', songId: [id.dawn, id.murmur] }, 70);
    await asListener.error('updatePlaylist', { playlistId, songIdToAdd: id.murmur }, 70);
    await asListener.error('createBookmark', { id: id.murmur, position: 1 }, 70);
    const report = { mediaId: id.murmur, mediaType: 'song', positionMs: 0, state: 'playing' };
    await asListener.error('reportPlayback', report, 70);
    await asListener.error('createBookmark', { id: id.whisper, position: 1 }, 70);
    await asListener.error('deleteBookmark', { id: id.whisper }, 70);
    for (const hidden of [id.murmur, id.whisper, id.hiddenAlbum, id.secret]) {
      await asListener.error('setRating', { id: hidden, rating: 1 }, 70);
      await asListener.error('setRating', { id: hidden, rating: 0 }, 70);
    }
    await setAccess([listener.id, member.id]);
    // The listener's ratings of the hidden items stayed as they were (4), unchanged by the refused writes.
    const whisper = await asListener.shape(
      'getSong',
      { id: id.whisper },
      z.object({ song: z.object({ userRating: int }) }),
    );
    expect(whisper.song.userRating).toBe(4);
    expect(await starredOf(asListener)).toMatchObject({ song: ['Dawn', 'Upload Tune', 'Whisper'] });
    expect(await bookmarksOf(asListener)).toEqual([
      ['Whisper', 5000],
      ['Dawn', 5000],
    ]);
    await setAccess([member.id]);
  });

  it('keeps the songs the caller cannot see in a playlist they change, by the indexes they were shown', async () => {
    await write(asListener, 'updatePlaylist', { playlistId, songIdToAdd: id.upload });
    // Shown: Dawn (0), Upload Tune (1); Whisper, between them, is not shown.
    await write(asListener, 'updatePlaylist', { playlistId, songIndexToRemove: 0 });
    const seen = async (api: SubsonicApi) =>
      (await api.shape('getPlaylist', { id: playlistId }, PlaylistWithSongs)).playlist.entry?.map((s) => s.title);
    expect(await seen(asListener)).toEqual(['Upload Tune']);
    expect(await seen(asAdmin)).toEqual(['Whisper', 'Upload Tune']);
    await asListener.error('updatePlaylist', { playlistId, songIndexToRemove: 1 }, 70);
    await write(asListener, 'createPlaylist', { playlistId, songId: [id.dawn] });
    expect(await seen(asListener)).toEqual(['Dawn']);
    expect(await seen(asAdmin)).toEqual(['Dawn', 'Whisper']);
  });

  it('getIndexes of folder 0 lists the artists of the blob store’s songs only', async () => {
    const index = JSON.stringify(await asListener.json('getIndexes', { musicFolderId: 0 }));
    expect(index).not.toContain('Secret Band');
    expect(index).not.toContain('Ann Arbor');
    expect(JSON.stringify(await asAdmin.json('getIndexes', { musicFolderId: 0 }))).not.toContain('Secret Band');
  });

  it('getPlayQueue answers the songs of the saved queue the caller still sees', async () => {
    const queue = (await asListener.shape('getPlayQueue', {}, PlayQueueAnswer)).playQueue;
    expect(names(queue?.entry)).toEqual(['Dawn']);
    expect(queue?.current).toBeUndefined();
  });

  it('getBookmarks answers the bookmarks of the songs the caller still sees', async () => {
    expect(await bookmarksOf(asListener)).toEqual([['Dawn', 5000]]);
  });

  it('getNowPlaying shows only the songs the caller sees', async () => {
    await write(asMember, 'scrobble', { id: id.whisper, submission: false, c: 'Phone' });
    const playing = async (api: SubsonicApi) =>
      names((await api.shape('getNowPlaying', {}, NowPlaying)).nowPlaying.entry);
    expect(await playing(asMember)).toEqual(['Whisper']);
    expect(await playing(asListener)).toEqual([]);
  });

  describe('musicFolderId', () => {
    const folders = () => ({ uploads: 0, open: open.id, closed: closed.id });

    it('narrows getArtists, the album lists, random songs, songs by genre and genres to one folder', async () => {
      const { uploads, open: openId, closed: closedId } = folders();
      expect(await artistsOf(asAdmin, { musicFolderId: openId })).toEqual(['Ann Arbor']);
      expect(await artistsOf(asAdmin, { musicFolderId: closedId })).toEqual(['Secret Band']);
      expect(await artistsOf(asAdmin, { musicFolderId: uploads })).toEqual(['Stored Singer']);
      const artists = (await asAdmin.shape('getArtists', { musicFolderId: closedId }, ArtistsID3)).artists.index;
      expect(artists?.[0]?.artist[0]?.albumCount).toBe(1);

      const albumOf = { [openId]: 'First Light', [closedId]: 'Hidden Album' };
      for (const folder of [openId, closedId]) {
        for (const query of LIST_TYPES) {
          const listed = await albumsOf(asMember, { ...query, musicFolderId: folder });
          expect(listed.id3, `${String(query.type)} in ${String(folder)}`).toEqual([albumOf[folder]]);
        }
      }
      for (const query of LIST_TYPES.filter((list) => !['random', 'newest', 'highest'].includes(String(list.type)))) {
        const listed = await albumsOf(asMember, { ...query, musicFolderId: uploads });
        expect(listed.id3, String(query.type)).not.toContain('First Light');
        expect(listed.id3, String(query.type)).not.toContain('Hidden Album');
      }
      expect(await songsOf(asMember, 'getRandomSongs', { musicFolderId: closedId })).toEqual(['Murmur', 'Whisper']);
      expect(await songsOf(asMember, 'getRandomSongs', { musicFolderId: uploads })).toEqual(['Upload Tune']);
      expect(await songsOf(asMember, 'getSongsByGenre', { musicFolderId: openId })).toEqual(['Dawn']);
      expect(await songsOf(asMember, 'getSongsByGenre', { musicFolderId: uploads })).toEqual(['Upload Tune']);
      expect(await rockOf(asMember, { musicFolderId: closedId })).toEqual({ songs: 2, albums: 1 });
      expect(await rockOf(asMember, { musicFolderId: uploads })).toEqual({ songs: 1, albums: 1 });
    });

    it('narrows search2, search3, getStarred and getStarred2 to one folder', async () => {
      const { uploads, open: openId, closed: closedId } = folders();
      const all = { songCount: 50, albumCount: 50, artistCount: 50 };
      expect(await searchOf(asMember, { query: '', musicFolderId: closedId, ...all })).toEqual({
        artist: ['Secret Band'],
        album: ['Hidden Album'],
        song: ['Murmur', 'Whisper'],
      });
      expect(await searchOf(asMember, { query: '', musicFolderId: uploads, ...all })).toMatchObject({
        artist: ['Stored Singer'],
        song: ['Upload Tune'],
      });
      // A query's ranked hits, narrowed the same way.
      expect(await searchOf(asMember, { query: 'dawn', musicFolderId: openId })).toMatchObject({ song: ['Dawn'] });
      expect(await searchOf(asMember, { query: 'dawn', musicFolderId: closedId })).toEqual({
        artist: [],
        album: [],
        song: [],
      });
      expect(await searchOf(asMember, { query: 'ann arbor', musicFolderId: openId })).toMatchObject({
        artist: ['Ann Arbor'],
      });
      expect(await searchOf(asMember, { query: 'ann arbor', musicFolderId: uploads })).toMatchObject({ artist: [] });
      expect(await searchOf(asMember, { query: 'first', musicFolderId: closedId })).toMatchObject({ album: [] });
      expect(await searchOf(asMember, { query: 'first', musicFolderId: openId })).toMatchObject({
        album: ['First Light'],
      });
      expect(await starredOf(asMember, { musicFolderId: closedId })).toEqual({
        artist: ['Secret Band'],
        album: ['Hidden Album'],
        song: ['Whisper'],
      });
      expect(await starredOf(asMember, { musicFolderId: uploads })).toMatchObject({
        artist: ['Stored Singer'],
        song: ['Upload Tune'],
      });
    });

    it('answers 70 for a folder that does not exist or that the caller may not see, 0 for no number', async () => {
      const calls: [string, SubsonicQuery][] = [
        ['getArtists', {}],
        ['getAlbumList', { type: 'newest' }],
        ['getAlbumList2', { type: 'alphabeticalByName' }],
        ['getRandomSongs', {}],
        ['getSongsByGenre', { genre: 'Rock' }],
        ['getGenres', {}],
        ['search2', { query: 'dawn' }],
        ['search3', { query: '' }],
        ['getStarred', {}],
        ['getStarred2', {}],
      ];
      for (const [method, query] of calls) {
        await asListener.error(method, { ...query, musicFolderId: closed.id }, 70);
        await asAdmin.error(method, { ...query, musicFolderId: 999_999 }, 70);
        await asAdmin.error(method, { ...query, musicFolderId: -1 }, 70);
        await asAdmin.error(method, { ...query, musicFolderId: 'first' }, 0);
        expect((await asMember.json(method, { ...query, musicFolderId: closed.id })).status, method).toBe('ok');
      }
    });
  });
});
