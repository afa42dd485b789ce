import { mkdir, mkdtemp, rename, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Library, LyricsMessages, Song, SongLyricsAnswer, type SongLyrics } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { LYRICS_NOT_READ } from './library-scan.js';

requireFfmpeg();

const SongList = z.array(Song);

/**
 * A music folder whose songs have lyrics in every place a scan reads them: tags, a `.lrc` and a `.txt` beside the
 * audio (its extension in capitals too), both (the `.lrc` wins), a bad `.lrc` (the tags answer), a `.lrc` that is a
 * link out of the folder (never read), and a `.txt` that goes with no audio file.
 */
async function makeFolder(root: string, outside: string): Promise<void> {
  const tone = (name: string, format: 'mp3' | 'flac' | 'ogg' | 'opus', frequency: number, lyrics?: string) =>
    encodeAudio(path.join(root, name), format, {
      seconds: 1,
      frequency,
      tags: {
        title: path.basename(name, path.extname(name)),
        genre: 'Rock',
        extra: lyrics === undefined ? {} : { lyrics },
      },
    });
  await tone('Tagged.mp3', 'mp3', 300, '[00:01.00]From the tags');
  await tone('Side.flac', 'flac', 310, 'Plain tag words');
  await writeFile(path.join(root, 'Side.lrc'), '[la:de]\n[00:02.00]Aus der Datei\n[00:01.00]Zuerst');
  await tone('Plain.ogg', 'ogg', 320);
  await writeFile(path.join(root, 'Plain.TXT'), '\uFEFFFirst verse\n\nSecond verse');
  await tone('Both.opus', 'opus', 330);
  await writeFile(path.join(root, 'Both.lrc'), '[00:03.00]The LRC');
  await writeFile(path.join(root, 'Both.txt'), 'The text');
  await tone('Broken.mp3', 'mp3', 340, 'Tag words');
  await writeFile(path.join(root, 'Broken.lrc'), '[00:01.00]Fine\n[00:61.00]Too many seconds');
  await tone('Escape.mp3', 'mp3', 350);
  await writeFile(outside, '[00:01.00]Secret from outside');
  await symlink(outside, path.join(root, 'Escape.lrc'));
  await writeFile(path.join(root, 'notes.txt'), '[00:99.00] not lyrics of any song');
}

