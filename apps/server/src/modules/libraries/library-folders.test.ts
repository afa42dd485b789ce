import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Folder, FolderLibraryList, FolderMessages, Library, RequestMessages, ServerMessages } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { Child, apiKeyOf, subsonicApi } from '../../../test/subsonic.js';
import { folderId } from '../subsonic/subsonic-ids.js';

requireFfmpeg();

/** Subsonic's Indexes and Directory as Tonearm fills them over real folders (or artists: albumCount), strict. */
const IndexFolder = z.strictObject({
  id: z.string(),
  name: z.string(),
  coverArt: z.string().optional(),
  albumCount: z.number().int().optional(),
});
const FolderIndexes = z.strictObject({
  indexes: z.strictObject({
    ignoredArticles: z.string(),
    lastModified: z.number().int(),
    index: z.array(z.strictObject({ name: z.string(), artist: z.array(IndexFolder) })).optional(),
    child: z.array(Child).optional(),
  }),
});
const Directory = z.strictObject({
  directory: z.strictObject({
    id: z.string(),
    parent: z.string().optional(),
    name: z.string(),
    child: z.array(Child).optional(),
  }),
});

/** Music/ (everyone's): a loose song, Alpha/ with a song and a subfolder of two, Beta/ with one. Private/: one. */
const MUSIC_FILES: readonly (readonly [string, string])[] = [
  ['Loose.mp3', 'Loose'],
  ['Alpha/Single.mp3', 'Single'],
  ['Alpha/Album One/10 Ten.mp3', 'Ten'],
  ['Alpha/Album One/2 Two.mp3', 'Two'],
  ['Beta/Gone.mp3', 'Gone'],
];

async function writeSongs(root: string, files: readonly (readonly [string, string])[]): Promise<void> {
  for (const [index, [file, title]] of files.entries()) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await encodeAudio(path.join(root, file), 'mp3', {
      tags: { title, artist: 'Folder Band', album: 'Folder Album', genre: 'Rock' },
      frequency: 220 + index * 55,
    });
  }
}

