import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AlbumPage,
  Artist,
  Library,
  LibraryMessages,
  SearchResponse,
  Song,
  SongPage,
  SongsDataResponse,
} from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../../test/subsonic.js';

requireFfmpeg();

const SongList = z.array(Song);
const ArtistList = z.array(Artist);

/** Two libraries: "Open" (everyone's, the first) and "Private" (a further one: administrators' until chosen). */
async function makeFolders(base: string): Promise<{ open: string; closed: string }> {
  const open = path.join(base, 'Open');
  const closed = path.join(base, 'Private');
  await mkdir(path.join(open, 'Ann Arbor'), { recursive: true });
  await mkdir(path.join(closed, 'Secret Band', 'Hidden Album'), { recursive: true });
  await encodeAudio(path.join(open, 'Ann Arbor', 'Dawn.mp3'), 'mp3', {
    tags: { title: 'Dawn', artist: 'Ann Arbor feat. Bo Ray', album: 'First Light', genre: 'Rock' },
    frequency: 330,
  });
  for (const [index, title] of ['Whisper', 'Murmur'].entries()) {
    await encodeAudio(path.join(closed, 'Secret Band', 'Hidden Album', `0${String(index + 1)} ${title}.mp3`), 'mp3', {
      tags: { title, artist: 'Secret Band', album: 'Hidden Album', track: String(index + 1), genre: 'Rock' },
      frequency: 440 + index * 110,
    });
  }
  return { open, closed };
}