describeEachDialect('lyrics in a library (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let base: string;
  let root: string;
  let library: Library;
  let ids: Map<string, number>;

  const scan = async () => {
    const answer = await t.as(admin).post(`/api/libraries/${String(library.id)}/scan`);
    expect(answer.statusCode, answer.body).toBe(200);
    await t.composition.services.libraries.settled();
    return (await t.as(admin).json(`/api/libraries/${String(library.id)}`, Library)).scan;
  };
  const lyricsOf = async (name: string): Promise<SongLyrics | null> => {
    const answer = await t.as(listener).get(`/api/songs/${String(ids.get(name))}/lyrics`);
    expect(answer.statusCode, answer.body).toBe(200);
    return SongLyricsAnswer.parse(answer.json()).lyrics;
  };
  /** Writes a file with a modification time a few seconds on (a rescan must not miss it in the same second). */
  const rewrite = async (name: string, text: string, secondsOn: number) => {
    const file = path.join(root, name);
    await writeFile(file, text);
    const at = new Date(Date.now() + secondsOn * 1000);
    await utimes(file, at, at);
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-library-lyrics-'));
    root = path.join(base, 'Music');
    await mkdir(root);
    await makeFolder(root, path.join(base, 'outside.lrc'));
    const answer = await t.as(admin).post('/api/libraries', { path: root });
    expect(answer.statusCode, answer.body).toBe(201);
    library = Library.parse(answer.json());
    await t.composition.services.libraries.settled();
    const songs = await t.as(listener).json('/api/songs', SongList);
    ids = new Map(songs.map((song) => [song.name, song.id]));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('reads lyrics from the tags and from the files beside the audio, .lrc before .txt', async () => {
    expect([...ids.keys()].sort()).toEqual(['Both', 'Broken', 'Escape', 'Plain', 'Side', 'Tagged']);
    expect(await lyricsOf('Tagged')).toEqual({
      synced: true,
      lang: null,
      offsetMs: 0,
      source: 'embedded',
      lines: [{ startMs: 1000, text: 'From the tags' }],
    });
    expect(await lyricsOf('Side')).toEqual({
      synced: true,
      lang: 'de',
      offsetMs: 0,
      source: 'sidecar',
      lines: [
        { startMs: 1000, text: 'Zuerst' },
        { startMs: 2000, text: 'Aus der Datei' },
      ],
    });
    expect(await lyricsOf('Plain')).toMatchObject({
      synced: false,
      source: 'sidecar',
      lines: [{ text: 'First verse' }, { text: '' }, { text: 'Second verse' }],
    });
    expect(await lyricsOf('Both')).toMatchObject({ source: 'sidecar', lines: [{ startMs: 3000, text: 'The LRC' }] });
  });

  it('reports a bad lyrics file by its line (the tags answer instead), and never reads a link out of the folder', async () => {
    expect(await lyricsOf('Broken')).toMatchObject({ source: 'embedded', lines: [{ text: 'Tag words' }] });
    expect(await lyricsOf('Escape')).toBeNull();
    const { scan } = await t.as(admin).json(`/api/libraries/${String(library.id)}`, Library);
    expect(scan?.problems).toEqual([
      { path: 'Escape.lrc', reason: 'a link to outside the music folder' },
      {
        path: 'Broken.lrc',
        reason: `${LYRICS_NOT_READ}: ${LyricsMessages.badLine(2, '[00:61.00]Too many seconds', LyricsMessages.secondsTooHigh('00:61.00'))}`,
      },
    ]);
  });

  it('reads nothing again when nothing changed', async () => {
    expect(await scan()).toMatchObject({ state: 'done', seen: 6, added: 0, updated: 0, moved: 0 });
  });

  it('notices a lyrics file that appears, changes or goes at the next scan (the audio unchanged)', async () => {
    await rewrite('Tagged.lrc', '[00:05.00]Now from a file', 5);
    await rewrite('Side.lrc', '[00:02.00]Changed, and longer than before', 10);
    await unlink(path.join(root, 'Plain.TXT'));
    expect(await scan()).toMatchObject({ updated: 3, added: 0 });
    expect(await lyricsOf('Tagged')).toMatchObject({ source: 'sidecar', lines: [{ text: 'Now from a file' }] });
    expect(await lyricsOf('Side')).toMatchObject({ lines: [{ text: 'Changed, and longer than before' }] });
    expect(await lyricsOf('Plain')).toBeNull();
    expect(await scan()).toMatchObject({ updated: 0 });
  });

  it('never replaces an administrator’s lyrics; removing them brings the file’s back at the next scan', async () => {
    const url = `/api/songs/${String(ids.get('Side'))}/lyrics`;
    expect((await t.as(admin).put(url, { text: 'Written by the admin' })).statusCode).toBe(200);
    await rewrite('Side.lrc', '[00:02.00]The file changed once more', 15);
    expect(await scan()).toMatchObject({ updated: 1 });
    expect(await lyricsOf('Side')).toMatchObject({ source: 'uploaded', lines: [{ text: 'Written by the admin' }] });

    expect((await t.as(admin).delete(url)).statusCode).toBe(204);
    expect(await lyricsOf('Side')).toBeNull();
    expect(await scan()).toMatchObject({ updated: 1 });
    expect(await lyricsOf('Side')).toMatchObject({
      source: 'sidecar',
      lines: [{ text: 'The file changed once more' }],
    });
  });

  it('takes a moved file’s lyrics from its new place', async () => {
    await mkdir(path.join(root, 'Moved'));
    await rename(path.join(root, 'Both.opus'), path.join(root, 'Moved', 'Both.opus'));
    expect(await scan()).toMatchObject({ moved: 1, added: 0 });
    // Its lyrics files stayed behind: the file has no lyrics of its own (no tags) now.
    expect(await lyricsOf('Both')).toBeNull();
  });

  it('answers 404 for the lyrics of a song in a library hidden from the user', async () => {
    const access = await t.as(admin).put(`/api/libraries/${String(library.id)}/access`, {
      everyone: false,
      memberIds: [],
    });
    expect(access.statusCode, access.body).toBe(200);
    expect((await t.as(listener).get(`/api/songs/${String(ids.get('Tagged'))}/lyrics`)).statusCode).toBe(404);
    expect((await t.as(admin).get(`/api/songs/${String(ids.get('Tagged'))}/lyrics`)).statusCode).toBe(200);
  });
});
