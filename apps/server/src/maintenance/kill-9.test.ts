import { createHash } from 'node:crypto';
import { readFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { THUMBNAIL_WIDTHS } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildServer,
  exitOf,
  killHard,
  launch,
  newPlace,
  PROCESS_DEADLINE_MS,
  ROOT,
  signIn,
  startServer,
  stopGently,
  type Place,
  type Running,
} from '../../test/built-server.js';
import { describeEachDialect } from '../../test/dialects.js';
import { multipartBody, picture, toneWav } from '../../test/media.js';
import { collect, tempFiles } from '../../test/stored.js';
import { writeImportCorpus } from '../cli/import-corpus.js';
import { createDatabase } from '../db/database.js';
import { imageKeyFor, isOriginalImageKey } from '../media/blob-keys.js';
import { BLOB_KINDS } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { SWEEP_GRACE_MS } from './blob-sweep.js';

/*
 * The built server (apps/server/dist) is killed with SIGKILL while several uploads are in flight, and, separately,
 * with the import CLI while it adds a folder. After a restart on the same DATA_DIR and database: no half rows (every
 * song has its audio and its cover with thumbnails, byte for byte; no row names a missing blob), no temp files, and no
 * blob that no row references, once the sweep's grace period is over (it spares young unreferenced blobs, which another
 * process may be about to reference: the test shows them young, ages them, and restarts).
 */

const IMPORT_CLI = path.join(ROOT, 'apps/server/src/cli/import.ts');
const IMAGE_TABLES = ['songs', 'artists', 'users', 'playlists', 'albums'] as const;

/** POSTs a multipart form, `pace` ms between 16 KiB pieces of the body (0: all at once); answers the status. */
function postForm(url: string, cookie: string, fields: Parameters<typeof multipartBody>[0], pace = 0): Promise<number> {
  const { payload, headers } = multipartBody(fields);
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { ...headers, cookie, 'content-length': payload.length } });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    // The server killed mid-request: no answer.
    req.on('error', () => resolve(0));
    void (async () => {
      for (let at = 0; at < payload.length; at += 16 * 1024) {
        if (req.destroyed) return;
        req.write(payload.subarray(at, at + 16 * 1024));
        if (pace > 0) await sleep(pace);
      }
      req.end();
    })();
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What the store holds after a restart, checked against every row. */
interface Findings {
  songs: number;
  /** Blobs no row references (with their thumbnails): what the sweep has not removed (yet). */
  unreferenced: { id: string; ageMs: number }[];
  /**
   * Staged files of uploads that never committed. On PostgreSQL the start-up sweep spares those younger than its grace
   * period (another instance sharing the store may be uploading them); on SQLite it removes them all.
   */
  temp: { id: string; ageMs: number }[];
}

/**
 * No half rows: every song's audio is there with its size and hash, and every image a row names is there with its
 * thumbnails. Answers the song count, the blobs no row references and the temp files left.
 */
async function inspect(place: Place): Promise<Findings> {
  const store = new LocalBlobStore(path.join(place.dataDir, 'blobs'));
  const temp: Findings['temp'] = [];
  for (const name of await tempFiles(store.rootDir)) {
    const { mtimeMs } = await stat(path.join(store.rootDir, 'tmp', name));
    temp.push({ id: name, ageMs: Date.now() - mtimeMs });
  }
  const database = createDatabase({ dataDir: place.dataDir, databaseUrl: place.databaseUrl, poolSize: 1 });
  const referenced = new Set<string>();
  try {
    const songs = await database.db
      .selectFrom('songs')
      .select(['audio_key', 'audio_sha256', 'size_bytes', 'image_key'])
      .execute();
    for (const song of songs) {
      const audio = await readFile(store.localPath('audio', song.audio_key));
      expect(audio.length).toBe(song.size_bytes);
      expect(sha256(audio)).toBe(song.audio_sha256);
      referenced.add(`audio/${song.audio_key}`);
      // Every song the upload form and the import make has a cover.
      expect(song.image_key).not.toBeNull();
    }
    for (const table of IMAGE_TABLES) {
      const rows = await database.db.selectFrom(table).select('image_key').where('image_key', 'is not', null).execute();
      for (const { image_key: key } of rows) {
        if (key === null) continue;
        const keys = [key, ...THUMBNAIL_WIDTHS.map((width) => imageKeyFor(key, width) ?? key)];
        expect(isOriginalImageKey(key)).toBe(true);
        for (const k of keys) {
          expect(await store.stat('image', k), `${table} image ${k}`).not.toBeNull();
          referenced.add(`image/${k}`);
        }
      }
    }
    const unreferenced: Findings['unreferenced'] = [];
    for (const kind of BLOB_KINDS) {
      for (const key of await collect(store.list(kind))) {
        if (referenced.has(`${kind}/${key}`)) continue;
        const found = await store.stat(kind, key);
        unreferenced.push({ id: `${kind}/${key}`, ageMs: Date.now() - (found?.mtimeMs ?? 0) });
      }
    }
    return { songs: songs.length, unreferenced, temp };
  } finally {
    await database.destroy();
  }
}

/** Moves every blob's and temp file's time back past the sweep's grace period, as if the server had stayed down. */
async function ageBlobs(dataDir: string): Promise<void> {
  const store = new LocalBlobStore(path.join(dataDir, 'blobs'));
  const past = new Date(Date.now() - SWEEP_GRACE_MS - 60_000);
  for (const kind of BLOB_KINDS) {
    for (const key of await collect(store.list(kind))) await utimes(store.localPath(kind, key), past, past);
  }
  for (const name of await tempFiles(store.rootDir)) await utimes(path.join(store.rootDir, 'tmp', name), past, past);
}

