import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Album, Song, UNKNOWN_ALBUM, UNKNOWN_ARTIST } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser } from '../../test/factories.js';
import { picture, toneWav } from '../../test/media.js';
import { artistCount, blobCounts, songCount, testBlobStore } from '../../test/stored.js';
import { createDatabase } from '../db/database.js';
import { encodeWav } from '../demo/wav.js';
import { AudioMessages } from '../media/media.formats.js';
import { composeCatalogue } from '../catalogue-composition.js';
import type { LocalBlobStore } from '../storage/local-blob-store.js';
import { closestGenre, GENRE_MAP, matchGenre } from '../modules/libraries/genre-match.js';
import { writeImportCorpus } from './import-corpus.js';
import { ALREADY_IMPORTED, findAudioFiles, importFolder, type ImportProgress } from './import-folder.js';
import { tagWav } from './tagged-wav.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('matchGenre', () => {
  it('maps tag spellings to the catalogue genres of SPEC §5', () => {
    expect(matchGenre('Hip-Hop')).toBe('Hip Hop / Rap');
    expect(matchGenre('rap')).toBe('Hip Hop / Rap');
    expect(matchGenre('R&B')).toBe('R&B / Soul');
    expect(matchGenre('rnb')).toBe('R&B / Soul');
    expect(matchGenre('ELECTRONIC')).toBe('Electronic / EDM');
    expect(matchGenre('lofi')).toBe('Lo-fi');
    expect(matchGenre('Rock')).toBe('Rock');
    expect(matchGenre('indie rock')).toBe('Indie Pop / Rock');
    expect(matchGenre('K-Pop')).toBe('K-pop');
    expect(matchGenre('Disco / Funk')).toBe('Disco / Funk');
    expect(matchGenre('Polka')).toBe('Folk');
    expect(matchGenre('Qwzx')).toBeNull();
    expect(matchGenre('')).toBeNull();
  });
});

