import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LyricsMessages, Song, SongLyricsAnswer } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../test/audio-formats.js';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser, type TestUser } from '../../test/factories.js';
import { testBlobStore } from '../../test/stored.js';
import { composeCatalogue } from '../catalogue-composition.js';
import { importFolder, type ImportSummary } from './import-folder.js';

requireFfmpeg();

/** `npm run import` reads lyrics as a scan does: the tags, then `<name>.lrc`, then `<name>.txt` beside the file. */
describeEachDialect('importing lyrics (%s)', (t) => {
  let root: string;
  let summary: ImportSummary;
  let listener: TestUser;
  let songs: Map<string, number>;

  const lyricsOf = async (name: string) => {
    const answer = await t.as(listener).get(`/api/songs/${String(songs.get(name))}/lyrics`);
    expect(answer.statusCode, answer.body).toBe(200);
    return SongLyricsAnswer.parse(answer.json()).lyrics;
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tonearm-import-lyrics-'));
    const music = path.join(root, 'music');
    await mkdir(music);
    const tone = (name: string, frequency: number, lyrics?: string) =>
      encodeAudio(path.join(music, name), 'mp3', {
        seconds: 1,
        frequency,
        tags: { title: name.replace('.mp3', ''), genre: 'Rock', extra: lyrics === undefined ? {} : { lyrics } },
      });
    await tone('Tags.mp3', 400, '[offset:+100]\n[00:01.00]Tagged');
    await tone('Lrc.mp3', 410, 'Tag words');
    await writeFile(path.join(music, 'Lrc.LRC'), '[00:02.00]From the LRC');
    await tone('Text.mp3', 420);
    await writeFile(path.join(music, 'Text.txt'), Buffer.from([0x43, 0x61, 0x66, 0xe9])); // "Café" in Windows-1252
    await tone('Bad.mp3', 430, 'Tag words');
    await writeFile(path.join(music, 'Bad.lrc'), '[00:01.00]One\n[00:1x.00]Two');
    await tone('Linked.mp3', 440);
    await writeFile(path.join(root, 'outside.lrc'), '[00:01.00]Outside');
    await symlink(path.join(root, 'outside.lrc'), path.join(music, 'Linked.lrc'));
    const store = testBlobStore(t.dataDir);
    summary = await importFolder(composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }), store, music, {
      defaultGenre: 'Pop',
    });
    listener = await makeUser(t);
    const listed = await t.as(listener).json('/api/songs', z.array(Song));
    songs = new Map(listed.map((song) => [song.name, song.id]));
  }, 60_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('imports every file with its lyrics: tags, .lrc before the tags, .txt in Windows-1252', async () => {
    expect(summary).toMatchObject({ total: 5, added: 5, failed: 0 });
    expect(await lyricsOf('Tags')).toEqual({
      synced: true,
      lang: null,
      offsetMs: 100,
      source: 'embedded',
      lines: [{ startMs: 1000, text: 'Tagged' }],
    });
    expect(await lyricsOf('Lrc')).toMatchObject({
      source: 'sidecar',
      lines: [{ startMs: 2000, text: 'From the LRC' }],
    });
    expect(await lyricsOf('Text')).toMatchObject({ source: 'sidecar', synced: false, lines: [{ text: 'Café' }] });
  });

  it('warns of a bad lyrics file, naming the line, and keeps the tags’ lyrics', async () => {
    expect(await lyricsOf('Bad')).toMatchObject({ source: 'embedded', lines: [{ text: 'Tag words' }] });
    const bad = summary.warnings.find((warning) => warning.file.endsWith('Bad.mp3'));
    expect(bad?.reason).toBe(
      `lyrics not read: ${LyricsMessages.badLine(2, '[00:1x.00]Two', LyricsMessages.notAStamp('00:1x.00'))}`,
    );
  });

  it('never reads a lyrics file that is a link out of the folder', async () => {
    expect(await lyricsOf('Linked')).toBeNull();
  });
});