describeEachDialect('library access (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let member: TestUser;
  let base: string;
  let open: Library;
  let closed: Library;
  /** The private library's songs, as the administrator sees them. */
  let hidden: Song[];

  const add = async (folder: string) => {
    const answer = await t.as(admin).post('/api/libraries', { path: folder });
    expect(answer.statusCode, answer.body).toBe(201);
    await t.composition.services.libraries.settled();
    return Library.parse(answer.json());
  };
  const setAccess = (body: Record<string, unknown>) =>
    t.as(admin).put(`/api/libraries/${String(closed.id)}/access`, body);
  const names = (songs: readonly Song[]) => songs.map((song) => song.name).sort();

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    member = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-access-'));
    const folders = await makeFolders(base);
    open = await add(folders.open);
    closed = await add(folders.closed);
    hidden = (await t.as(admin).json('/api/songs', SongList)).filter((song) => song.artistName === 'Secret Band');
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('makes the first library everyone’s and a further one administrators’ only', () => {
    expect(open).toMatchObject({ everyone: true, members: [] });
    expect(closed).toMatchObject({ everyone: false, members: [] });
    expect(names(hidden)).toEqual(['Murmur', 'Whisper']);
  });

  it('refuses unknown users and anyone but an administrator', async () => {
    const unknown = await setAccess({ everyone: false, memberIds: [member.id, 999_999] });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown.body).message).toBe(LibraryMessages.unknownMember);
    expect((await setAccess({ everyone: 'yes', memberIds: [] })).statusCode).toBe(400);
    const asListener = await t
      .as(listener)
      .put(`/api/libraries/${String(closed.id)}/access`, { everyone: true, memberIds: [] });
    expect(asListener.statusCode).toBe(403);
    expect((await t.as(admin).put('/api/libraries/999999/access', { everyone: true, memberIds: [] })).statusCode).toBe(
      404,
    );
    // Nothing was written by the refusals.
    expect(await t.as(admin).json(`/api/libraries/${String(closed.id)}`, Library)).toMatchObject({
      everyone: false,
      members: [],
    });
  });

  it('hides the library’s songs, albums and artists from every list and search of a user who may not see it', async () => {
    const asListener = t.as(listener);
    expect(names(await asListener.json('/api/songs', SongList))).not.toContain('Whisper');
    expect(names(await asListener.json('/api/songs?limit=50&offset=0', SongList))).not.toContain('Whisper');
    expect(names(await asListener.json('/api/songs?q=whisper', SongList))).toEqual([]);
    const data = await asListener.json('/api/songs/data', SongsDataResponse);
    expect(names(data.songs)).not.toContain('Whisper');
    expect(data.artists.map((artist) => artist.name)).not.toContain('Secret Band');
    expect(data.artists.map((artist) => artist.name)).toContain('Ann Arbor');
    const sorted = ['title', 'artist', 'album', 'genre', 'added', 'duration'].map((order) => `?order=${order}`);
    for (const query of ['', '?order=newest', '?q=murmur', '?genre=Rock', ...sorted, '?order=title&direction=desc']) {
      const page = await asListener.json(`/api/songs/page${query}`, SongPage);
      expect(names(page.items), query).not.toContain('Murmur');
      expect(
        page.items.every((song) => song.artistName !== 'Secret Band'),
        query,
      ).toBe(true);
    }
    const shuffled = await asListener.json('/api/songs/page', SongPage);
    const everything = await t.as(admin).json('/api/songs/page', SongPage);
    expect(shuffled.total).toBe(everything.total - 2);
    const search = await asListener.json('/api/search?q=secret', SearchResponse);
    expect(search.songs).toEqual([]);
    expect(search.artists).toEqual([]);
    const albumSearch = await asListener.json('/api/search?q=hidden', SearchResponse);
    expect(albumSearch.albums).toEqual([]);
    const albums = await asListener.json('/api/albums?limit=100', AlbumPage);
    expect(albums.items.map((album) => album.name)).not.toContain('Hidden Album');
    expect(albums.items.map((album) => album.name)).toContain('First Light');
    const artists = await asListener.json('/artists', ArtistList);
    expect(artists.map((artist) => artist.name)).not.toContain('Secret Band');
    // A limited list counts the artists the listener sees: the hidden one takes no place among the first.
    for (let limit = 1; limit <= artists.length; limit += 1) {
      expect(await asListener.json(`/artists?limit=${String(limit)}`, ArtistList)).toEqual(artists.slice(0, limit));
    }
  });

  it('answers 404 for each of its songs, albums and artists, their audio and every write on them', async () => {
    const asListener = t.as(listener);
    const [song] = hidden;
    if (song === undefined) throw new Error('no hidden song');
    const id = String(song.id);
    const adminSong = await t.as(admin).get(`/api/songs/${id}`);
    expect(adminSong.statusCode).toBe(200);
    expect((await asListener.get(`/api/songs/${id}`)).statusCode).toBe(404);
    expect((await asListener.put(`/api/songs/${id}/like`)).statusCode).toBe(404);
    expect((await asListener.post('/api/plays', { songId: song.id })).statusCode).toBe(404);
    expect((await asListener.get(`/api/albums/${String(song.albumId)}`)).statusCode).toBe(404);
    expect((await asListener.get(`/artists/${String(song.artistId)}`)).statusCode).toBe(404);
    expect((await asListener.get(song.link)).statusCode).toBe(404);
    expect((await t.as(admin).get(song.link)).statusCode).toBe(200);
    const playlist = await asListener.post('/api/playlists', { name: 'Mine', type: 'Mix', isPublic: false });
    expect(playlist.statusCode, playlist.body).toBe(201);
    const playlistId = String(z.object({ id: z.number() }).parse(playlist.json()).id);
    expect((await asListener.put(`/api/playlists/${playlistId}/songs/${id}`)).statusCode).toBe(404);
    const subsonic = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    await subsonic.error('getSong', { id }, 70);
    await subsonic.error('getAlbum', { id: `al-${String(song.albumId)}` }, 70);
    await subsonic.error('stream', { id }, 70);
  });

  it('lists a song under each of its artists, the featured one too, in every order', async () => {
    const artists = await t.as(listener).json('/artists', ArtistList);
    const bo = artists.find((artist) => artist.name === 'Bo Ray');
    expect(bo?.songs).toHaveLength(1);
    const byBo = `artistId=${String(bo?.id)}`;
    const orders = ['newest', 'title', 'artist', 'album', 'genre', 'added', 'duration'];
    for (const url of [`/api/songs/page?${byBo}`, ...orders.map((order) => `/api/songs/page?${byBo}&order=${order}`)]) {
      const page = await t.as(listener).json(url, SongPage);
      expect(names(page.items), url).toEqual(['Dawn']);
      expect(page.total, url).toBe(1);
    }
    expect(names(await t.as(listener).json(`/api/songs?${byBo}`, SongList))).toEqual(['Dawn']);
    expect(names(await t.as(listener).json(`/api/songs?${byBo}&limit=10`, SongList))).toEqual(['Dawn']);
  });

  it('shows everything to its members and administrators, and to everyone once it is everyone’s', async () => {
    const chosen = await setAccess({ everyone: false, memberIds: [member.id, member.id] });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(Library.parse(chosen.json())).toMatchObject({
      everyone: false,
      members: [{ id: member.id, username: member.username }],
    });
    const asMember = t.as(member);
    expect(names(await asMember.json('/api/songs', SongList))).toEqual(expect.arrayContaining(['Murmur', 'Whisper']));
    const [song] = hidden;
    expect((await asMember.get(`/api/songs/${String(song?.id)}`)).statusCode).toBe(200);
    expect((await asMember.get(song?.link ?? '')).statusCode).toBe(200);
    expect((await asMember.put(`/api/songs/${String(song?.id)}/like`)).statusCode).toBe(204);
    expect((await t.as(listener).get(`/api/songs/${String(song?.id)}`)).statusCode).toBe(404);

    // Taken off the list: the member's like stays in the database, but the song is gone for them.
    await setAccess({ everyone: false, memberIds: [] });
    expect((await asMember.get(`/api/songs/${String(song?.id)}`)).statusCode).toBe(404);
    const liked = await asMember.json('/api/songs/liked/page', SongPage);
    expect(liked).toMatchObject({ items: [], total: 0 });

    await setAccess({ everyone: true, memberIds: [] });
    expect(names(await t.as(listener).json('/api/songs', SongList))).toEqual(
      expect.arrayContaining(['Dawn', 'Murmur', 'Whisper']),
    );
    expect((await asMember.json('/api/songs/liked/page', SongPage)).total).toBe(1);
    expect((await t.as(listener).get(`/api/albums/${String(song?.albumId)}`)).statusCode).toBe(200);
  });
});
