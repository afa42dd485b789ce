import { mkdir, mkdtemp, rename, rm, unlink, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Album, Song, UNKNOWN_ALBUM } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../test/audio-formats.js';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser } from '../../test/factories.js';
import { blobCounts, songCount, testBlobStore } from '../../test/stored.js';
import { composeCatalogue } from '../catalogue-composition.js';
import type { LocalBlobStore } from '../storage/local-blob-store.js';
import { watchFolder, type WatchPass } from './watch-folder.js';

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting for the watcher');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDialect('watching a folder (%s)', (t) => {
  let root: string;
  /** Where new files are encoded before they are moved into the folder (the same file system, outside the folder). */
  let staging: string;
  let store: LocalBlobStore;
  const stop = new AbortController();
  const passes: WatchPass[] = [];
  let watching: Promise<void>;

  const tags = (title: string, track: number) => ({
    title,
    artist: 'Watchers',
    album: 'Live Folder',
    albumArtist: 'Watchers',
    track: String(track),
    genre: 'Rock',
  });

  beforeAll(async () => {
    requireFfmpeg();
    root = await mkdtemp(path.join(tmpdir(), 'tonearm-watch-'));
    staging = await mkdtemp(path.join(tmpdir(), 'tonearm-watch-staging-'));
    await mkdir(path.join(root, 'Live Folder'));
    await encodeAudio(path.join(root, 'Live Folder', '01.ogg'), 'ogg', { frequency: 500, tags: tags('First', 1) });
    store = testBlobStore(t.dataDir);
    watching = watchFolder(composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }), store, root, {
      quietMs: 150,
      signal: stop.signal,
      onPass: (pass) => passes.push(pass),
    });
    await eventually(() => Promise.resolve(passes.length >= 1));
  });

  afterAll(async () => {
    stop.abort();
    await watching;
    await rm(root, { recursive: true, force: true });
    await rm(staging, { recursive: true, force: true });
  });

  /**
   * Encodes a file and moves it into the folder whole: ffmpeg writing in place could pause longer than the quiet time
   * on a loaded machine, and the watcher would import half a file (its tags come first) before the rest.
   */
  async function place(
    file: string,
    format: Parameters<typeof encodeAudio>[1],
    options: Parameters<typeof encodeAudio>[2],
  ) {
    const encoded = path.join(staging, path.basename(file));
    await encodeAudio(encoded, format, options);
    await rename(encoded, file);
  }

  const songs = async () => {
    const listener = await makeUser(t);
    return t.as(listener).json('/api/songs', z.array(Song));
  };

  it('imports the folder first', async () => {
    expect(passes[0]?.summary).toMatchObject({ added: 1, failed: 0 });
    expect((await songs()).map((song) => song.name)).toEqual(['First']);
  });

  it('picks up a new file while running, on the same album', async () => {
    await place(path.join(root, 'Live Folder', '02.mp3'), 'mp3', { frequency: 600, tags: tags('Second', 2) });
    await eventually(async () => (await songCount(t.db)) === 2);
    const listed = await songs();
    const second = listed.find((song) => song.name === 'Second');
    expect(second).toMatchObject({ albumName: 'Live Folder', trackNumber: 2 });
    expect(second?.albumId).toBe(listed.find((song) => song.name === 'First')?.albumId);
  });

  it('puts a file without an album tag on its album artist’s placeholder album, and deletes that with it', async () => {
    const listener = await makeUser(t);
    const loose = path.join(root, 'Loose.mp3');
    await place(loose, 'mp3', {
      frequency: 640,
      tags: { title: 'Loose', artist: 'Drifters', albumArtist: 'Wanderers', track: '7', date: '2011', genre: 'Rock' },
    });
    await eventually(async () => (await songCount(t.db)) === 3);
    const song = (await songs()).find((one) => one.name === 'Loose');
    // The file's year is the song's; the placeholder takes no year, track number or cover from it.
    expect(song).toMatchObject({ albumName: UNKNOWN_ALBUM, trackNumber: null, discNumber: null, year: 2011 });
    const album = await t.as(listener).json(`/api/albums/${song?.albumId ?? 0}`, Album);
    expect(album).toMatchObject({ artistName: 'Wanderers', placeholder: true, year: null, imgLink: '' });
    await unlink(loose);
    await eventually(async () => (await songCount(t.db)) === 2);
    expect((await t.as(listener).get(`/api/albums/${song?.albumId ?? 0}`)).statusCode).toBe(404);
  });

  it('updates the song of a changed file in place (same id, new audio and tags)', async () => {
    const before = (await songs()).find((song) => song.name === 'First');
    const file = path.join(root, 'Live Folder', '01.ogg');
    await place(file, 'ogg', { frequency: 520, seconds: 3, tags: tags('First (remastered)', 1) });
    // A copy can keep the old time within the same second; move it so the change is seen whatever the file system.
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    await eventually(async () => (await songs()).some((song) => song.name === 'First (remastered)'));
    const after = (await songs()).find((song) => song.name === 'First (remastered)');
    expect(after?.id).toBe(before?.id);
    expect(after?.link).not.toBe(before?.link);
    expect(Math.abs((after?.durationMs ?? 0) - 3000)).toBeLessThan(120);
    expect(await songCount(t.db)).toBe(2);
  });

  it('deletes the songs of removed files, then the album they leave empty, and their blobs', async () => {
    await unlink(path.join(root, 'Live Folder', '02.mp3'));
    await eventually(async () => (await songCount(t.db)) === 1);
    await rm(path.join(root, 'Live Folder'), { recursive: true });
    await eventually(async () => (await songCount(t.db)) === 0);
    expect(await t.db.selectFrom('albums').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('import_sources').selectAll().execute()).toEqual([]);
    await eventually(async () => (await blobCounts(t.dataDir)).audio === 0);
    // A pass is reported once it has released its blobs too, a moment after they are gone.
    const removed = () => passes.flatMap((pass) => pass.removed);
    await eventually(() => Promise.resolve(removed().length >= 3));
    expect(passes.flatMap((pass) => pass.removed).map((file) => path.basename(file))).toEqual([
      'Loose.mp3',
      '02.mp3',
      '01.ogg',
    ]);
  });
});