/**
 * After the crash: restart and inspect (unreferenced blobs are all young, spared by the grace period), then age the
 * blobs, restart again and inspect (none left). Answers the final findings.
 */
async function restartTwiceAndInspect(place: Place): Promise<Findings> {
  const first = await startServer(place);
  await stopGently(first.server);
  const young = await inspect(place);
  for (const blob of young.unreferenced) expect(blob.ageMs, blob.id).toBeLessThan(SWEEP_GRACE_MS);
  if (place.databaseUrl === null) expect(young.temp).toEqual([]);
  for (const file of young.temp) expect(file.ageMs, file.id).toBeLessThan(SWEEP_GRACE_MS);
  await ageBlobs(place.dataDir);
  const second = await startServer(place);
  await stopGently(second.server);
  const settled = await inspect(place);
  expect(settled.unreferenced).toEqual([]);
  expect(settled.temp).toEqual([]);
  expect(settled.songs).toBe(young.songs);
  return settled;
}

beforeAll(buildServer, 120_000);

describeEachDialect('kill -9 (%s)', { uses: 'nothing' }, (t) => {
  const places: Place[] = [];
  const running: Running[] = [];

  async function freshPlace(): Promise<Place> {
    const made = await newPlace(t.dialect);
    places.push(made);
    return made;
  }

  afterAll(async () => {
    for (const process of running) await killHard(process);
    for (const place of places) await place.drop();
  });

  it('during several uploads leaves no half row and, after the grace period, no orphaned blob', async () => {
    const place = await freshPlace();
    const { base, server } = await startServer(place);
    running.push(server);
    const cookie = await signIn(base);
    const artist = new FormData();
    artist.set('name', 'Crash Test');
    const made = await fetch(`${base}/artists`, { method: 'POST', headers: { cookie }, body: artist });
    expect(made.status).toBe(201);
    const { id: artistId } = (await made.json()) as { id: number };

    let sent = 0;
    const answers: number[] = [];
    const upload = async (pace: number) => {
      sent += 1;
      const n = sent;
      const status = await postForm(
        `${base}/api/songs`,
        cookie,
        {
          name: `Crash ${n}`,
          genre: 'Pop',
          artistId: String(artistId),
          songFile: { data: toneWav(200 + n * 5, 4, 22_050), filename: `crash-${n}.wav`, type: 'audio/wav' },
          imageFile: { data: await picture(n, 'png', 400), filename: 'cover.png', type: 'image/png' },
        },
        pace,
      );
      answers.push(status);
    };
    // Slow uploads are mid-body at the kill; fast ones keep the server hashing, resizing and committing.
    const slow = [1, 2, 3].map(() => upload(100));
    let stop = false;
    const fast = [0, 1, 2].map(async () => {
      while (!stop) await upload(0);
    });
    const store = new LocalBlobStore(path.join(place.dataDir, 'blobs'));
    while (answers.filter((status) => status === 201).length < 3 || (await tempFiles(store.rootDir)).length < 2) {
      await sleep(10);
    }
    await killHard(server);
    stop = true;
    await Promise.all([...slow, ...fast]);
    const created = answers.filter((status) => status === 201).length;
    expect(answers.filter((status) => status === 0).length).toBeGreaterThanOrEqual(3);

    const settled = await restartTwiceAndInspect(place);
    // Every upload answered 201 survived; an upload cut off after its commit may have survived too.
    expect(settled.songs).toBeGreaterThanOrEqual(created);
    expect(settled.songs).toBeLessThanOrEqual(sent);
  }, 120_000);

  it('during an import leaves no half row and no orphaned blob, and the import then finishes', async () => {
    const place = await freshPlace();
    const { server } = await startServer(place);
    running.push(server);
    const folder = await mkdtemp(path.join(tmpdir(), 'tonearm-kill9-music-'));
    places.push({ dataDir: folder, databaseUrl: null, drop: () => rm(folder, { recursive: true, force: true }) });
    const files = 20;
    await writeImportCorpus(folder, files, { seconds: 1, artists: 4 });

    const args = ['--import', 'tsx', IMPORT_CLI, folder, '--batch-size', '4', '--concurrency', '2'];
    const importer = launch(process.execPath, args, place, { INIT_CWD: ROOT });
    running.push(importer);
    const done = () => Number(/\[\s*(\d+)\/\d+\][^[]*$/.exec(importer.output.join(''))?.[1] ?? 0);
    const deadline = Date.now() + PROCESS_DEADLINE_MS;
    while (done() < 8) {
      if (importer.child.exitCode !== null) throw new Error(`the import ended first:\n${importer.output.join('')}`);
      if (Date.now() > deadline) throw new Error(`the import did not reach 8 files:\n${importer.output.join('')}`);
      await sleep(5);
    }
    // Both at once, as a power cut would.
    await Promise.all([killHard(importer), killHard(server)]);
    expect(done()).toBeLessThan(files);

    const settled = await restartTwiceAndInspect(place);
    expect(settled.songs).toBeGreaterThan(0);
    expect(settled.songs).toBeLessThan(files);

    const again = launch(process.execPath, args, place, { INIT_CWD: ROOT });
    running.push(again);
    const code = await exitOf(again, 'the second import');
    expect(code, again.output.join('')).toBe(0);
    const final = await inspect(place);
    expect(final.songs).toBe(files);
    expect(final.unreferenced).toEqual([]);
  }, 300_000);
});
