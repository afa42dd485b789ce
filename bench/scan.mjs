// `npm run bench:scan`: how fast the server scans a library in place, what it costs, and whether listeners notice. Makes
// (once, into bench/.cache) the scan corpus of BENCH_FILES tagged files (bench/scan-corpus.mjs), then for each dialect
// of BENCH_DIALECTS (sqlite,postgres; PostgreSQL a throwaway cluster) starts the built server on a fresh DATA_DIR and
// database with SCAN_WATCH=0 (only the scans asked for run) and measures:
// - the first scan: the server started with MUSIC_DIR at a hard-linked copy of the corpus (copyCorpus); files/s over
//   the time from the server's start to the scan's end, and the scan's own filesPerSecond; the server's peak RSS
//   (VmHWM and VmRSS of its process tree, sampled every 200 ms); the disk DATA_DIR uses afterwards (du), and on
//   PostgreSQL the database's growth (pg_database_size), against the corpus's bytes;
// - a re-scan with nothing changed (POST /api/libraries/:id/scan): its seconds;
// - a re-scan after 1 % of the files were touched (half a new mtime only, half a new title), 1 % moved and 1 % deleted
//   on that copy: its seconds, and checks: every moved file's song kept its id (song ids by path read from the
//   database's library_files before and after), missing = deleted, updated = touched, nothing added, the song list;
// - a 20-song page (/api/songs/page?limit=20) with wrk at 8 connections while a first scan of the corpus runs on
//   another fresh server (the library added through POST /api/libraries once the listener is logged in): wrk windows of
//   BENCH_WINDOW back to back until the scan ends, the highest window's p99 (which bounds the scan's) and the median
//   window's; the scan's files/s under that load; then the page alone for BENCH_DURATION;
// - with BENCH_BIG (on by default), the first scan and the unchanged re-scan of a corpus of BENCH_BIG_FILES files.
// Then, with BENCH_COMPARE_IMPORT (on by default), on a corpus of BENCH_COMPARE_FILES files and SQLite: the scan's
// files/s beside `npm run import -- --nice 0 --genre Pop` (copy mode) over the same files.
// Prints the figures with the issue's targets beside them, writes them to bench/results/scan.md, and exits non-zero
// when a check failed. Bounded in time; stops its servers by PID and removes its temporary folders and PostgreSQL.
//
// Environment: BENCH_FILES (20000), BENCH_DIALECTS (sqlite,postgres), BENCH_BIG (1), BENCH_BIG_FILES (100000; its
// corpus takes ~7 GB and several minutes to make the first time), BENCH_COMPARE_IMPORT (1), BENCH_COMPARE_FILES
// (2000), BENCH_WINDOW (5s), BENCH_DURATION (10s), SCAN_CONCURRENCY (the server's default, 8). Runs under tsx (it reads
// SQLite with the server's TypeScript).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { openSqliteFile } from '../apps/server/src/db/sqlite-driver.ts';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import { throwawayPostgres } from './postgres.mjs';
import { copyCorpus, deletePercent, movePercent, scanCorpus, touchPercent } from './scan-corpus.mjs';
import {
  logIn,
  parseDuration,
  post,
  registerAccount,
  runBench,
  startBuiltServer,
  startProcess,
  stopProcess,
  treeMiB,
  wrk,
} from './support.mjs';

const require = createRequire(join(root, 'apps/server/package.json'));

