import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Album, AlbumPage, Library, SearchResponse, Song } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { AlbumID3, AlbumWithSongsID3, apiKeyOf, Child, subsonicApi } from '../../../test/subsonic.js';

requireFfmpeg();

const SongList = z.array(Song);

/** What an album adds up to, as an answer gives it. */
interface Counts {
  songCount: number;
  durationMs: number;
}

/**
 * One album, "Split Album" by "Split Band", spread over two libraries: two songs in "Open" (everyone's) and three in
 * "Private" (administrators' only). Issue 25: for a listener the private songs do not exist, so they do not count.
 */
async function makeFolders(base: string): Promise<{ open: string; closed: string }> {
  const folders = { open: path.join(base, 'Open'), closed: path.join(base, 'Private') };
  const titles = { open: ['Near', 'Nearer'], closed: ['Far', 'Farther', 'Farthest'] };
  for (const side of ['open', 'closed'] as const) {
    const album = path.join(folders[side], 'Split Band', 'Split Album');
    await mkdir(album, { recursive: true });
    for (const [index, title] of titles[side].entries()) {
      // Lengths unlike each other, so a sum over the wrong songs cannot come out right.
      await encodeAudio(path.join(album, `${title}.mp3`), 'mp3', {
        tags: { title, artist: 'Split Band', album: 'Split Album', genre: 'Rock' },
        seconds: side === 'open' ? 1 + index : 4 + index * 2,
        frequency: 300 + index * 50,
      });
    }
  }
  return folders;
}

