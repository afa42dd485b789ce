import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SongPage, THUMBNAIL_WIDTHS } from '@tonearm/contract';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  encodeAudio,
  encodePicture,
  extensionOf,
  requireFfmpeg,
  type AudioFormat,
} from '../../../test/audio-formats.js';
import {
  buildServer,
  killHard,
  newPlace,
  signIn,
  startServer,
  stopGently,
  type Place,
  type Running,
} from '../../../test/built-server.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { filesUnder, tempFiles } from '../../../test/stored.js';
import { createDatabase, SQLITE_FILE_NAME, type Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { openSqliteFile } from '../../db/sqlite-driver.js';
import { SWEEP_GRACE_MS } from '../../maintenance/blob-sweep.js';

requireFfmpeg();

/*
 * The built server (apps/server/dist) scans a music folder of FILES songs (MUSIC_DIR) and is killed with SIGKILL in the
 * middle: once after some batches are in while a listener is being served, once inside a batch's transaction (held
 * there by a slow trigger the test puts on library_files, so that the kill lands in it every time). What is left in the
 * database is checked directly: whole rows only (every library song has its file row and its cover's place, and the
 * other way round; no dangling artist or album), and the scan's row still 'running'. Started again on the same DATA_DIR
 * and database, the server fails that scan and scans the library again, to the end: every file a song exactly once.
 * Thumbnails (scans make none; covers asked for around the kill make some) are only `<sha256>-<width>.webp` of a cover
 * some song or album uses.
 */

/** Songs in the folder: five batches of 200 at most (a batch is also written once its first song waited 1 s). */
const FILES = 1000;
const SCAN_ENV = { SCAN_WATCH: '0', SCAN_CONCURRENCY: '2' };
/** What a signed-in listener's page of songs may take while a scan runs (not a benchmark: a generous bound). */
const LISTENER_BOUND_MS = 2000;

/** Ten distinct files, copied under many names: each path is a song. Some embed a picture. */
const SEEDS: { format: AudioFormat; picture: 'red' | 'yellow' | null }[] = [
  { format: 'mp3', picture: 'red' },
  { format: 'flac', picture: 'yellow' },
  { format: 'ogg', picture: null },
  { format: 'opus', picture: null },
  { format: 'aac', picture: 'red' },
  { format: 'wav', picture: null },
  { format: 'mp3', picture: null },
  { format: 'flac', picture: null },
  { format: 'ogg', picture: null },
  { format: 'alac', picture: 'yellow' },
];

let workDir: string;
let music: string;
/** Every audio file of the folder, relative to it. */
let audioFiles: string[];

/**
 * `FILES` songs in folders of ten (`Artist <n>/Album <n>/<nnnn> Seed <s>.<ext>`), one of each seed; every other
 * folder has a `cover.png`, which the songs that embed no picture take.
 */
async function makeMusicFolder(): Promise<void> {
  workDir = await mkdtemp(path.join(tmpdir(), 'tonearm-scan-kill9-'));
  music = path.join(workDir, 'Music');
  const seedsDir = path.join(workDir, 'seeds');
  await mkdir(seedsDir, { recursive: true });
  const pictures = {
    red: path.join(seedsDir, 'red.png'),
    yellow: path.join(seedsDir, 'yellow.png'),
    green: path.join(seedsDir, 'green.png'),
    blue: path.join(seedsDir, 'blue.png'),
  };
  await Promise.all(Object.entries(pictures).map(([color, file]) => encodePicture(file, 64, color)));
  const seeds = await Promise.all(
    SEEDS.map(async ({ format, picture }, index) => {
      const file = path.join(seedsDir, `seed-${String(index)}.${extensionOf(format)}`);
      await encodeAudio(file, format, {
        tags: {
          title: `Seed ${String(index)}`,
          artist: `Seed Artist ${String(index % 3)}`,
          album: `Seed Record ${String(index % 4)}`,
          track: String(index + 1),
          genre: 'Rock',
        },
        picture: picture === null ? undefined : pictures[picture],
        seconds: 1,
        frequency: 300 + index * 40,
      });
      return file;
    }),
  );
  audioFiles = [];
  for (let n = 0; n < FILES; n++) {
    const folder = Math.floor(n / SEEDS.length);
    const dir = path.join(`Artist ${String(folder % 7)}`, `Album ${String(folder)}`);
    const seed = n % SEEDS.length;
    const from = seeds[seed] ?? '';
    const name = path.join(dir, `${String(n).padStart(4, '0')} Seed ${String(seed)}${path.extname(from)}`);
    if (n % SEEDS.length === 0) {
      await mkdir(path.join(music, dir), { recursive: true });
      if (folder % 2 === 0) {
        await copyFile(folder % 4 === 0 ? pictures.green : pictures.blue, path.join(music, dir, 'cover.png'));
      }
    }
    await copyFile(from, path.join(music, name));
    audioFiles.push(name.split(path.sep).join('/'));
  }
}

beforeAll(async () => {
  buildServer();
  await makeMusicFolder();
}, 180_000);

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

type Db = Kysely<DB>;

type Counted = 'songs' | 'library_files' | 'artists' | 'albums' | 'album_tracks' | 'library_images';

/** The rows of a table (PostgreSQL's count is a bigint). */
async function rowsOf(db: Db, table: Counted): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The songs of libraries (all the catalogue's songs here). */
async function librarySongs(db: Db): Promise<number> {
  const row = await db
    .selectFrom('songs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('library_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function scansOf(db: Db) {
  return db.selectFrom('library_scans').selectAll().orderBy('id').execute();
}

/**
 * No half rows: every library song has its file row (of its library) and, with a cover, the cover's place; every file
 * row has its song; every album and artist a song names is there; no path twice. Answers the library's song count.
 */
async function expectWholeRows(db: Db): Promise<number> {
  const songs = await librarySongs(db);
  const withoutFile = await db
    .selectFrom('songs')
    .leftJoin('library_files', 'library_files.song_id', 'songs.id')
    .select(['songs.id', 'songs.name'])
    .where('songs.library_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('library_files.song_id', 'is', null),
        eb('library_files.library_id', '!=', eb.ref('songs.library_id')),
      ]),
    )
    .execute();
  expect(withoutFile, 'library songs without their file row').toEqual([]);
  const withoutSong = await db
    .selectFrom('library_files')
    .leftJoin('songs', 'songs.id', 'library_files.song_id')
    .select(['library_files.song_id', 'library_files.path'])
    .where('songs.id', 'is', null)
    .execute();
  expect(withoutSong, 'file rows without their song').toEqual([]);
  expect(await rowsOf(db, 'library_files')).toBe(songs);
  const twice = await db
    .selectFrom('library_files')
    .select(['library_id', 'path'])
    .groupBy(['library_id', 'path'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  expect(twice, 'paths recorded twice').toEqual([]);
  const coverNowhere = await db
    .selectFrom('songs')
    .leftJoin('library_images', 'library_images.image_key', 'songs.image_key')
    .select(['songs.id', 'songs.image_key'])
    .where('songs.library_id', 'is not', null)
    .where('songs.image_key', 'is not', null)
    .where('library_images.image_key', 'is', null)
    .execute();
  expect(coverNowhere, "library songs whose cover's place is not recorded").toEqual([]);
  const noAlbum = await db
    .selectFrom('album_tracks')
    .leftJoin('albums', 'albums.id', 'album_tracks.album_id')
    .select(['album_tracks.song_id', 'album_tracks.album_id'])
    .where('albums.id', 'is', null)
    .execute();
  expect(noAlbum, 'tracks of albums that are not there').toEqual([]);
  const noArtist = await db
    .selectFrom('songs')
    .leftJoin('artists', 'artists.id', 'songs.artist_id')
    .select(['songs.id', 'songs.artist_id'])
    .where('songs.artist_id', 'is not', null)
    .where('artists.id', 'is', null)
    .execute();
  expect(noArtist, 'songs of artists that are not there').toEqual([]);
  return songs;
}

/** Polls `check` every 20 ms until it answers true; throws `what` after `ms`, or when the server died. */
async function until(what: string, check: () => Promise<boolean>, server: Running | null, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (server !== null && (server.child.exitCode !== null || server.child.signalCode !== null)) {
      throw new Error(`the server stopped while waiting until ${what}:\n${server.output.join('')}`);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

/**
 * After the kill: the server started again fails the scan it left 'running' and scans the library to the end. Every
 * file is a song exactly once, and no song is missing. Answers the running server and its base URL; `track` is told
 * the process as soon as it is spawned (killed after the test whatever happens).
 */
async function expectResumed(
  place: Place,
  db: Db,
  left: number,
  track: (server: Running) => void,
): Promise<{ base: string; server: Running }> {
  const started = await startServer(place, { MUSIC_DIR: music, ...SCAN_ENV }, track);
  await until(
    'a scan is done',
    async () => (await scansOf(db)).some((scan) => scan.state === 'done'),
    started.server,
  ).catch(async (error: unknown) => {
    const scans = (await scansOf(db)).map((scan) => [scan.state, scan.started_at, scan.heartbeat_at]);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the scans: ${JSON.stringify(scans)}`);
  });
  const scans = await scansOf(db);
  expect(scans.map((scan) => scan.state)).toEqual(['failed', 'done']);
  expect(scans[0]?.finished_at).not.toBeNull();
  expect(scans[1]).toMatchObject({ seen: FILES, added: FILES - left, updated: 0, moved: 0, missing: 0, errors: 0 });
  expect(await expectWholeRows(db)).toBe(FILES);
  const paths = await db.selectFrom('library_files').select('path').execute();
  expect(paths.map((row) => row.path).sort()).toEqual([...audioFiles].sort());
  const missing = await db.selectFrom('songs').select('id').where('missing_since', 'is not', null).execute();
  expect(missing).toEqual([]);
  return started;
}

/**
 * The links of the covers of the newest songs, as a signed-in user sees them. The newest are read from the database
 * (the shuffled pages read a snapshot, refreshed about every 2 s while the catalogue changes), each cover once.
 */
async function newestCovers(base: string, cookie: string): Promise<string[]> {
  const answer = await fetch(`${base}/api/songs/page?order=newest&limit=100`, { headers: { cookie } });
  expect(answer.status).toBe(200);
  const links = SongPage.parse(await answer.json()).items.map((song) => song.imgLink);
  return [...new Set(links.filter((link) => link !== ''))];
}

/** Asks for covers; answers the statuses (0: no answer, the server was killed). */
async function askCovers(base: string, cookie: string, links: readonly string[]): Promise<number[]> {
  return Promise.all(
    links.map((link) =>
      fetch(`${base}${link}`, { headers: { cookie } }).then(
        async (answer) => {
          await answer.arrayBuffer();
          return answer.status;
        },
        () => 0,
      ),
    ),
  );
}

/**
 * Thumbnails only, each of a cover some song or album uses; no audio in the store (libraries are read in place). Temp
 * files of thumbnails cut off by the kill: none on SQLite, young ones only on PostgreSQL (the start-up sweep spares
 * those, another instance may be writing them). Answers how many thumbnails there are.
 */
async function expectNoOrphanThumbnails(place: Place, db: Db): Promise<number> {
  const blobs = path.join(place.dataDir, 'blobs');
  const used = new Set<string>();
  for (const table of ['songs', 'albums'] as const) {
    for (const { image_key: key } of await db.selectFrom(table).select('image_key').execute()) {
      if (key !== null) used.add(key.replace(/\.[a-z]+$/, ''));
    }
  }
  const images = await filesUnder(path.join(blobs, 'image'));
  for (const name of images) {
    const [, hash, width] = /^([0-9a-f]{64})-(\d+)\.webp$/.exec(name) ?? [];
    expect(hash, `${name} is no thumbnail`).toBeDefined();
    expect(THUMBNAIL_WIDTHS).toContain(Number(width));
    expect(used.has(hash ?? ''), `${name}: no song or album uses its cover`).toBe(true);
  }
  expect(await filesUnder(path.join(blobs, 'audio'))).toEqual([]);
  const temp = await tempFiles(blobs);
  if (place.databaseUrl === null) expect(temp).toEqual([]);
  for (const name of temp) {
    const { mtimeMs } = await stat(path.join(blobs, 'tmp', name));
    expect(Date.now() - mtimeMs, name).toBeLessThan(SWEEP_GRACE_MS);
  }
  return images.length;
}

/** A listener asking for pages of songs back to back, each answer timed, until stopped. */
function listen(base: string, cookie: string) {
  const samples: { status: number; ms: number }[] = [];
  const state = { stopped: false };
  const loop = (async () => {
    while (!state.stopped) {
      const started = performance.now();
      const answer = await fetch(`${base}/api/songs/page?limit=20`, {
        headers: { cookie },
        signal: AbortSignal.timeout(30_000),
      });
      const body: unknown = await answer.json();
      const ms = performance.now() - started;
      if (answer.status === 200) SongPage.parse(body);
      samples.push({ status: answer.status, ms });
      await sleep(10);
    }
  })();
  return {
    samples,
    async stop() {
      state.stopped = true;
      await loop;
      return samples;
    },
  };
}

/**
 * A slow trigger on library_files, which a batch's transaction writes after its songs, artists and albums: each row
 * takes a while, so a batch stays inside its transaction for seconds. `inside()` says whether the server is in it now.
 */
async function slowDownFileRows(dialect: Dialect, place: Place, db: Db) {
  if (dialect === 'postgres') {
    await sql`create function scan_kill_slow() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.05); return new; end $$`.execute(db);
    await sql`create trigger scan_kill_slow before insert on library_files
      for each row execute function scan_kill_slow()`.execute(db);
    const others = sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    return {
      /** A connection of the server is running the insert of file rows (sleeping in the trigger). */
      async inside() {
        const { rows } = await sql<{ query: string }>`
          select query from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`.execute(db);
        return rows.some((row) => row.query.startsWith('insert into "library_files"'));
      },
      /**
       * The killed server's connections go once PostgreSQL sees their client gone (the one in the trigger after its
       * statement): then the trigger goes.
       */
      async remove() {
        await until(
          'the killed server has no connection left',
          async () => (await others.execute(db)).rows.length === 0,
          null,
        );
        await sql`drop trigger scan_kill_slow on library_files`.execute(db);
        await sql`drop function scan_kill_slow()`.execute(db);
      },
    };
  }
  // SQLite runs the trigger in the server's thread: a join of four million rows per file row, ~200 ms each here.
  await sql`create table scan_kill_slow (n integer primary key)`.execute(db);
  await sql`insert into scan_kill_slow (n) select value from json_each(${JSON.stringify(
    Array.from({ length: 2000 }, (_, n) => n),
  )})`.execute(db);
  await sql`create trigger scan_kill_slow after insert on library_files for each row
    begin select count(*) from scan_kill_slow a, scan_kill_slow b; end`.execute(db);
  const probe = openSqliteFile(path.join(place.dataDir, SQLITE_FILE_NAME));
  probe.exec('pragma busy_timeout = 0');
  /** Whether another connection holds the write lock: `begin immediate` fails at once then. */
  const writeLocked = () => {
    try {
      probe.exec('begin immediate');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return true;
      throw error;
    }
    probe.exec('rollback');
    return false;
  };
  return {
    /**
     * The server has held the write lock for half a second without a break: only a batch slowed by the trigger does
     * (its other writes, the scan's row and the heartbeat every 5 s, take a millisecond).
     */
    async inside() {
      for (let at = 0; at < 10; at++) {
        if (!writeLocked()) return false;
        await sleep(50);
      }
      return true;
    },
    async remove() {
      probe.close();
      await sql`drop trigger scan_kill_slow`.execute(db);
      await sql`drop table scan_kill_slow`.execute(db);
    },
  };
}

describeEachDialect('a library scan killed with kill -9 (%s)', { uses: 'nothing' }, (t) => {
  const places: Place[] = [];
  const running: Running[] = [];
  const databases: { destroy(): Promise<void> }[] = [];

  async function freshPlace(): Promise<{ place: Place; db: Db }> {
    const place = await newPlace(t.dialect, 'tonearm-scan-kill9-');
    places.push(place);
    const database = createDatabase({ dataDir: place.dataDir, databaseUrl: place.databaseUrl, poolSize: 1 });
    databases.push(database);
    return { place, db: database.db };
  }

  const track = (server: Running) => {
    running.push(server);
  };

  afterAll(async () => {
    for (const server of running) await killHard(server);
    for (const database of databases) await database.destroy();
    for (const place of places) await place.drop();
  });

  it(
    'after some batches, while a listener is served: whole rows only; the next start scans to the end',
    { timeout: 180_000 },
    async () => {
      const { place, db } = await freshPlace();
      const { base, server } = await startServer(place, { MUSIC_DIR: music, ...SCAN_ENV }, track);
      const cookie = await signIn(base);
      const listener = listen(base, cookie);
      // Killed mid-scan: some batches are in, not all.
      await until(
        'some batches are in',
        async () => {
          const songs = await librarySongs(db);
          if (songs === FILES) throw new Error('the scan ended before the kill: the folder needs more files');
          return songs >= (FILES * 3) / 5 && listener.samples.length >= 10;
        },
        server,
      );
      const samples = await listener.stop();
      // Covers asked for while the scan runs: half answered before the kill (their thumbnails made), half at the kill,
      // which comes as soon as one of those is being written (a temp file), or once they are all answered.
      const links = await newestCovers(base, cookie);
      expect(links.length).toBeGreaterThanOrEqual(2);
      const half = Math.floor(links.length / 2);
      expect(await askCovers(base, cookie, links.slice(0, half))).toEqual(links.slice(0, half).map(() => 200));
      const blobs = path.join(place.dataDir, 'blobs');
      const before = new Set(await tempFiles(blobs));
      const asked = { answered: false };
      const covers = askCovers(base, cookie, links.slice(half)).finally(() => {
        asked.answered = true;
      });
      let cutOff: string[] = [];
      const deadline = Date.now() + 2000;
      while (!asked.answered && cutOff.length === 0 && Date.now() < deadline) {
        cutOff = (await tempFiles(blobs)).filter((name) => !before.has(name));
        await sleep(1);
      }
      await killHard(server);
      const atKill = await covers;

      const left = await expectWholeRows(db);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(FILES);
      expect((await scansOf(db)).map((scan) => [scan.state, scan.finished_at])).toEqual([['running', null]]);
      // The listener was served all along.
      const times = samples.map((sample) => sample.ms).sort((a, b) => a - b);
      const slowest = times.at(-1) ?? 0;
      expect(samples.every((sample) => sample.status === 200)).toBe(true);
      expect(slowest, `slowest of ${String(samples.length)} pages`).toBeLessThan(LISTENER_BOUND_MS);
      // Printed so a run shows what the listener saw (not a benchmark) and where the kill landed.
      const median = times[Math.floor(times.length / 2)] ?? 0;
      console.info(
        `[${t.dialect}] ${String(samples.length)} pages during the scan: median ${median.toFixed(0)} ms, slowest ` +
          `${slowest.toFixed(0)} ms; killed at ${String(left)} of ${String(FILES)} songs, with ` +
          `${String(atKill.filter((status) => status === 0).length)} of ${String(atKill.length)} covers unanswered ` +
          `and ${String(cutOff.length)} thumbnails being written`,
      );

      const again = await expectResumed(place, db, left, track);
      // Every cover of the newest songs, those cut off at the kill included, is made and answered.
      const after = await newestCovers(again.base, cookie);
      expect(after.length).toBeGreaterThan(0);
      expect(await askCovers(again.base, cookie, after)).toEqual(after.map(() => 200));
      await stopGently(again.server);
      expect(await expectNoOrphanThumbnails(place, db)).toBeGreaterThan(0);
    },
  );

  it(
    "inside a batch's transaction: none of the batch is left; the next start scans to the end",
    { timeout: 180_000 },
    async () => {
      const { place, db } = await freshPlace();
      // The tables first (the trigger needs library_files), then the trigger, then the scan.
      const first = await startServer(place, {}, track);
      await stopGently(first.server);
      const slow = await slowDownFileRows(t.dialect, place, db);
      const launched: Running[] = [];
      const starting = startServer(place, { MUSIC_DIR: music, ...SCAN_ENV }, (server) => {
        launched.push(server);
        track(server);
      }).catch(() => null);
      await until('a batch is inside its transaction', () => slow.inside(), null);
      // The songs of the batches before it (none, unless a loaded machine read so few songs in the first second that
      // the first batch, written then, was over before the window): the batch in flight holds the write lock, and each
      // of its file rows takes 50 ms (PostgreSQL) or 200 ms (SQLite) more, so nothing commits before the kill.
      const committed = await rowsOf(db, 'songs');
      // Killed before it answered, or after: either way the one launched last is the one scanning.
      const server = launched.at(-1);
      if (server === undefined) throw new Error('no server was launched');
      await killHard(server);
      await starting;
      await slow.remove();

      // The batch had written its artists, albums and songs (its cover places come after its file rows): none is left.
      expect(await expectWholeRows(db)).toBe(committed);
      expect(await rowsOf(db, 'songs')).toBe(committed);
      if (committed === 0) {
        for (const table of ['artists', 'albums', 'album_tracks', 'library_images'] as const) {
          expect(await rowsOf(db, table), table).toBe(0);
        }
      }
      expect((await scansOf(db)).map((scan) => scan.state)).toEqual(['running']);

      const again = await expectResumed(place, db, committed, track);
      await stopGently(again.server);
      expect(await expectNoOrphanThumbnails(place, db)).toBe(0);
    },
  );
});
