import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Library,
  M3U8_CONTENT_TYPE,
  Playlist,
  PlaylistListResponse,
  PlaylistMessages,
  Song,
  SubsonicErrorCodes,
} from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf, login, registerUser, uniqueName } from '../../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../../test/subsonic.js';
import { writeM3u8 } from '../playlists/playlist-m3u.js';
import { decodePlaylist, matchPlaylist, playlistEntries, resolveEntry } from './library-playlists.js';
import { MusicFolder, SkipReasons } from './music-folder.js';

requireFfmpeg();

const SongList = z.array(Song);

describe('reading playlist files', () => {
  it('decodes m3u8 as UTF-8, m3u as UTF-8 or else latin1, without a byte order mark', () => {
    const utf8 = Buffer.from('\uFEFFCafé.mp3\n', 'utf8');
    expect(decodePlaylist(utf8, 'a.m3u8')).toBe('Café.mp3\n');
    expect(decodePlaylist(utf8, 'a.M3U')).toBe('Café.mp3\n');
    expect(decodePlaylist(Buffer.from('Café.mp3\n', 'latin1'), 'a.m3u')).toBe('Café.mp3\n');
  });

  it('keeps the lines that name files, whatever the line ends', () => {
    const text = '#EXTM3U\r\n#EXTINF:12,A - B\r\n a.mp3 \r\n\r\nhttps://radio.example/x\rfile:///m/c.mp3\nb.mp3';
    expect(playlistEntries(text)).toEqual(['a.mp3', 'file:///m/c.mp3', 'b.mp3']);
  });

  it('resolves entries inside the library only', () => {
    const roots = ['/m', '/real/m'];
    expect(resolveEntry('02 Two.mp3', 'A/mix.m3u', roots)).toEqual({ path: 'A/02 Two.mp3' });
    expect(resolveEntry('..\\B\\x.mp3', 'A/mix.m3u', roots)).toEqual({ path: 'B/x.mp3' });
    expect(resolveEntry('/m/A/x.mp3', 'A/mix.m3u', roots)).toEqual({ path: 'A/x.mp3' });
    expect(resolveEntry('/real/m/A/x.mp3', 'mix.m3u', roots)).toEqual({ path: 'A/x.mp3' });
    expect(resolveEntry('file:///m/A/x%20y.mp3', 'mix.m3u', roots)).toEqual({ path: 'A/x y.mp3' });
    for (const outside of ['../x.mp3', 'A/../../x.mp3', '/mm/x.mp3', '/etc/passwd', 'C:\\Music\\x.mp3', '/m']) {
      expect(resolveEntry(outside, 'mix.m3u', roots), outside).toEqual({ outside: true });
    }
  });

  it('matches exactly, else ignoring case and normalisation when that names one file', () => {
    const files = [
      { path: 'A/One.mp3', song_id: 1 },
      { path: 'A/Café.mp3', song_id: 2 },
      { path: 'B/x.mp3', song_id: 3 },
      { path: 'B/X.mp3', song_id: 4 },
    ];
    const read = matchPlaylist('a/one.MP3\nA/Cafe\u0301.mp3\nB/X.mp3\nb/x.mp3\nA/One.mp3\n', 'list.m3u', ['/m'], files);
    expect(read.songIds).toEqual([1, 2, 4]);
    expect(read.unmatched).toEqual([{ entry: 'b/x.mp3', reason: 'no song of the library is that file' }]);
  });
});

describe('writing M3U8', () => {
  it('writes a path a reader would take for a comment or trim as ./…, and reads it back', () => {
    const song = { name: 'Hit\nsingle', artistName: null, durationMs: null, audioKey: 'k.mp3' };
    const text = writeM3u8([
      { ...song, libraryPath: '#1 Hit.mp3' },
      { ...song, libraryPath: ' Spaced.mp3' },
      { ...song, libraryPath: 'bad\nname.mp3' },
    ]);
    expect(text).toBe(
      '#EXTM3U\n#EXTINF:-1,Unknown artist - Hit single\n./#1 Hit.mp3\n#EXTINF:-1,Unknown artist - Hit single\n./ Spaced.mp3\n',
    );
    const files = [
      { path: '#1 Hit.mp3', song_id: 1 },
      { path: ' Spaced.mp3', song_id: 2 },
    ];
    expect(matchPlaylist(text, 'back.m3u8', ['/m'], files).songIds).toEqual([1, 2]);
  });
});