function whole(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

const FILES = whole('BENCH_FILES', 20000);
const BIG = process.env.BENCH_BIG !== '0';
const BIG_FILES = whole('BENCH_BIG_FILES', 100000);
const COMPARE = process.env.BENCH_COMPARE_IMPORT !== '0';
const COMPARE_FILES = whole('BENCH_COMPARE_FILES', 2000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
for (const dialect of DIALECTS) {
  if (dialect !== 'sqlite' && dialect !== 'postgres') throw new Error(`BENCH_DIALECTS: no dialect ${dialect}`);
}
const WINDOW = process.env.BENCH_WINDOW ?? '5s';
const DURATION = process.env.BENCH_DURATION ?? '10s';
const CONCURRENCY = process.env.SCAN_CONCURRENCY ?? '8';
const CONNECTIONS = '8';
const PAGE = '/api/songs/page?limit=20';
/** The share of the files each change touches before the changed re-scan. */
const CHANGE_PCT = 1;
const SEED = 1;
const SAMPLE_MS = 200;
const POLL_MS = 100;
/** How often the page phase asks for the scan's progress: as the web app's Libraries page does while a scan runs. */
const LOAD_POLL_MS = Number(process.env.BENCH_LOAD_POLL_MS ?? 1000);

const TARGETS = {
  firstScanRate: 500,
  bigRescanSeconds: 10,
  pageP99Ms: 100,
  peakBytes: 300e6,
  diskPercent: 5,
};

// Time, at slow rates (a busy machine, wrk beside the scan): corpora made, then per dialect two first scans and two
// re-scans of the corpus at ≥ 20 files/s, the big corpus's scan and re-scan, and the import at ≥ 1 file/s (it
// decodes the end of every file with ffmpeg: 3 files/s on the busy 2-core machine).
const SCAN_FLOOR = 20;
function watchdogSeconds() {
  const corpus = (files) => (existsSync(join(root, `bench/.cache/scan-corpus-${files}/corpus.json`)) ? 30 : files / 50);
  let seconds = 300 + corpus(FILES);
  seconds += DIALECTS.length * ((4 * FILES) / SCAN_FLOOR + 6 * 60 + parseDuration(DURATION) + 60);
  if (BIG) seconds += corpus(BIG_FILES) + DIALECTS.length * ((2 * BIG_FILES) / SCAN_FLOOR + 240);
  if (COMPARE) seconds += corpus(COMPARE_FILES) + COMPARE_FILES + COMPARE_FILES / SCAN_FLOOR + 180;
  return seconds;
}

const work = mkdtempSync(join(tmpdir(), 'tonearm-scan-bench-'));
const account = { username: 'bench_admin', email: 'admin@example.com', password: 'bench-password-1' };
const failures = [];
/** What the server did that a benchmark did not expect but the figures survive (printed and written with them). */
const notes = [];
/** The throwaway PostgreSQL's postmaster, to stop it even from the watchdog (whose clean-up cannot wait). */
let postgresProcess = null;

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes) => bytes / 1024 ** 2;
const met = (ok) => (ok ? 'met' : '**missed**');

function check(ok, what) {
  if (!ok) {
    failures.push(what);
    console.error(`CHECK FAILED: ${what}`);
  }
  return ok;
}

function note(what) {
  notes.push(what);
  console.log(`NOTE: ${what}`);
}

/** Disk used by a folder, bytes (du: blocks allocated, not apparent sizes). */
function diskUsed(dir) {
  const result = spawnSync('du', ['-sB1', dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`du ${dir}: ${result.stderr}`);
  return Number(result.stdout.split(/\s/)[0]);
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

async function pgClient(url) {
  const pg = require('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function startPostgres() {
  const postgres = await throwawayPostgres('tonearm_bench');
  if (postgres === null) return null;
  const client = await pgClient(postgres.url);
  try {
    const dataDirectory = (await client.query('show data_directory')).rows[0].data_directory;
    const pid = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    postgresProcess = { pid, dir: dirname(dataDirectory) };
  } finally {
    await client.end();
  }
  let next = 0;
  return {
    version: postgres.version,
    /** A new empty database: its URL and its size before anything is written. */
    async database() {
      const name = `tonearm_scan_${++next}`;
      const admin = await pgClient(postgres.url);
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      const url = new URL(postgres.url);
      url.pathname = `/${name}`;
      return { url: url.toString(), emptyBytes: await databaseBytes(url.toString()) };
    },
    async stop() {
      await postgres.stop();
      postgresProcess = null;
    },
  };
}

/**
 * With PG_STAT_STATEMENTS=1 (the cluster then loads the module): resets the statistics of the database at `url`, or
 * prints its statements that took the most of the backends' time since the reset (a diagnosis of the page phase).
 */
async function statementStatistics(url, print) {
  if (process.env.PG_STAT_STATEMENTS !== '1' || url === undefined) return;
  const client = await pgClient(url);
  try {
    await client.query('create extension if not exists pg_stat_statements');
    if (!print) {
      await client.query('select pg_stat_statements_reset()');
      return;
    }
    const { rows } = await client.query(
      `select calls, round(total_exec_time)::int as ms, round(total_plan_time)::int as plan_ms, rows,
        left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
       order by total_exec_time + total_plan_time desc limit 20`,
    );
    console.log('statements by time in the page phase (calls, exec ms, plan ms, rows, query):');
    for (const row of rows) console.log(`  ${row.calls}\t${row.ms}\t${row.plan_ms}\t${row.rows}\t${row.query}`);
  } finally {
    await client.end();
  }
}

async function databaseBytes(url) {
  const client = await pgClient(url);
  try {
    return Number((await client.query('select pg_database_size(current_database()) as n')).rows[0].n);
  } finally {
    await client.end();
  }
}

/** Stops the postmaster at once (SIGQUIT: immediate shutdown) and removes its cluster; for the watchdog. */
function stopPostgresNow() {
  if (postgresProcess === null) return;
  const { pid, dir } = postgresProcess;
  postgresProcess = null;
  try {
    process.kill(pid, 'SIGQUIT');
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      process.kill(pid, 0);
      spawnSync('sleep', ['0.1']);
    }
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------------
// A server and its scans

/**
 * Starts the built server on a fresh DATA_DIR (and database), with SCAN_WATCH=0 and `env`; samples its peak RSS from
 * then on; registers the administrator and logs in. `startedAt` is taken just before the start.
 */
async function startServer(name, dialect, postgres, env = {}) {
  const dataDir = join(work, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const database = dialect === 'postgres' ? await postgres.database() : null;
  const startedAt = Date.now();
  const { base, server } = await startBuiltServer({
    dataDir,
    databaseUrl: database?.url ?? null,
    env: { SCAN_WATCH: '0', SCAN_CONCURRENCY: CONCURRENCY, ...(database === null && { DATABASE_URL: '' }), ...env },
  });
  const memory = { peakMiB: 0, rssMiB: 0 };
  const sample = () => {
    memory.peakMiB = Math.max(memory.peakMiB, treeMiB(server.pid, 'VmHWM'));
    memory.rssMiB = Math.max(memory.rssMiB, treeMiB(server.pid, 'VmRSS'));
  };
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  await registerAccount(base, account);
  const cookie = await logIn(base, account);
  return {
    name,
    dialect,
    dataDir,
    database,
    startedAt,
    base,
    server,
    cookie,
    /** The peak RSS so far (MiB): the highest VmHWM and VmRSS sampled. */
    peakMiB() {
      sample();
      return Math.max(memory.peakMiB, memory.rssMiB);
    },
    async stop() {
      clearInterval(sampler);
      await stopProcess(server);
    },
  };
}

async function getJson(ctx, path) {
  const response = await fetch(`${ctx.base}${path}`, { headers: { cookie: ctx.cookie } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function theLibrary(ctx) {
  const { libraries } = await getJson(ctx, '/api/libraries');
  return libraries[0] ?? null;
}

/** Polls until the library's scan (one started after `after`, when given) has ended; answers the library. */
async function waitForScan(ctx, files, after = null, pollMs = POLL_MS) {
  const deadline = Date.now() + (files / SCAN_FLOOR + 120) * 1000;
  let library = null;
  while (Date.now() < deadline) {
    if (ctx.server.exitCode !== null || ctx.server.signalCode !== null) {
      throw new Error(`the server exited during the scan (${ctx.server.exitCode ?? ctx.server.signalCode})`);
    }
    library = await theLibrary(ctx);
    const scan = library?.scan;
    if (scan && scan.state !== 'running' && (after === null || scan.startedAt > after)) return library;
    await sleep(pollMs);
  }
  throw new Error(`the scan did not end in time; last seen: ${JSON.stringify(library)}`);
}

/** Starts a re-scan and waits for it: the library, its own seconds, and the seconds from the request to its end. */
async function rescan(ctx, library, files) {
  // The latest scan as it is now: the new one is the first to start after it.
  const before = (await theLibrary(ctx)).scan.startedAt;
  const asked = performance.now();
  const response = await fetch(`${ctx.base}/api/libraries/${library.id}/scan`, {
    method: 'POST',
    headers: { cookie: ctx.cookie },
  });
  if (!response.ok) throw new Error(`POST scan: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  const after = await waitForScan(ctx, files, before);
  return { library: after, seconds: scanSeconds(after.scan), wall: (performance.now() - asked) / 1000 };
}

const scanSeconds = (scan) => (Date.parse(scan.finishedAt) - Date.parse(scan.startedAt)) / 1000;

function describeScan(scan) {
  const { state, seen, done, added, updated, moved, missing, errors } = scan;
  const problems = scan.problems
    .slice(0, 5)
    .map((p) => `${p.path}: ${p.reason}`)
    .join('; ');
  return (
    `${state}: seen ${seen}, done ${done}, added ${added}, updated ${updated}, moved ${moved}, missing ${missing}, ` +
    `errors ${errors}${problems ? ` (${problems})` : ''}`
  );
}

/** Rows of the server's own database (read beside it: SQLite's file read-only, or PostgreSQL). */
async function queryDatabase(ctx, sql, parameters) {
  if (ctx.database === null) {
    const db = openSqliteFile(join(ctx.dataDir, 'tonearm.db'), { readOnly: true, mustExist: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(parameters);
    } finally {
      db.close();
    }
  }
  const client = await pgClient(ctx.database.url);
  try {
    return (await client.query(sql, parameters)).rows;
  } finally {
    await client.end();
  }
}

/** The library's files: song id by path (relative to the library). The API does not show paths. */
async function songIdsByPath(ctx, libraryId) {
  const rows = await queryDatabase(ctx, 'select song_id, path from library_files where library_id = $1', [libraryId]);
  return new Map(rows.map((row) => [row.path, Number(row.song_id)]));
}

/** Every scan of the library so far, oldest first (the API shows only the latest). */
function scansOf(ctx, libraryId) {
  return queryDatabase(
    ctx,
    'select id, state, started_at, finished_at, seen, done, added, updated, moved, missing, errors ' +
      'from library_scans where library_id = $1 order by id',
    [libraryId],
  );
}

/** Waits until the library's scans have ended and no other started for a second; answers the library. */
async function quietLibrary(ctx, files) {
  let library = await waitForScan(ctx, files);
  for (;;) {
    await sleep(1000);
    const again = await waitForScan(ctx, files);
    if (again.scan.startedAt === library.scan.startedAt) return again;
    library = again;
  }
}

/** DATA_DIR's disk use (and its SQLite WAL), and on PostgreSQL the database's growth, against the corpus's bytes. */
async function diskOf(ctx, corpusBytes) {
  const dataDir = diskUsed(ctx.dataDir);
  const wal = join(ctx.dataDir, 'tonearm.db-wal');
  const walBytes = existsSync(wal) ? diskUsed(wal) : 0;
  const database = ctx.database === null ? 0 : (await databaseBytes(ctx.database.url)) - ctx.database.emptyBytes;
  return { dataDir, wal: walBytes, database, percent: ((dataDir + database) / corpusBytes) * 100 };
}

/**
 * The first scan of `musicDir` on a server started with MUSIC_DIR; the server is left running for what follows. Its
 * figures come from the first row of library_scans: the server may run more than one scan at start (then noted).
 */
async function firstScan(name, dialect, postgres, musicDir, corpus) {
  const files = corpus.files.length;
  const ctx = await startServer(name, dialect, postgres, { MUSIC_DIR: musicDir });
  try {
    const library = await quietLibrary(ctx, files);
    const scans = await scansOf(ctx, library.id);
    const scan = scans[0];
    const seconds = (Date.parse(scan.finished_at) - Date.parse(scan.started_at)) / 1000;
    console.log(`${name}: first scan ${describeScan({ ...scan, problems: [] })} in ${fmt(seconds, 2)} s`);
    check(scan.state === 'done', `${name}: the first scan ended ${scan.state}`);
    check(scan.added === files && library.songCount === files, `${name}: ${scan.added} songs added of ${files} files`);
    check(scan.errors === 0, `${name}: ${scan.errors} errors in the first scan (${describeScan(library.scan)})`);
    if (scans.length > 1) {
      const others = scans
        .slice(1)
        .map(
          (s) =>
            `${describeScan({ ...s, problems: [] })} in ${fmt(
              (Date.parse(s.finished_at) - Date.parse(s.started_at)) / 1000,
              2,
            )} s`,
        );
      note(`${name}: the server ran ${scans.length} scans at start, not one; after the first: ${others.join('; ')}`);
    }
    const fromStart = (Date.parse(scan.finished_at) - ctx.startedAt) / 1000;
    const result = {
      files,
      fromStart,
      rate: files / fromStart,
      ownRate: scan.done / seconds,
      ownSeconds: seconds,
      peakMiB: ctx.peakMiB(),
      disk: await diskOf(ctx, corpus.bytes),
    };
    console.log(
      `${name}: ${files} files in ${fmt(fromStart, 1)} s from the server's start (${fmt(result.rate)} files/s; ` +
        `the scan's own ${fmt(result.ownRate)} files/s over ${fmt(result.ownSeconds, 1)} s), peak RSS ` +
        `${fmt(result.peakMiB)} MiB, disk ${diskCell(result.disk)} of the corpus's ${fmt(mib(corpus.bytes))} MiB`,
    );
    return { ctx, library, result };
  } catch (error) {
    await ctx.stop();
    throw error;
  }
}

async function unchangedRescan(name, ctx, library, files) {
  const run = await rescan(ctx, library, files);
  const { scan } = run.library;
  console.log(
    `${name}: re-scan, nothing changed: ${fmt(run.seconds, 2)} s (${fmt(run.wall, 2)} s from the request); ` +
      describeScan(scan),
  );
  check(
    scan.state === 'done' && scan.added + scan.updated + scan.moved + scan.missing + scan.errors === 0,
    `${name}: the unchanged re-scan found changes (${describeScan(scan)})`,
  );
  return run;
}

/** 1 % touched, moved and deleted on the copy, then a re-scan; checks the ids of moved songs and the counts. */
async function changedRescan(name, ctx, library, copy) {
  const before = await songIdsByPath(ctx, library.id);
  const { touched, changed } = touchPercent(copy.root, copy.files, CHANGE_PCT, SEED);
  const used = new Set([...touched, ...changed]);
  const rest = copy.files.filter((file) => !used.has(file));
  const moves = movePercent(copy.root, rest, CHANGE_PCT, SEED);
  const movedFrom = new Set(moves.map(([from]) => from));
  const deleted = deletePercent(
    copy.root,
    rest.filter((file) => !movedFrom.has(file)),
    CHANGE_PCT,
    SEED,
  );
  const run = await rescan(ctx, library, copy.files.length);
  const { scan } = run.library;
  const after = await songIdsByPath(ctx, library.id);
  const kept = moves.filter(([from, to]) => before.get(from) !== undefined && after.get(to) === before.get(from));
  const updatedKept = [...touched, ...changed].filter((file) => after.get(file) === before.get(file)).length;
  const songs = (await getJson(ctx, '/api/songs')).filter((song) => song.link.includes('/lib'));
  const result = {
    seconds: run.seconds,
    wall: run.wall,
    touched: touched.length,
    changed: changed.length,
    moved: moves.length,
    keptId: kept.length,
    deleted: deleted.length,
    scan,
    missingCount: run.library.missingCount,
    songs: songs.length,
  };
  console.log(
    `${name}: re-scan after ${touched.length} touched, ${changed.length} retitled, ${moves.length} moved, ` +
      `${deleted.length} deleted: ${fmt(run.seconds, 2)} s (${fmt(run.wall, 2)} s from the request); ` +
      `${describeScan(scan)}; moved songs that kept their id: ${kept.length} / ${moves.length}; ` +
      `library missingCount ${run.library.missingCount}; songs listed ${songs.length}`,
  );
  const expectedSongs = copy.files.length - deleted.length;
  check(scan.state === 'done', `${name}: the changed re-scan ended ${scan.state}`);
  check(kept.length === moves.length, `${name}: ${kept.length} of ${moves.length} moved songs kept their id`);
  check(scan.moved === moves.length, `${name}: the scan counted ${scan.moved} moves of ${moves.length}`);
  check(
    scan.missing === deleted.length && run.library.missingCount === deleted.length,
    `${name}: ${scan.missing} missing (library: ${run.library.missingCount}) for ${deleted.length} deleted`,
  );
  check(
    scan.updated === touched.length + changed.length,
    `${name}: ${scan.updated} updated for ${touched.length + changed.length} touched`,
  );
  check(
    updatedKept === touched.length + changed.length,
    `${name}: ${updatedKept} of ${touched.length + changed.length} touched songs kept their id`,
  );
  check(scan.added === 0 && scan.errors === 0, `${name}: ${scan.added} added, ${scan.errors} errors`);
  check(
    songs.length === expectedSongs,
    `${name}: /api/songs lists ${songs.length} library songs, not ${expectedSongs}`,
  );
  return result;
}

/** The page with wrk while a first scan of `musicDir` runs (the library added once logged in), then alone. */
async function pageDuringScan(name, dialect, postgres, musicDir, files) {
  const ctx = await startServer(name, dialect, postgres);
  try {
    const headers = { cookie: ctx.cookie };
    const url = `${ctx.base}${PAGE}`;
    await statementStatistics(ctx.database?.url, false);
    await post(`${ctx.base}/api/libraries`, { path: musicDir }, headers);
    let scanning = true;
    const waiting = waitForScan(ctx, files, null, LOAD_POLL_MS).finally(() => (scanning = false));
    const windows = [];
    while (scanning) {
      const result = await wrk(url, { connections: CONNECTIONS, duration: WINDOW, headers });
      windows.push(result);
    }
    const { scan } = await waiting;
    await statementStatistics(ctx.database?.url, true);
    console.log(`${name}: first scan under load ${describeScan(scan)}`);
    check(scan.state === 'done' && scan.added === files, `${name}: the scan under load: ${describeScan(scan)}`);
    const non2xx = windows.reduce((sum, w) => sum + w.non2xx, 0);
    check(non2xx === 0, `${name}: ${non2xx} non-2xx answers to the page during the scan`);
    const during = {
      windows: windows.length,
      rps: median(windows.map((w) => w.rps)),
      p50: median(windows.map((w) => w.p50)),
      p99: Math.max(...windows.map((w) => w.p99)),
      p99Median: median(windows.map((w) => w.p99)),
      scanRate: scan.filesPerSecond,
      scanSeconds: scanSeconds(scan),
    };
    const alone = await wrk(url, { connections: CONNECTIONS, duration: DURATION, headers });
    console.log(`${name}: each window's p99 (ms), in order: ${windows.map((w) => fmt(w.p99, 1)).join(', ')}`);
    console.log(
      `${name}: ${PAGE} during the scan (${windows.length} windows of ${WINDOW}): ${fmt(during.rps)} req/s, ` +
        `p50 ${fmt(during.p50, 1)} ms, p99 ≤ ${fmt(during.p99, 1)} ms (median window ${fmt(during.p99Median, 1)} ms); ` +
        `the scan ${fmt(during.scanRate)} files/s; alone afterwards p50 ${fmt(alone.p50, 1)} ms, ` +
        `p99 ${fmt(alone.p99, 1)} ms`,
    );
    return { during, alone };
  } finally {
    await ctx.stop();
  }
}

async function measureDialect(dialect, postgres, corpora) {
  const label = dialect === 'sqlite' ? 'SQLite' : `PostgreSQL ${postgres.version}`;
  console.log(`\n${label}`);
  const { corpus, big } = corpora;
  const copy = copyCorpus(corpus.root, join(work, `music-${dialect}`));
  const first = await firstScan(`${dialect}/first`, dialect, postgres, copy.root, corpus);
  let unchanged;
  let changed;
  try {
    unchanged = await unchangedRescan(`${dialect}/first`, first.ctx, first.library, corpus.files.length);
    changed = await changedRescan(`${dialect}/first`, first.ctx, unchanged.library, copy);
  } finally {
    await first.ctx.stop();
  }
  rmSync(copy.root, { recursive: true, force: true });
  const load = await pageDuringScan(`${dialect}/load`, dialect, postgres, corpus.root, corpus.files.length);
  let bigRun = null;
  if (big !== null) {
    const bigFirst = await firstScan(`${dialect}/big`, dialect, postgres, big.root, big);
    try {
      bigRun = {
        first: bigFirst.result,
        unchanged: await unchangedRescan(`${dialect}/big`, bigFirst.ctx, bigFirst.library, big.files.length),
      };
    } finally {
      await bigFirst.ctx.stop();
    }
  }
  return { dialect, label, first: first.result, unchanged, changed, load, big: bigRun };
}

// ---------------------------------------------------------------------------------------------------------------
// The import beside it

/** `npm run import -- <folder> --nice 0 --genre Pop` on a fresh SQLite DATA_DIR; answers its summary. */
async function runImport(folder, files) {
  const dataDir = join(work, 'data-import');
  mkdirSync(dataDir, { recursive: true });
  const child = startProcess(
    process.execPath,
    ['--import', 'tsx', join(root, 'apps/server/src/cli/import.ts'), folder, '--nice', '0', '--genre', 'Pop'],
    { DATA_DIR: dataDir, DATABASE_URL: '', INIT_CWD: root },
  );
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const output = child.output.join('');
  const summary = /Imported (\d+) of (\d+) files in ([\d.]+) s \(([\d.]+) files\/s\)/.exec(output);
  if (code !== 0 || summary === null) throw new Error(`the import ended with ${code}:\n${output.slice(-2000)}`);
  const result = { added: Number(summary[1]), seconds: Number(summary[3]), rate: Number(summary[4]) };
  check(result.added === files, `import: ${result.added} of ${files} files added`);
  console.log(`import: ${result.added} files in ${result.seconds} s (${result.rate} files/s)`);
  return result;
}

async function compareImport(corpus) {
  console.log(`\nThe scan beside the import, ${corpus.files.length} files, SQLite`);
  const first = await firstScan('compare/scan', 'sqlite', null, corpus.root, corpus);
  await first.ctx.stop();
  const imported = await runImport(corpus.root, corpus.files.length);
  return { scan: first.result, import: imported };
}

/** The last bench:import figure written in bench/README.md: the first importer row of its table. */
function readmeImportFigure() {
  const readme = readFileSync(join(root, 'bench/README.md'), 'utf8');
  const section = /## Import: `npm run bench:import`[\s\S]*?(?=\n## )/.exec(readme)?.[0] ?? '';
  const intro = /^Importing (\d+) [^(]*\([^)]*\)[^(]*\((\d{4}-\d\d-\d\d)\)/m.exec(section);
  const row = /^\| (default[^|]*?)\s*\|\s*([\d.]+)\s*\|/m.exec(section);
  return row === null ? null : { about: row[1], rate: Number(row[2]), files: intro?.[1], date: intro?.[2] };
}

// ---------------------------------------------------------------------------------------------------------------
// The report

function corpusLine(corpus) {
  const byFormat = {};
  for (const file of corpus.files) {
    const ext = extname(file).slice(1).toUpperCase();
    byFormat[ext] = (byFormat[ext] ?? 0) + 1;
  }
  const formats = Object.entries(byFormat)
    .sort((a, b) => b[1] - a[1])
    .map(([ext, n]) => `${ext} ${fmt((n / corpus.files.length) * 100)} %`)
    .join(', ');
  return (
    `${corpus.files.length} files, ${fmt(mib(corpus.bytes))} MiB, ${corpus.albums} albums (${formats}; ` +
    `bench/scan-corpus.mjs)`
  );
}

function diskCell(disk) {
  const wal = disk.wal === 0 ? '' : ` (WAL ${fmt(mib(disk.wal), 1)} MiB)`;
  const database = disk.database === 0 ? '' : ` + database ${fmt(mib(disk.database), 1)} MiB`;
  return `${fmt(mib(disk.dataDir), 1)} MiB${wal}${database} = ${fmt(disk.percent, 2)} %`;
}

function report(results, corpora, comparison) {
  const date = new Date().toISOString().slice(0, 10);
  const { corpus, big } = corpora;
  const lines = [
    `Scanning a library in place (${date}), SCAN_CONCURRENCY ${CONCURRENCY}, SCAN_WATCH=0: ${corpusLine(corpus)}.`,
    `The page is ${PAGE} with wrk -t2 -c${CONNECTIONS} in ${WINDOW} windows back to back while a first scan runs ` +
      "(p99: the highest window's, and the median window's in brackets). Disk: du of DATA_DIR while the server " +
      "runs (SQLite's WAL included)" +
      (results.some((r) => r.dialect === 'postgres')
        ? "; on PostgreSQL, plus the database's growth (pg_database_size). PostgreSQL is a throwaway cluster " +
          "without durability, and the server's RSS does not include it."
        : '.'),
    '',
    `| | ${results.map((r) => r.label).join(' | ')} | target |`,
    `| --- | ${results.map(() => '---:').join(' | ')} | --- |`,
  ];
  const row = (name, cell, target = '') => lines.push(`| ${name} | ${results.map(cell).join(' | ')} | ${target} |`);
  row(
    "first scan: files/s from the server start (the scan's own)",
    (r) => `${fmt(r.first.rate)} (${fmt(r.first.ownRate)})`,
    `≥ ${TARGETS.firstScanRate}: ${results.map((r) => met(r.first.rate >= TARGETS.firstScanRate)).join(' / ')}`,
  );
  row('first scan: seconds from the server start', (r) => fmt(r.first.fromStart, 1));
  row(
    'peak RSS of the server during the first scan',
    (r) => `${fmt(r.first.peakMiB)} MiB`,
    `< 300 MB (${fmt(TARGETS.peakBytes / 1024 ** 2)} MiB): ` +
      results.map((r) => met(r.first.peakMiB * 1024 ** 2 < TARGETS.peakBytes)).join(' / '),
  );
  row(
    'disk used after the first scan, of the corpus',
    (r) => diskCell(r.first.disk),
    `< ${TARGETS.diskPercent} %: ${results.map((r) => met(r.first.disk.percent < TARGETS.diskPercent)).join(' / ')}`,
  );
  row('re-scan, nothing changed', (r) => `${fmt(r.unchanged.seconds, 2)} s`);
  row(
    `re-scan after ${CHANGE_PCT} % touched, ${CHANGE_PCT} % moved, ${CHANGE_PCT} % deleted`,
    (r) => `${fmt(r.changed.seconds, 2)} s`,
  );
  row('… moved songs that kept their id', (r) => `${r.changed.keptId} / ${r.changed.moved}`, 'all');
  row('… missing / deleted', (r) => `${r.changed.scan.missing} / ${r.changed.deleted}`, 'equal');
  row(
    '… updated / touched (new mtime + new title)',
    (r) => `${r.changed.scan.updated} / ${r.changed.touched + r.changed.changed}`,
    'equal',
  );
  row(
    'page during the first scan: p99 (median window)',
    (r) => `${fmt(r.load.during.p99, 1)} (${fmt(r.load.during.p99Median, 1)}) ms`,
    `< ${TARGETS.pageP99Ms} ms: ${results.map((r) => met(r.load.during.p99 < TARGETS.pageP99Ms)).join(' / ')}`,
  );
  row(
    '… p50, req/s, windows',
    (r) => `${fmt(r.load.during.p50, 1)} ms, ${fmt(r.load.during.rps)}, ${r.load.during.windows}`,
  );
  row("… the scan's own files/s under that load", (r) => fmt(r.load.during.scanRate));
  row('page alone after it: p50 / p99', (r) => `${fmt(r.load.alone.p50, 1)} / ${fmt(r.load.alone.p99, 1)} ms`);
  if (big !== null) {
    const n = big.files.length.toLocaleString('en');
    row(
      `${n} files: first scan, files/s from the start (own)`,
      (r) => `${fmt(r.big.first.rate)} (${fmt(r.big.first.ownRate)})`,
      `≥ ${TARGETS.firstScanRate}: ${results.map((r) => met(r.big.first.rate >= TARGETS.firstScanRate)).join(' / ')}`,
    );
    row(
      `${n} files: peak RSS`,
      (r) => `${fmt(r.big.first.peakMiB)} MiB`,
      `< 300 MB: ${results.map((r) => met(r.big.first.peakMiB * 1024 ** 2 < TARGETS.peakBytes)).join(' / ')}`,
    );
    row(
      `${n} files: disk used, of the corpus`,
      (r) => diskCell(r.big.first.disk),
      `< ${TARGETS.diskPercent} %: ${results.map((r) => met(r.big.first.disk.percent < TARGETS.diskPercent)).join(' / ')}`,
    );
    row(
      `${n} files: re-scan, nothing changed`,
      (r) => `${fmt(r.big.unchanged.seconds, 2)} s`,
      `< ${TARGETS.bigRescanSeconds} s: ${results.map((r) => met(r.big.unchanged.seconds < TARGETS.bigRescanSeconds)).join(' / ')}`,
    );
  } else {
    lines.push('', `The ${BIG_FILES.toLocaleString('en')}-file corpus was left out (BENCH_BIG=0).`);
  }
  if (comparison !== null) {
    const { scan } = comparison;
    lines.push(
      '',
      `The scan beside the import (copy mode: \`npm run import -- --nice 0 --genre Pop\`, which copies each file into ` +
        `the blob store, makes cover thumbnails and checks each file's end with ffmpeg), the same ` +
        `${scan.files} files, SQLite, one after the other:`,
      '',
      '| | files/s | seconds |',
      '| --- | ---: | ---: |',
      `| scan, from the server start | ${fmt(scan.rate)} | ${fmt(scan.fromStart, 1)} |`,
      `| scan, its own figure | ${fmt(scan.ownRate)} | ${fmt(scan.ownSeconds, 1)} |`,
      `| import | ${fmt(comparison.import.rate, 1)} | ${fmt(comparison.import.seconds, 1)} |`,
      '',
      `The scan from the server start is ${fmt(scan.rate / comparison.import.rate, 1)}× the import.`,
    );
  }
  const readme = readmeImportFigure();
  if (readme !== null) {
    lines.push(
      '',
      `For reference, the last bench:import figure in bench/README.md: ${readme.rate} files/s ` +
        `(${readme.about}; ${readme.files ?? '?'} WAV files${readme.date ? `, ${readme.date}` : ''}).`,
    );
  }
  if (notes.length > 0) lines.push('', 'Noted:', '', ...notes.map((n) => `- ${n}`));
  if (failures.length > 0) lines.push('', 'Checks that failed:', '', ...failures.map((f) => `- ${f}`));
  return lines.join('\n');
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const log = (line) => console.log(`  ${line}`);
  const corpusOf = async (files) => {
    console.log(`the scan corpus of ${files} files…`);
    const made = await scanCorpus({ files, log });
    console.log(
      `  ${made.cached ? 'from the cache' : `made in ${fmt(made.seconds, 1)} s`}: ${made.root}, ` +
        `${fmt(mib(made.bytes))} MiB`,
    );
    return made;
  };
  const corpora = {
    corpus: await corpusOf(FILES),
    big: BIG ? await corpusOf(BIG_FILES) : null,
  };
  const compareCorpus = COMPARE ? await corpusOf(COMPARE_FILES) : null;

  const results = [];
  for (const dialect of DIALECTS) {
    if (dialect === 'sqlite') {
      results.push(await measureDialect('sqlite', null, corpora));
      continue;
    }
    const postgres = await startPostgres();
    if (postgres === null) continue;
    try {
      results.push(await measureDialect('postgres', postgres, corpora));
    } finally {
      await postgres.stop();
    }
  }
  const comparison = compareCorpus === null ? null : await compareImport(compareCorpus);

  const table = report(results, corpora, comparison);
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/scan.md'), `${table}\n`);
  if (failures.length > 0) process.exitCode = 1;
}

await runBench('bench:scan', main, {
  watchdogMs: watchdogSeconds() * 1000,
  cleanUp: () => {
    stopPostgresNow();
    rmSync(work, { recursive: true, force: true });
  },
});