describe('closestGenre', () => {
  it('maps a tag genre outside the list to the closest listed one, word by word from the last', () => {
    expect(closestGenre('Shoegaze')).toBe('Alternative Rock');
    expect(closestGenre('Melodic Death Metal')).toBe('Metal');
    expect(closestGenre('Deep House')).toBe('Electronic / EDM');
    expect(closestGenre('Progressive Rock')).toBe('Rock');
    expect(closestGenre('Indie Folk')).toBe('Folk');
    expect(closestGenre('Jazz Fusion')).toBe('R&B / Soul');
    expect(closestGenre('Hip Hop')).toBe('Hip Hop / Rap');
    expect(closestGenre('Qwzx')).toBeNull();
  });

  it('is documented: docs/genres.md lists GENRE_MAP entry for entry', async () => {
    const table = await readFile(path.join(ROOT, 'docs', 'genres.md'), 'utf8');
    const rows = [...table.matchAll(/^\| `([a-z0-9]+)` +\| (.+?) +\|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(GENRE_MAP);
  });
});

describeEachDialect('importing a folder (%s)', (t) => {
  let folder: string;
  let store: LocalBlobStore;

  beforeAll(async () => {
    store = testBlobStore(t.dataDir);
    folder = await mkdtemp(path.join(tmpdir(), 'tonearm-import-'));
    await writeImportCorpus(folder, 12, { seconds: 1, artists: 3 });
    const extra = path.join(folder, 'extra');
    await mkdir(extra);
    await writeFile(path.join(extra, 'polka.wav'), tagWav(toneWav(700), { title: 'Oom Pah', genre: 'Qwzx' }));
    await writeFile(path.join(extra, 'untagged song.wav'), encodeWav(new Float32Array(4000).fill(0.2), 8000));
    await writeFile(path.join(extra, 'fake.mp3'), await picture(5));
    await writeFile(path.join(extra, 'notes.txt'), 'not audio');
    await mkdir(path.join(folder, '.hidden'));
    await writeFile(path.join(folder, '.hidden', 'secret.wav'), toneWav(900));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('finds the audio files, ignoring other extensions and hidden folders', async () => {
    const files = (await findAudioFiles(folder)).map((file) => path.relative(folder, file));
    expect(files).toHaveLength(15);
    expect(files).toContain(path.join('extra', 'fake.mp3'));
    expect(files.some((file) => file.includes('.hidden') || file.endsWith('.txt'))).toBe(false);
  });

  it('adds tagged files with title, artist, genre, cover and duration; reports what it skipped and why', async () => {
    const progress: ImportProgress[] = [];
    const summary = await importFolder(
      composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
      store,
      folder,
      {
        onProgress: (p) => progress.push(p),
      },
    );
    expect(summary).toMatchObject({ total: 15, added: 12, skipped: 2, failed: 1 });
    expect(summary.notAdded.map((o) => [path.basename(o.file), o.status])).toEqual([
      ['fake.mp3', 'failed'],
      ['polka.wav', 'skipped'],
      ['untagged song.wav', 'skipped'],
    ]);
    expect(summary.notAdded[0]?.reason).toBe(AudioMessages.wrongType);
    expect(summary.notAdded[1]?.reason).toContain('Qwzx');
    expect(progress.map((p) => p.done)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(progress.at(-1)).toMatchObject({ done: 15, total: 15, added: 12, skipped: 2, failed: 1 });

    expect(await songCount(t.db)).toBe(12);
    expect(await artistCount(t.db)).toBe(3);
    const listener = await makeUser(t);
    const songs = await t.as(listener).json('/api/songs', z.array(Song));
    const first = songs.find((s) => s.name === 'Track 001');
    expect(first).toMatchObject({ artistName: 'Corpus Artist 1', genre: 'Hip Hop / Rap', durationMs: 1000 });
    expect(new Set(songs.map((s) => s.genre))).toEqual(
      new Set([
        'Hip Hop / Rap',
        'Rock',
        'Electronic / EDM',
        'R&B / Soul',
        'Lo-fi',
        'Classical',
        'Disco / Funk',
        'K-pop',
      ]),
    );
    const cover = await t.as(null).get(first?.imgLink ?? '');
    expect(cover.statusCode).toBe(200);
    const audio = await t.as(listener).get(first?.link ?? '');
    expect(audio.statusCode).toBe(200);
    expect((await blobCounts(t.dataDir)).tmp).toBe(0);
  });

  it('is idempotent: a re-run adds nothing and writes no blob', async () => {
    const blobs = await blobCounts(t.dataDir);
    const summary = await importFolder(composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }), store, folder);
    expect(summary).toMatchObject({ total: 15, added: 0, skipped: 14, failed: 1 });
    expect(summary.notAdded.filter((o) => o.reason === ALREADY_IMPORTED)).toHaveLength(12);
    expect(await songCount(t.db)).toBe(12);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
  });

  it('with a default genre, imports untagged files as "Unknown artist" with a generated cover', async () => {
    const summary = await importFolder(
      composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
      store,
      folder,
      { defaultGenre: 'Experimental' },
    );
    expect(summary).toMatchObject({ added: 2, failed: 1 });
    const rows = await t.db
      .selectFrom('songs')
      .select(['name', 'genre', 'artist_id', 'image_key'])
      .where('genre', '=', 'Experimental')
      .orderBy('name')
      .execute();
    expect(rows.map((r) => [r.name, r.artist_id])).toEqual([
      ['Oom Pah', null],
      ['untagged song', null],
    ]);
    expect(rows.every((r) => r.image_key !== null)).toBe(true);
    const listener = await makeUser(t);
    const songs = await t.as(listener).json('/api/songs?q=oom', z.array(Song));
    expect(songs[0]?.artistName).toBe(UNKNOWN_ARTIST);
    // No album tag: on "Unknown artist"'s placeholder album, which borrows none of the generated covers.
    expect(songs[0]?.albumName).toBe(UNKNOWN_ALBUM);
    const album = await t.as(listener).json(`/api/albums/${songs[0]?.albumId ?? 0}`, Album);
    expect(album).toMatchObject({ artistId: null, placeholder: true, imgLink: '' });
    expect(album.songs.map((song) => song.name).sort()).toEqual(['Oom Pah', 'untagged song']);
  });
});

describe('npm run import (the command)', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'tonearm-import-cli-'));
    await writeImportCorpus(path.join(work, 'music'), 6, { seconds: 1, artists: 2 });
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const importCommand = () =>
    run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/import.ts', path.join(work, 'music')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: '', INIT_CWD: ROOT },
    });

  it('prints progress and a summary with the rate, and is idempotent on re-run', { timeout: 60_000 }, async () => {
    const first = await importCommand();
    expect(first.stdout).toMatch(/\[6\/6\] 100% +[\d.]+ files\/s +added 6 +updated 0 +skipped 0 +failed 0/);
    expect(first.stdout).toMatch(
      /Imported 6 of 6 files in [\d.]+ s \([\d.]+ files\/s\): 0 updated, 0 skipped, 0 failed\./,
    );
    const second = await importCommand();
    expect(second.stdout).toMatch(/Imported 0 of 6 files .*: 0 updated, 6 skipped, 0 failed\./);
    expect(second.stdout).not.toContain(ALREADY_IMPORTED);

    const database = createDatabase({ dataDir: path.join(work, 'data') });
    try {
      expect(await songCount(database.db)).toBe(6);
    } finally {
      await database.destroy();
    }
  });

  it(
    '--watch imports, then picks up a file added while it runs, and stops on SIGTERM',
    { timeout: 60_000 },
    async () => {
      const music = path.join(work, 'watched');
      await mkdir(music);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/cli/import.ts', music, '--watch', '--genre', 'Pop'],
        {
          cwd: ROOT,
          env: { ...process.env, DATA_DIR: path.join(work, 'watch-data'), DATABASE_URL: '', INIT_CWD: ROOT },
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const waitFor = async (text: string) => {
        const until = Date.now() + 30_000;
        while (!output.includes(text)) {
          if (Date.now() > until) throw new Error(`no "${text}" in: ${output}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      try {
        await waitFor('Watching');
        await writeFile(path.join(music, 'late.wav'), tagWav(toneWav(1500), { title: 'Late Arrival' }));
        await waitFor('added 1, updated 0');
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      expect(output).toContain('Stopped watching.');
      const database = createDatabase({ dataDir: path.join(work, 'watch-data') });
      try {
        expect(await songCount(database.db)).toBe(1);
      } finally {
        await database.destroy();
      }
    },
  );

  it('refuses a missing folder with a usage message and exit code 2', async () => {
    const failed = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/import.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: path.join(work, 'data') },
    }).catch((error: unknown) => error as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('Usage: npm run import -- <folder>');
  });

  it('refuses a batch size out of range with exit code 2', async () => {
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/import.ts', path.join(work, 'music'), '--batch-size', '0'],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: path.join(work, 'data') } },
    ).catch((error: unknown) => error as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('--batch-size must be a whole number from 1 to 500');
  });
});