describeEachDialect('playlists from files (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let firstAdmin: TestUser;
  let admin: TestUser;
  let listener: TestUser;
  let base: string;
  let root: string;
  let library: Library;
  const ids = new Map<string, number>();

  const id = (name: string): number => {
    const found = ids.get(name);
    if (found === undefined) throw new Error(`no song ${name}`);
    return found;
  };
  const scan = async () => {
    const answer = await t.as(admin).post(`/api/libraries/${String(library.id)}/scan`);
    expect(answer.statusCode, answer.body).toBe(200);
    await t.composition.services.libraries.settled();
    return t.as(admin).json(`/api/libraries/${String(library.id)}`, Library);
  };
  const filePlaylists = async () =>
    (await t.as(admin).json('/api/playlists', PlaylistListResponse)).filter((playlist) => playlist.source !== null);
  const byName = async (name: string): Promise<Playlist> => {
    const found = (await filePlaylists()).find((playlist) => playlist.name === name);
    if (found === undefined) throw new Error(`no playlist ${name}`);
    return found;
  };

  beforeAll(async () => {
    // The first administrator is not the one who adds the library: the playlists are the adder's.
    firstAdmin = await makeAdmin(t);
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-m3u-'));
    root = path.join(base, 'Music');
    await mkdir(path.join(root, 'A'), { recursive: true });
    await mkdir(path.join(root, 'B', 'sub'), { recursive: true });
    const songs: [string, string, number][] = [
      ['A/01 One.mp3', 'One', 330],
      ['A/02 Two.mp3', 'Two', 440],
      ['B/Café.mp3', 'Café', 550],
      ['B/sub/#4 Four.mp3', 'Four', 660],
    ];
    for (const [file, title, frequency] of songs) {
      await encodeAudio(path.join(root, file), 'mp3', { tags: { title, artist: 'Ann Arbor' }, frequency });
    }
    await encodeAudio(path.join(base, 'outside.mp3'), 'mp3', { tags: { title: 'Outside' } });
    // UTF-8 with a byte order mark and CRLF: relative entries, `..` inside, a URL, a way out, a missing file, a repeat.
    await writeFile(
      path.join(root, 'A', 'mix.m3u8'),
      '\uFEFF#EXTM3U\r\n#EXTINF:2,Ann Arbor - Two\r\n02 Two.mp3\r\n../B/sub/#4 Four.mp3\r\n' +
        'http://radio.example/live.mp3\r\n../../outside.mp3\r\nmissing.mp3\r\n01 One.mp3\r\n02 Two.mp3\r\n',
    );
    // latin1, LF, Windows separators, an absolute path inside the library and one outside it.
    await writeFile(
      path.join(root, 'B', 'Latin.m3u'),
      Buffer.from(`Café.mp3\nsub\\#4 Four.mp3\n${path.join(root, 'A', '01 One.mp3')}\n/etc/passwd\n`, 'latin1'),
    );
    await writeFile(path.join(root, 'Top.M3U'), 'A/02 Two.mp3\n');

    const answer = await t.as(admin).post('/api/libraries', { path: root });
    expect(answer.statusCode, answer.body).toBe(201);
    library = Library.parse(answer.json());
    await t.composition.services.libraries.settled();
    for (const song of await t.as(listener).json('/api/songs', SongList)) ids.set(song.name, song.id);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('makes a read-only playlist of each playlist file, owned by the administrator who added the library', async () => {
    library = await t.as(admin).json(`/api/libraries/${String(library.id)}`, Library);
    expect(library.scan).toMatchObject({ state: 'done', seen: 4, added: 4, playlists: 3, unmatchedEntries: 3 });
    expect(library.scan?.problems).toEqual(
      expect.arrayContaining([
        { path: 'A/mix.m3u8', reason: 'entry “../../outside.mp3”: outside the library' },
        { path: 'A/mix.m3u8', reason: 'entry “missing.mp3”: no song of the library is that file' },
        { path: 'B/Latin.m3u', reason: 'entry “/etc/passwd”: outside the library' },
      ]),
    );
    const playlists = await filePlaylists();
    expect(playlists.map((playlist) => playlist.name).sort()).toEqual(['Latin', 'Top', 'mix']);
    const mix = await byName('mix');
    expect(mix).toMatchObject({
      userId: admin.id,
      isPublic: false,
      readOnly: true,
      source: { libraryId: library.id, path: 'A/mix.m3u8' },
      songIds: [id('Two'), id('Four'), id('One')],
    });
    expect((await byName('Latin')).songIds).toEqual([id('Café'), id('Four'), id('One')]);
    expect(await byName('Top')).toMatchObject({ songIds: [id('Two')], source: { path: 'Top.M3U' } });
    const row = await t.db.selectFrom('libraries').select('owner_id').where('id', '=', library.id).executeTakeFirst();
    expect(row?.owner_id).toBe(admin.id);
    expect(firstAdmin.id).toBeLessThan(admin.id);
    // Private, as a new playlist is: the listener does not see them.
    const seen = await t.as(listener).json('/api/playlists', PlaylistListResponse);
    expect(seen.filter((playlist) => playlist.source !== null)).toEqual([]);
    expect((await t.as(listener).get(`/api/playlists/${String(mix.id)}`)).statusCode).toBe(404);
  });

  it('refuses every edit of a playlist from a file, in the API and in Subsonic', async () => {
    const top = await byName('Top');
    const at = `/api/playlists/${String(top.id)}`;
    const attempts = [
      () => t.as(admin).put(`/api/playlists/updatePlaylist/${String(top.id)}`, { name: 'Renamed' }),
      () => t.as(admin).put(`${at}/order`, { songIds: [id('Two')] }),
      () => t.as(admin).put(`${at}/songs/${String(id('One'))}`),
      () => t.as(admin).delete(`${at}/songs/${String(id('Two'))}`),
      () => t.as(admin).delete(at),
    ];
    for (const attempt of attempts) {
      const answer = await attempt();
      expect(answer.statusCode, answer.body).toBe(403);
      expect(errorOf(answer.body)).toMatchObject({ code: 'forbidden', message: PlaylistMessages.readOnlyFromFile });
    }
    // Someone who may not see it still gets the same 404 as before.
    expect((await t.as(listener).delete(at)).statusCode).toBe(404);

    const subsonic = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
    const playlistId = `pl-${String(top.id)}`;
    expect(
      await subsonic.error('updatePlaylist', { playlistId, name: 'Renamed' }, SubsonicErrorCodes.notAuthorized),
    ).toBe(PlaylistMessages.readOnlyFromFile);
    expect(await subsonic.error('deletePlaylist', { id: playlistId }, SubsonicErrorCodes.notAuthorized)).toBe(
      PlaylistMessages.readOnlyFromFile,
    );
    expect(await subsonic.error('createPlaylist', { playlistId }, SubsonicErrorCodes.notAuthorized)).toBe(
      PlaylistMessages.readOnlyFromFile,
    );
    const listed = await subsonic.json('getPlaylists');
    const nodes = (listed.playlists as { playlist: { id: string; readonly?: boolean }[] }).playlist;
    expect(nodes.find((node) => node.id === playlistId)?.readonly).toBe(true);

    expect(await t.as(admin).json(at, Playlist)).toEqual(top);
  });

  it('follows the file: a changed file changes the same playlist, a removed one removes it', async () => {
    const mix = await byName('mix');
    const latin = await byName('Latin');
    await writeFile(path.join(root, 'A', 'mix.m3u8'), '#EXTM3U\n01 One.mp3\n../B/Café.mp3\n');
    await rm(path.join(root, 'Top.M3U'));
    await rename(path.join(root, 'B', 'Latin.m3u'), path.join(root, 'B', 'Renamed.m3u'));
    const scanned = await scan();
    expect(scanned.scan).toMatchObject({ state: 'done', playlists: 2, unmatchedEntries: 1 });

    const after = await byName('mix');
    expect(after.id).toBe(mix.id);
    expect(after.songIds).toEqual([id('One'), id('Café')]);
    expect((await filePlaylists()).map((playlist) => playlist.name).sort()).toEqual(['Renamed', 'mix']);
    expect((await byName('Renamed')).songIds).toEqual(latin.songIds);
    expect((await t.as(admin).get(`/api/playlists/${String(latin.id)}`)).statusCode).toBe(404);

    // An unchanged rescan leaves everything as it was.
    await scan();
    expect(await byName('mix')).toEqual(after);
  });

  it('reads the playlist files the scan’s own walk found: the folder is walked once', async () => {
    // A FIFO named as a playlist is reported (once) and never opened; a file beside the others is read.
    const pipe = path.join(root, 'Pipe.m3u');
    execFileSync('mkfifo', [pipe]);
    await writeFile(path.join(root, 'B', 'sub', 'Deep.m3u8'), './#4 Four.mp3\n');
    const walks = vi.spyOn(MusicFolder.prototype, 'walk');
    try {
      const scanned = await scan();
      expect(walks).toHaveBeenCalledTimes(1);
      expect(scanned.scan).toMatchObject({ state: 'done', playlists: 3 });
      const pipeProblems = scanned.scan?.problems.filter((problem) => problem.path === 'Pipe.m3u');
      expect(pipeProblems).toEqual([{ path: 'Pipe.m3u', reason: SkipReasons.special }]);
      expect((await byName('Deep')).songIds).toEqual([id('Four')]);
    } finally {
      walks.mockRestore();
      await rm(pipe);
      await rm(path.join(root, 'B', 'sub', 'Deep.m3u8'));
    }
    expect((await scan()).scan).toMatchObject({ state: 'done', playlists: 2 });
    expect((await filePlaylists()).map((playlist) => playlist.name).sort()).toEqual(['Renamed', 'mix']);
  });

  it('exports any playlist it may see as M3U8, with headers, and 404 for one it may not', async () => {
    const mix = await byName('mix');
    const answer = await t.as(admin).get(`/api/playlists/${String(mix.id)}/m3u8`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe(M3U8_CONTENT_TYPE);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="mix.m3u8"; filename*=UTF-8''mix.m3u8`);
    expect(answer.body).toBe(
      '#EXTM3U\n#EXTINF:2,Ann Arbor - One\nA/01 One.mp3\n#EXTINF:2,Ann Arbor - Café\nB/Café.mp3\n',
    );

    // A song held in the blob store: its download name; no URL, no session.
    const [stored] = await insertSongs(t, 1, 'Stored Artist');
    if (stored === undefined) throw new Error('no song');
    const created = await t.as(listener).post('/api/playlists', {
      name: 'Mine: “best”',
      songs: JSON.stringify([stored.id]),
      isPublic: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const mine = Playlist.parse(created.json());
    expect(mine).toMatchObject({ readOnly: false, source: null });
    const exported = await t.as(admin).get(`/api/playlists/${String(mine.id)}/m3u8`);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toBe('#EXTM3U\n#EXTINF:1,Stored Artist - Song 1\nStored Artist - Song 1.mp3\n');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="Mine best.m3u8"; filename\*=/);

    expect((await t.as(listener).get(`/api/playlists/${String(mix.id)}/m3u8`)).statusCode).toBe(404);
    expect((await t.as(admin).get('/api/playlists/999999/m3u8')).statusCode).toBe(404);
    expect((await t.as(null).get(`/api/playlists/${String(mix.id)}/m3u8`)).statusCode).toBe(401);
  });

  it('round-trips: an exported playlist dropped into the library is the same songs', async () => {
    const order = [id('Four'), id('Café'), id('One'), id('Two')];
    const created = await t.as(admin).post('/api/playlists', { name: 'Trip', songs: JSON.stringify(order) });
    expect(created.statusCode, created.body).toBe(201);
    const trip = Playlist.parse(created.json());
    const exported = await t.as(admin).get(`/api/playlists/${String(trip.id)}/m3u8`);
    expect(exported.body).toContain('\nB/sub/#4 Four.mp3\n');
    await writeFile(path.join(root, 'Trip export.m3u8'), exported.rawPayload);
    const scanned = await scan();
    expect(scanned.scan).toMatchObject({ playlists: 3, unmatchedEntries: 1 });
    const back = await byName('Trip export');
    expect(back.songIds).toEqual(order);
    expect((await t.as(admin).get(`/api/playlists/${String(back.id)}/m3u8`)).body).toBe(exported.body);
  });

  it('removes the playlists of a library removed', async () => {
    const ids = (await filePlaylists()).map((playlist) => playlist.id);
    expect(ids.length).toBeGreaterThan(0);
    expect((await t.as(admin).delete(`/api/libraries/${String(library.id)}`)).statusCode).toBe(204);
    expect(await filePlaylists()).toEqual([]);
  });
});

describeEachDialect('playlists from files before any administrator (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let base: string;

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('waits for the first administrator, whose sign-up makes them at once, and follows a change of administrators', async () => {
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-m3u-owner-'));
    await encodeAudio(path.join(base, 'Song.mp3'), 'mp3', { tags: { title: 'Song', artist: 'Solo' } });
    await writeFile(path.join(base, 'List.m3u'), 'Song.mp3\n');
    // As MUSIC_DIR's library is made at start: no owner.
    const { id } = await t.db
      .insertInto('libraries')
      .values({ name: 'Music', path: base, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const libraries = t.composition.services.libraries;
    libraries.requestScan(id);
    await libraries.settled();
    const waiting = (await libraries.get(id)).scan;
    expect(waiting).toMatchObject({ state: 'done', added: 1, playlists: 0 });
    expect(waiting?.problems).toEqual([
      { path: '', reason: 'Playlist files become playlists once an administrator account exists' },
    ]);
    expect(await t.db.selectFrom('playlists').select('id').execute()).toEqual([]);
    const firstScan = waiting?.startedAt;

    // The first account registered on the machine itself claims the server: no rescan asked for, the playlist is made.
    const options = z.object({ becomesAdministrator: z.boolean() });
    expect((await t.as(null).json('/api/auth/options', options)).becomesAdministrator).toBe(true);
    const username = uniqueName('first');
    await registerUser(t.app, { username });
    const claimed = await t.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('username', '=', username)
      .executeTakeFirst();
    expect(claimed?.role).toBe('ADMIN');
    const admin = { id: claimed?.id ?? 0, cookie: await login(t.app, username) };
    await libraries.settled();
    const made = (await libraries.get(id)).scan;
    // A scan of its own, which went through the unchanged audio file without reading it.
    expect(made?.startedAt).not.toBe(firstScan);
    expect(made).toMatchObject({
      state: 'done',
      added: 0,
      updated: 0,
      playlists: 1,
      unmatchedEntries: 0,
      problems: [],
    });
    const playlists = await t.as(admin).json('/api/playlists', PlaylistListResponse);
    expect(playlists).toMatchObject([{ name: 'List', userId: admin.id, readOnly: true }]);
    const row = await t.db.selectFrom('libraries').select('owner_id').where('id', '=', id).executeTakeFirst();
    expect(row?.owner_id).toBe(admin.id);

    // The owner is made a listener by another administrator: the same playlist is the other administrator's at once.
    const other = await makeAdmin(t);
    const demoted = await t.as(other).put(`/api/users/${String(admin.id)}`, { role: 'USER' });
    expect(demoted.statusCode, demoted.body).toBe(200);
    await libraries.settled();
    const handed = await t.as(other).json('/api/playlists', PlaylistListResponse);
    expect(handed).toMatchObject([{ id: playlists[0]?.id, name: 'List', userId: other.id, readOnly: true }]);
    const owner = await t.db.selectFrom('libraries').select('owner_id').where('id', '=', id).executeTakeFirst();
    expect(owner?.owner_id).toBe(other.id);
  });
});