describeEachDialect('library folders (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let member: TestUser;
  let base: string;
  let music: Library;
  let hidden: Library;

  const add = async (folder: string) => {
    const answer = await t.as(admin).post('/api/libraries', { path: folder });
    expect(answer.statusCode, answer.body).toBe(201);
    await t.composition.services.libraries.settled();
    return Library.parse(answer.json());
  };
  const folderUrl = (library: Library, folder: string, extra = '') =>
    `/api/folders/${String(library.id)}?path=${encodeURIComponent(folder)}${extra}`;
  const folderOf = (user: TestUser, library: Library, folder: string, extra = '') =>
    t.as(user).json(folderUrl(library, folder, extra), Folder);
  const songNames = (folder: Folder) => folder.songs.map((song) => song.name);
  const folderNames = (folder: Folder) => folder.folders.map((sub) => [sub.name, sub.path, sub.songCount]);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    member = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-folders-'));
    await writeSongs(path.join(base, 'Music'), MUSIC_FILES);
    await writeSongs(path.join(base, 'Private'), [
      ['Secret/Hush.mp3', 'Hush'],
      ['Secret/Zoë 🎵/Ünder.mp3', 'Under'],
    ]);
    music = await add(path.join(base, 'Music'));
    hidden = await add(path.join(base, 'Private'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('lists the libraries each user sees, with their songs', async () => {
    const asListener = await t.as(listener).json('/api/folders', FolderLibraryList);
    expect(asListener.libraries).toEqual([{ id: music.id, name: 'Music', songCount: 5 }]);
    const asAdmin = await t.as(admin).json('/api/folders', FolderLibraryList);
    expect(asAdmin.libraries).toEqual([
      { id: music.id, name: 'Music', songCount: 5 },
      { id: hidden.id, name: 'Private', songCount: 2 },
    ]);
    expect((await t.as(null).get('/api/folders')).statusCode).toBe(401);
  });

  it('answers a library’s root: its folders with the songs under each, then its own songs', async () => {
    const root = await folderOf(listener, music, '');
    expect(root).toMatchObject({
      libraryId: music.id,
      libraryName: 'Music',
      path: '',
      name: 'Music',
      parent: null,
      folderCount: 2,
      songCount: 1,
      nextCursor: null,
    });
    expect(folderNames(root)).toEqual([
      ['Alpha', 'Alpha', 3],
      ['Beta', 'Beta', 1],
    ]);
    expect(songNames(root)).toEqual(['Loose']);
    // No path at all is the root too.
    expect(await t.as(listener).json(`/api/folders/${String(music.id)}`, Folder)).toEqual(root);
  });

  it('goes down into nested folders, songs in path order with numbers compared as numbers', async () => {
    const alpha = await folderOf(listener, music, 'Alpha');
    expect(alpha).toMatchObject({ path: 'Alpha', name: 'Alpha', parent: '', folderCount: 1, songCount: 1 });
    expect(folderNames(alpha)).toEqual([['Album One', 'Alpha/Album One', 2]]);
    expect(songNames(alpha)).toEqual(['Single']);

    const album = await folderOf(listener, music, 'Alpha/Album One');
    expect(album).toMatchObject({ name: 'Album One', parent: 'Alpha', folders: [], songCount: 2 });
    expect(songNames(album)).toEqual(['Two', 'Ten']);
    // Full Song JSON with the viewer's own marks.
    const [two] = album.songs;
    expect(two).toMatchObject({ artistName: 'Folder Band', available: true, likeSong: false });
    expect((await t.as(listener).put(`/api/songs/${String(two?.id)}/like`)).statusCode).toBe(204);
    expect((await folderOf(listener, music, 'Alpha/Album One')).songs[0]?.likeSong).toBe(true);
    expect((await folderOf(member, music, 'Alpha/Album One')).songs[0]?.likeSong).toBe(false);
  });

  it('pages a folder with a cursor: folders first, then songs', async () => {
    const first = await folderOf(listener, music, '', '&limit=1');
    expect(folderNames(first)).toEqual([['Alpha', 'Alpha', 3]]);
    expect(first.songs).toEqual([]);
    expect(first).toMatchObject({ folderCount: 2, songCount: 1 });
    const cursor = first.nextCursor ?? '';
    expect(cursor).not.toBe('');
    const second = await folderOf(listener, music, '', `&limit=1&cursor=${cursor}`);
    expect(folderNames(second)).toEqual([['Beta', 'Beta', 1]]);
    const third = await folderOf(listener, music, '', `&limit=1&cursor=${second.nextCursor ?? ''}`);
    expect(third.folders).toEqual([]);
    expect(songNames(third)).toEqual(['Loose']);
    expect(third.nextCursor).toBeNull();
    const both = await folderOf(listener, music, '', `&limit=2&cursor=${cursor}`);
    expect([folderNames(both), songNames(both), both.nextCursor]).toEqual([[['Beta', 'Beta', 1]], ['Loose'], null]);

    // A cursor is bound to its folder.
    const elsewhere = await t.as(listener).get(folderUrl(music, 'Alpha', `&cursor=${cursor}`));
    expect(elsewhere.statusCode).toBe(400);
    expect(errorOf(elsewhere.body).message).toBe(RequestMessages.badCursor);
    expect((await t.as(listener).get(folderUrl(music, '', '&limit=0'))).statusCode).toBe(400);
    expect((await t.as(listener).get(folderUrl(music, '', '&limit=501'))).statusCode).toBe(400);
  });

  it('refuses a path that is not a relative folder path (400) and answers 404 for one that names no folder', async () => {
    for (const bad of ['../Music', 'Alpha/../Beta', '/Alpha', 'Alpha/', 'Alpha//Album One', '.', 'Alpha/./x', '..']) {
      const answer = await t.as(listener).get(folderUrl(music, bad));
      expect(answer.statusCode, bad).toBe(400);
      expect(errorOf(answer.body).message, bad).toBe(FolderMessages.badPath);
    }
    expect((await t.as(listener).get(folderUrl(music, 'Alpha\u0000'))).statusCode).toBe(400);
    expect((await t.as(listener).get(folderUrl(music, 'x'.repeat(5000)))).statusCode).toBe(400);
    for (const none of ['Nope', 'alpha', 'Alph', 'Alpha/Single.mp3', 'Alpha/Album One/2 Two.mp3', 'Loose.mp3']) {
      const answer = await t.as(listener).get(folderUrl(music, none));
      expect(answer.statusCode, none).toBe(404);
      expect(errorOf(answer.body).message, none).toBe(ServerMessages.notFound);
    }
    expect((await t.as(listener).get('/api/folders/999999')).statusCode).toBe(404);
    expect((await t.as(listener).get('/api/folders/abc')).statusCode).toBe(400);
  });

  it('answers 404 for a library hidden from the user, and shows it to its members', async () => {
    for (const folder of ['', 'Secret']) {
      const answer = await t.as(listener).get(folderUrl(hidden, folder));
      expect(answer.statusCode, folder).toBe(404);
      expect(errorOf(answer.body).message).toBe(ServerMessages.notFound);
    }
    const secret = await folderOf(admin, hidden, 'Secret');
    expect(songNames(secret)).toEqual(['Hush']);
    // Paths beyond ASCII, an emoji (two UTF-16 units, one character to SQL) among them.
    expect(folderNames(secret)).toEqual([['Zoë 🎵', 'Secret/Zoë 🎵', 1]]);
    expect(songNames(await folderOf(admin, hidden, 'Secret/Zoë 🎵'))).toEqual(['Under']);
    const chosen = await t
      .as(admin)
      .put(`/api/libraries/${String(hidden.id)}/access`, { everyone: false, memberIds: [member.id] });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(songNames(await folderOf(member, hidden, 'Secret'))).toEqual(['Hush']);
    expect((await t.as(member).json('/api/folders', FolderLibraryList)).libraries.map((l) => l.name)).toEqual([
      'Music',
      'Private',
    ]);
    expect((await t.as(listener).get(folderUrl(hidden, 'Secret'))).statusCode).toBe(404);
  });

  describe('Subsonic', () => {
    const api = () => apiKeyOf(t, listener).then((apiKey) => subsonicApi(t, { apiKey }));
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

    it('getIndexes lists the top folders of the libraries the caller sees by letter, and the loose songs', async () => {
      const subsonic = await api();
      const { indexes } = await subsonic.shape('getIndexes', {}, FolderIndexes);
      expect(indexes.index).toEqual([
        { name: 'A', artist: [{ id: folderId(music.id, 'Alpha'), name: 'Alpha' }] },
        { name: 'B', artist: [{ id: folderId(music.id, 'Beta'), name: 'Beta' }] },
      ]);
      expect(indexes.child?.map((child) => [child.title, child.isDir, child.parent, child.path])).toEqual([
        ['Loose', false, folderId(music.id, ''), 'Loose.mp3'],
      ]);
      const one = await subsonic.shape('getIndexes', { musicFolderId: music.id }, FolderIndexes);
      expect(one.indexes).toEqual(indexes);
      // The hidden library is no music folder of theirs; 0 is the blob store's songs, by artist (none here).
      await subsonic.error('getIndexes', { musicFolderId: hidden.id }, 70);
      await subsonic.error('getIndexes', { musicFolderId: 999_999 }, 70);
      const stored = await subsonic.shape('getIndexes', { musicFolderId: 0 }, FolderIndexes);
      expect(stored.indexes.child).toBeUndefined();
      expect(stored.indexes.index?.flatMap((group) => group.artist.map((entry) => entry.id))).not.toContain(
        folderId(music.id, 'Alpha'),
      );
      // An administrator sees both libraries' folders.
      const asAdmin = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
      const all = await asAdmin.shape('getIndexes', {}, FolderIndexes);
      expect(all.indexes.index?.flatMap((group) => group.artist.map((entry) => entry.name))).toEqual([
        'Alpha',
        'Beta',
        'Secret',
      ]);
    });

    it('getMusicDirectory goes down the folders: subfolders as directories, then songs, each under its parent', async () => {
      const subsonic = await api();
      const root = await subsonic.shape('getMusicDirectory', { id: folderId(music.id, '') }, Directory);
      expect(root.directory).toMatchObject({ id: `fo-${String(music.id)}`, name: 'Music' });
      expect(root.directory.parent).toBeUndefined();
      expect(root.directory.child?.map((child) => [child.title, child.isDir])).toEqual([
        ['Alpha', true],
        ['Beta', true],
        ['Loose', false],
      ]);

      const alpha = await subsonic.shape('getMusicDirectory', { id: folderId(music.id, 'Alpha') }, Directory);
      expect(alpha.directory).toMatchObject({
        id: folderId(music.id, 'Alpha'),
        parent: folderId(music.id, ''),
        name: 'Alpha',
      });
      expect(alpha.directory.child?.map((child) => [child.id, child.parent, child.isDir, child.title])).toEqual([
        [folderId(music.id, 'Alpha/Album One'), folderId(music.id, 'Alpha'), true, 'Album One'],
        [expect.stringMatching(/^\d+$/), folderId(music.id, 'Alpha'), false, 'Single'],
      ]);

      const album = await subsonic.shape('getMusicDirectory', { id: folderId(music.id, 'Alpha/Album One') }, Directory);
      expect(album.directory.parent).toBe(folderId(music.id, 'Alpha'));
      expect(album.directory.child?.map((child) => [child.title, child.path, child.suffix])).toEqual([
        ['Two', 'Alpha/Album One/2 Two.mp3', 'mp3'],
        ['Ten', 'Alpha/Album One/10 Ten.mp3', 'mp3'],
      ]);
      // The song the listener liked earlier is starred.
      expect(album.directory.child?.[0]?.starred).toBeDefined();
    });

    it('getMusicDirectory answers 70 for a folder id naming nothing, odd, or of a hidden library', async () => {
      const subsonic = await api();
      for (const id of [
        folderId(music.id, 'Nope'),
        folderId(music.id, 'Loose.mp3'),
        folderId(hidden.id, ''),
        folderId(hidden.id, 'Secret'),
        folderId(999_999, ''),
        `fo-${String(music.id)}-${b64('../Private')}`,
        `fo-${String(music.id)}-${b64('/Alpha')}`,
        `fo-${String(music.id)}-${b64('Alpha')}=`,
        `fo-${String(music.id)}-`,
        'fo-0',
        'fo-',
      ]) {
        await subsonic.error('getMusicDirectory', { id }, 70);
      }
      await subsonic.error('getMusicDirectory', {}, 10);
      const asAdmin = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
      const secret = await asAdmin.shape('getMusicDirectory', { id: folderId(hidden.id, 'Secret') }, Directory);
      expect(secret.directory.child?.map((child) => child.title)).toEqual(['Zoë 🎵', 'Hush']);
    });
  });

  it('leaves missing songs out, and a folder left with none is gone', async () => {
    await rm(path.join(base, 'Music', 'Beta', 'Gone.mp3'));
    const scan = await t.as(admin).post(`/api/libraries/${String(music.id)}/scan`);
    expect(scan.statusCode, scan.body).toBe(200);
    await t.composition.services.libraries.settled();
    const root = await folderOf(listener, music, '');
    expect(folderNames(root)).toEqual([['Alpha', 'Alpha', 3]]);
    expect((await t.as(listener).get(folderUrl(music, 'Beta'))).statusCode).toBe(404);
    const libraries = await t.as(listener).json('/api/folders', FolderLibraryList);
    expect(libraries.libraries).toEqual([{ id: music.id, name: 'Music', songCount: 4 }]);
  });
});