describeEachDialect('album counts as the viewer sees them (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let base: string;
  let open: Library;
  let albumId: number;
  const keys = new Map<number, string>();

  const add = async (folder: string) => {
    const answer = await t.as(admin).post('/api/libraries', { path: folder });
    expect(answer.statusCode, answer.body).toBe(201);
    await t.composition.services.libraries.settled();
    return Library.parse(answer.json());
  };
  /** What the songs the user may see add up to (the missing ones left out, as every list leaves them). */
  const expected = async (user: TestUser): Promise<Counts> => {
    const songs = (await t.as(user).json('/api/songs', SongList)).filter((song) => song.albumId === albumId);
    return {
      songCount: songs.length,
      durationMs: songs.reduce((sum, song) => sum + (song.durationMs ?? 0), 0),
    };
  };

  /** The album's counts in every web answer that carries them. */
  const webCounts = async (user: TestUser): Promise<Counts[]> => {
    const as = t.as(user);
    const pick = (page: AlbumPage) => page.items.filter((album) => album.id === albumId);
    const album = await as.json(`/api/albums/${String(albumId)}`, Album);
    const lists = [
      ...pick(await as.json('/api/albums?limit=100', AlbumPage)),
      ...pick(await as.json('/api/albums?sort=recent&limit=100', AlbumPage)),
      ...pick(await as.json('/api/albums?q=split', AlbumPage)),
      ...(await as.json('/api/search?q=split', SearchResponse)).albums.filter((found) => found.id === albumId),
    ];
    expect(lists).toHaveLength(4);
    return [
      { songCount: album.songs.length, durationMs: album.durationMs },
      ...lists.map(({ songCount, durationMs }) => ({ songCount, durationMs })),
    ];
  };

  /** The album's counts in every Subsonic answer that carries them (durations in whole seconds). */
  const subsonicCounts = async (user: TestUser): Promise<{ songCount?: number; duration: number }[]> => {
    const key = keys.get(user.id) ?? (await apiKeyOf(t, user));
    keys.set(user.id, key);
    const api = subsonicApi(t, { apiKey: key });
    const id = `al-${String(albumId)}`;
    const { album } = await api.shape('getAlbum', { id }, z.object({ album: AlbumWithSongsID3 }));
    const { albumList2 } = await api.shape(
      'getAlbumList2',
      { type: 'alphabeticalByName', size: 500 },
      z.object({ albumList2: z.object({ album: z.array(AlbumID3).optional() }) }),
    );
    const { albumList } = await api.shape(
      'getAlbumList',
      { type: 'alphabeticalByName', size: 500 },
      z.object({ albumList: z.object({ album: z.array(Child).optional() }) }),
    );
    const { artist } = await api.shape(
      'getArtist',
      { id: album.artistId ?? '' },
      z.object({ artist: z.object({ album: z.array(AlbumID3).optional() }) }),
    );
    const searched = z.object({ searchResult3: z.object({ album: z.array(AlbumID3).optional() }) });
    const everything = await api.shape(
      'search3',
      { query: '', albumCount: 500, songCount: 0, artistCount: 0 },
      searched,
    );
    const byName = await api.shape('search3', { query: 'split', songCount: 0, artistCount: 0 }, searched);
    expect((await api.json('star', { albumId: id })).status).toBe('ok');
    const { starred2 } = await api.shape(
      'getStarred2',
      {},
      z.object({ starred2: z.object({ album: z.array(AlbumID3).optional() }) }),
    );
    expect((await api.json('unstar', { albumId: id })).status).toBe('ok');
    const found = [
      ...(albumList2.album ?? []),
      ...(artist.album ?? []),
      ...(everything.searchResult3.album ?? []),
      ...(byName.searchResult3.album ?? []),
      ...(starred2.album ?? []),
    ].filter((entry) => entry.id === id);
    expect(found).toHaveLength(5);
    const children = (albumList.album ?? []).filter((entry) => entry.id === id);
    expect(children).toHaveLength(1);
    return [
      { songCount: album.songCount, duration: album.duration },
      ...found.map(({ songCount, duration }) => ({ songCount, duration })),
      ...children.map(({ duration }) => ({ duration: duration ?? 0 })),
    ];
  };

  /** Checks every answer of the user against what the songs they see add up to. */
  const expectCounts = async (user: TestUser, songCount: number) => {
    const want = await expected(user);
    expect(want.songCount).toBe(songCount);
    for (const counts of await webCounts(user)) expect(counts).toEqual(want);
    const seconds = Math.round(want.durationMs / 1000);
    for (const counts of await subsonicCounts(user)) {
      expect(counts.songCount ?? songCount).toBe(songCount);
      // Subsonic's seconds: each answer rounds the sum once.
      expect(Math.abs(counts.duration - seconds)).toBeLessThanOrEqual(1);
    }
    return want;
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-album-counts-'));
    const folders = await makeFolders(base);
    open = await add(folders.open);
    await add(folders.closed);
    const songs = await t.as(admin).json('/api/songs', SongList);
    const ids = new Set(songs.filter((song) => song.albumName === 'Split Album').map((song) => song.albumId));
    // The scans of both libraries put the five songs on one album (same album artist, same name).
    expect(ids.size).toBe(1);
    albumId = [...ids][0] ?? 0;
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('counts only the songs of the libraries the viewer sees, whoever asked first', async () => {
    // The administrator first: the rows kept in memory for them must not be the listener's.
    const all = await expectCounts(admin, 5);
    const seen = await expectCounts(listener, 2);
    expect(seen.durationMs).toBeLessThan(all.durationMs);
    // And again the other way round, from what each one's first answers left in memory.
    expect(await expectCounts(listener, 2)).toEqual(seen);
    expect(await expectCounts(admin, 5)).toEqual(all);
  });

  it('leaves out a song whose file is missing', async () => {
    const before = await expected(listener);
    await rm(path.join(base, 'Open', 'Split Band', 'Split Album', 'Nearer.mp3'));
    const scan = await t.as(admin).post(`/api/libraries/${String(open.id)}/scan`);
    expect(scan.statusCode, scan.body).toBe(200);
    await t.composition.services.libraries.settled();
    const after = await expectCounts(listener, 1);
    expect(after.durationMs).toBeLessThan(before.durationMs);
    await expectCounts(admin, 4);
  });
});
