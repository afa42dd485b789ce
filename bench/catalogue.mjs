// `npm run bench:catalogue`: the catalogue calls at a real library's size. Seeds N songs (BENCH_SONGS, default
// 100 000) over about N/20 artists, 1 000 playlists of 50 songs, and likes, straight into the database of a fresh
// DATA_DIR (SQLite, and then a throwaway PostgreSQL when its server binaries are there), then starts the built server
// on it and measures with wrk on 127.0.0.1:
// - the whole-catalogue calls that existing clients make (`GET /api/songs`, `GET /api/songs/data`): time and bytes;
// - req/s, p50 and p99 at 64 connections for the keyset pages (GET /api/songs/page shuffled with a fixed seed: the first
//   page, and a page in the middle reached by walking the cursors once; an artist's songs; GET /api/songs/liked/page;
//   GET /api/playlists/:id/songs), a two-word search, a three-letter prefix search, Subsonic getAlbumList2 (signed in
//   with an API key), and for comparison the offset
//   pages old clients still ask for (GET /api/songs?limit&offset);
// - the stall test: a 20-song page at 8 connections alone, then while another client fetches /api/songs/data four
//   times;
// - the server's RSS before and after;
// - the web app in Chromium: the first song row of the home page and of the songs page after navigation, and the JS
//   heap (bench/first-row.mjs).
// Each wrk row also reads as a share of the Node floor: its req/s over that of a bare node:http server answering a body
// of the same size with no work at all (bench/minimal-json-server.mjs, bench:node-floor's 0 ms row), measured in the
// same run at the same connections, so a request's cost reads as a ratio that holds from machine to machine.
// With BENCH_BASELINE=<git ref>, that ref's server is built in a temporary worktree, seeded with its own code and
// measured the same way after the current one, and each row's req/s current / baseline is printed (a change's effect,
// from one run).
// Writes the table to bench/results/catalogue.md. Bounded in time; cleans up after itself.
//
// Environment: BENCH_SONGS (100000), BENCH_DURATION (10s), BENCH_CONNECTIONS (64), BENCH_BASELINE. Runs under tsx (it
// seeds with the server's TypeScript: apps/server/src/demo/synthetic-library.ts, which the large-library e2e test uses
// too).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_LIMIT_MAX } from '@tonearm/contract';
import { seedSyntheticLibraryAt } from '../apps/server/src/demo/synthetic-library.ts';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { ensureWebBuilt, root } from '../scripts/lib.mjs';
import { measureFirstRows } from './first-row.mjs';
import {
  addWorktree,
  newSeedScript,
  logIn,
  nodeFloor,
  parseDuration,
  registerAccount,
  removeWorktree,
  runBench,
  settle,
  startBuiltServer,
  stopProcess,
  treeMiB,
  wrk,
} from './support.mjs';
import { throwawayPostgres } from './postgres.mjs';

const SONGS = Number(process.env.BENCH_SONGS ?? '100000');
const DURATION = process.env.BENCH_DURATION ?? '10s';
const CONNECTIONS = process.env.BENCH_CONNECTIONS ?? '64';
const ARTISTS = Math.max(1, Math.round(SONGS / 20));
const PLAYLISTS = 1000;
const PLAYLIST_SIZE = 50;
const LIKES = 500;
const PAGE = 50;
/** The shuffle's seed of every paged song list, so each run pages the same order. */
const SEED = 1;
/** The page size of the walk to the middle of the catalogue: the largest the contract allows. */
const WALK_PAGE = PAGE_LIMIT_MAX;
const STALL_PAGE = 20;
/** Songs an album holds at most (each artist's songs in id order make its albums). */
const ALBUM_SIZE = 10;
/** The connections of the second pass over the paged rows: few enough that p99 shows the request, not the queue. */
const FEW_CONNECTIONS = '8';
const STALL_CONNECTIONS = '8';
const WHOLE_FETCHES = 4;
const BASELINE = process.env.BENCH_BASELINE?.trim() || null;
const WATCHDOG_MS =
  ((BASELINE ? 4 : 2) * (24 * (parseDuration(DURATION) + 20) + 300) + 10 * (parseDuration(DURATION) + 20) + 600) * 1000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-catalogue-'));

/**
 * Registers the administrator, a listener and a premium listener through the API (so the passwords are hashed the
 * server's way); the administrator grants the third premium.
 */
async function makeAccounts(base) {
  const accounts = [
    { username: 'bench_admin', email: 'admin@example.com', password: 'bench-password-1' },
    { username: 'bench_listener', email: 'listener@example.com', password: 'bench-password-1' },
    { username: 'bench_premium', email: 'premium@example.com', password: 'bench-password-1' },
  ];
  for (const account of accounts) await registerAccount(base, account);
  const adminCookie = await logIn(base, accounts[0]);
  const premium = await (
    await fetch(`${base}/api/auth/me`, { headers: { cookie: await logIn(base, accounts[2]) } })
  ).json();
  const granted = await fetch(`${base}/api/users/${premium.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie: adminCookie },
    body: JSON.stringify({ premium: true }),
  });
  if (!granted.ok) throw new Error(`granting premium: ${granted.status} ${await granted.text()}`);
  return accounts;
}

/** The session cookie and the stored user (GET /api/auth/me) of an account, as the web app keeps them after a login. */
async function signedIn(base, account) {
  const cookie = await logIn(base, account);
  const me = await (await fetch(`${base}/api/auth/me`, { headers: { cookie } })).json();
  return { cookie, me };
}

/** One GET timed from the first byte sent to the last byte read. */
async function timedGet(url, cookie) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return { ms: performance.now() - started, bytes: body.byteLength };
}

/** The median of three single fetches of a whole-catalogue call. */
async function wholeCall(url, cookie) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await timedGet(url, cookie));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[1];
}

/**
 * Pages through the shuffled catalogue (WALK_PAGE songs a request) until half of it is behind, and answers the cursor
 * of the page there: the benchmark then asks for that one page over and over.
 */
async function cursorToMiddle(base, cookie) {
  let cursor = null;
  let seen = 0;
  while (seen < SONGS / 2) {
    const url = `${base}/api/songs/page?limit=${WALK_PAGE}&seed=${SEED}${cursor === null ? '' : `&cursor=${cursor}`}`;
    const response = await fetch(url, { headers: { cookie } });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    const page = await response.json();
    seen += page.items.length;
    if (page.nextCursor === null) throw new Error(`the song pages ended after ${seen} of ${SONGS} songs`);
    cursor = page.nextCursor;
  }
  return cursor;
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

/**
 * Seeds a fresh database of the dialect and measures every call; answers the table rows and the figures. `variant`:
 * the server (`entry`, null for this checkout's build) and the seeding function of the code measured, and whether the
 * web app is measured too.
 */
async function measure(dialect, databaseUrl, variant = CURRENT) {
  const { label, entry, seedSyntheticLibraryAt: seed, web } = variant;
  const dataDir = join(work, `data-${dialect}-${label}`);
  mkdirSync(dataDir, { recursive: true });
  let { base, server } = await startBuiltServer({ dataDir, databaseUrl, entry });
  const [admin, listener, premium] = await makeAccounts(base);
  const adminMe = await (await fetch(`${base}/api/auth/me`, { headers: { cookie: await logIn(base, admin) } })).json();
  const me = await (await fetch(`${base}/api/auth/me`, { headers: { cookie: await logIn(base, listener) } })).json();
  await stopProcess(server);
  console.log(
    `${dialect} ${label}: seeding ${SONGS} songs, ${ARTISTS} artists, ${PLAYLISTS} playlists, ${LIKES} likes…`,
  );
  const seeded = await seed(
    { dataDir, databaseUrl },
    {
      songs: SONGS,
      artists: ARTISTS,
      playlists: { owners: [me.id, adminMe.id], count: PLAYLISTS, size: PLAYLIST_SIZE },
      likes: { userId: me.id, count: LIKES },
      albums: { size: ALBUM_SIZE },
    },
  );
  console.log(`${dialect}: seeded in ${fmt(seeded.ms / 1000, 1)} s`);
  ({ base, server } = await startBuiltServer({ dataDir, databaseUrl, entry }));
  const cookie = await logIn(base, listener);
  const headers = { cookie };
  const rssBefore = treeMiB(server.pid, 'VmRSS');
  const lines = [];
  const figures = {};
  const line = (text) => {
    lines.push(text);
    console.log(`${dialect} ${label}: ${text}`);
  };

  for (const [name, path] of [
    ['GET /api/songs (whole catalogue)', '/api/songs'],
    ['GET /api/songs/data (whole catalogue)', '/api/songs/data'],
  ]) {
    const { ms, bytes } = await wholeCall(`${base}${path}`, cookie);
    line(`| ${name} | single call | ${fmt(ms)} ms | ${fmt(bytes / 1048576, 1)} MB | | |`);
  }
  const middle = await cursorToMiddle(base, cookie);
  // The artist of the song in the middle of the catalogue: an artist with songs (some synthetic artists have none).
  const middleSong = await (await fetch(`${base}/api/songs/${Math.ceil(SONGS / 2)}`, { headers })).json();
  const artistId = middleSong.artistId;
  // Subsonic apps sign in with an API key alone (a session cookie beside it would be a second credential).
  const created = await fetch(`${base}/api/users/${me.id}/api-keys`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (!created.ok) throw new Error(`POST api-keys: ${created.status}`);
  const { key } = await created.json();
  const paged = [
    ['first page', `/api/songs/page?limit=${PAGE}&seed=${SEED}`],
    ['first page, a new seed per call', `/api/songs/page?limit=${PAGE}&seed=${SEED}`, newSeedScript(work, PAGE)],
    ['a page in the middle', `/api/songs/page?limit=${PAGE}&seed=${SEED}&cursor=${encodeURIComponent(middle)}`],
    ['an album', `/api/albums/${Math.max(1, Math.ceil(seeded.albums / 2))}`],
    ["an artist's songs", `/api/songs/page?artistId=${artistId}&limit=${PAGE}&seed=${SEED}`],
    ['liked songs', `/api/songs/liked/page?limit=${PAGE}`],
    ['a playlist', `/api/playlists/2/songs?limit=${PAGE}`],
    ['search, two words ("amber river")', '/api/search?q=amber%20river&limit=20'],
    ['search, prefix ("sil")', '/api/search?q=sil&limit=20'],
    [
      'Subsonic getAlbumList2 newest',
      `/rest/getAlbumList2?type=newest&size=${PAGE}&v=1.16.1&c=bench&f=json&apiKey=${encodeURIComponent(key)}`,
    ],
    ['old clients: first page by offset', `/api/songs?limit=${PAGE}`],
    ['old clients: a page in the middle by offset', `/api/songs?limit=${PAGE}&offset=${Math.floor(SONGS / 2)}`],
  ];
  /** A wrk row; its share of the Node floor is filled in when the table is written (withFloors). */
  const row = (name, load, result, bytes, connections) => {
    figures[name] = { ...result, bytes, connections };
    line(
      `| ${name} | ${load} | ${fmt(result.rps)} req/s | p50 ${fmt(result.p50, 1)} ms | p99 ${fmt(result.p99, 1)} ms | ` +
        `${FLOOR_CELL}${name} |`,
    );
  };
  // The 8-connection pass first: after the offset page in the middle at 64 connections, SQLite still works through the
  // queued requests for seconds, which a row measured next would count as its own p99.
  for (const connections of [FEW_CONNECTIONS, CONNECTIONS]) {
    for (const [name, path, script] of paged) {
      if (connections === FEW_CONNECTIONS && name.startsWith('old clients')) continue;
      await settle(base);
      const subsonic = path.startsWith('/rest/');
      const bytes = await bodyBytes(`${base}${path}`, subsonic ? null : cookie);
      const result = await wrk(`${base}${path}`, {
        connections,
        duration: DURATION,
        headers: subsonic ? {} : headers,
        script,
      });
      if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
      const label = connections === CONNECTIONS ? name : `${name} (${connections} conn)`;
      row(label, `${connections} conn`, result, bytes, connections);
    }
  }
  const small = `${base}/api/songs/page?limit=${STALL_PAGE}&seed=${SEED}`;
  const smallBytes = await bodyBytes(small, cookie);
  await settle(base);
  row(
    `stall test: ${STALL_PAGE}-song page, alone`,
    `${STALL_CONNECTIONS} conn`,
    await wrk(small, { connections: STALL_CONNECTIONS, duration: DURATION, headers }),
    smallBytes,
    STALL_CONNECTIONS,
  );
  await settle(base);
  let fetching = true;
  const wholeFetches = (async () => {
    for (let i = 0; i < WHOLE_FETCHES && fetching; i++) await timedGet(`${base}/api/songs/data`, cookie);
  })();
  const during = await wrk(small, { connections: STALL_CONNECTIONS, duration: DURATION, headers });
  fetching = false;
  await wholeFetches;
  row(
    `stall test: the same page while another client fetches /api/songs/data ${WHOLE_FETCHES}×`,
    `${STALL_CONNECTIONS} conn`,
    during,
    smallBytes,
    STALL_CONNECTIONS,
  );
  const rssAfter = treeMiB(server.pid, 'VmRSS');
  const peak = treeMiB(server.pid, 'VmHWM');
  line(`| server RSS | before ${fmt(rssBefore)} MiB | after ${fmt(rssAfter)} MiB | peak ${fmt(peak)} MiB | | |`);
  // The first row as each kind of account sees it: paying, or running the server, must make nothing slower (issue 26).
  const viewers = web
    ? [
        ['listener', listener],
        ['premium', premium],
        ['admin', admin],
      ]
    : [];
  for (const [who, account] of viewers) {
    const { cookie: theirs, me: user } = await signedIn(base, account);
    for (const page of await measureFirstRows(base, theirs, user)) {
      const name = who === 'listener' ? page.name : `${page.name} (${who})`;
      figures[`web: ${name}`] = page;
      line(
        `| web: ${name}, first song row painted after navigation (in the page; Playwright's wait) | Chromium | ` +
          `cold ${fmt(page.cold.inPage)} ms (${fmt(page.cold.harness)}) | ` +
          `warm ${fmt(page.warm.inPage)} ms (${fmt(page.warm.harness)}) | JS heap ${fmt(page.heapMiB, 1)} MiB | |`,
      );
    }
  }
  await stopProcess(server);
  return { lines, figures };
}

/** The placeholder of a row's floor share in its line, replaced by withFloors. */
const FLOOR_CELL = '\u0000floor:';

/** This checkout's server and seeding code. */
const CURRENT = { label: 'current', entry: null, seedSyntheticLibraryAt, web: true };

/** The uncompressed size of one answer (wrk sends no Accept-Encoding either). */
async function bodyBytes(url, cookie) {
  const response = await fetch(url, { headers: { ...(cookie && { cookie }), 'accept-encoding': 'identity' } });
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  // Subsonic answers its errors with a 200.
  if (new TextDecoder().decode(body).includes('"status":"failed"')) throw new Error(`GET ${url}: a Subsonic error`);
  return body.byteLength;
}

/** The lines with each wrk row's share of the Node floor (its req/s / the floor's at the same size and load). */
async function withFloors(run) {
  const lines = [];
  for (const text of run.lines) {
    const at = text.indexOf(FLOOR_CELL);
    if (at === -1) {
      lines.push(text);
      continue;
    }
    const name = text.slice(at + FLOOR_CELL.length, -2);
    const { rps, bytes, connections } = run.figures[name];
    const floor = await nodeFloor(bytes, connections, DURATION);
    lines.push(`${text.slice(0, at)}${fmt(rps / floor, 3)} of ${fmt(floor)} (${fmt(bytes / 1024, 1)} KB) |`);
  }
  return lines;
}

/** The baseline ref's server, built in a temporary worktree, and its own seeding code. */
let baselineDir = null;
async function baselineVariant(ref) {
  baselineDir = addWorktree(ref, join(work, 'baseline'));
  console.log(`building the baseline server (${ref})…`);
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--force'], {
    cwd: baselineDir,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error(`the baseline server (${ref}) did not build`);
  const seeding = await import(join(baselineDir, 'apps/server/src/demo/synthetic-library.ts'));
  return {
    label: `baseline ${ref}`,
    entry: join(baselineDir, 'apps/server/dist/main.js'),
    seedSyntheticLibraryAt: seeding.seedSyntheticLibraryAt,
    web: false,
  };
}

/** Each wrk row's req/s, current / baseline. */
function againstBaseline(current, baseline) {
  const lines = [`req/s, current / baseline (${BASELINE}):`, ''];
  for (const [name, result] of Object.entries(current.figures)) {
    const before = baseline.figures[name];
    if (result.rps === undefined || before?.rps === undefined) continue;
    lines.push(`- ${name}: ${fmt(result.rps)} / ${fmt(before.rps)} (${fmt(result.rps / before.rps, 2)}×)`);
  }
  return lines;
}

/** One dialect: the current server, and the baseline's after it when asked for. */
async function measureDialect(dialect, databaseUrl, baseline) {
  const current = await measure(dialect, databaseUrl(CURRENT));
  const before = baseline === null ? null : await measure(dialect, databaseUrl(baseline), baseline);
  return { current, before };
}

async function main() {
  for (const ensureBuilt of [ensureWebBuilt, ensureServerBuilt]) {
    const build = await ensureBuilt();
    if (build.code !== 0) throw new Error('the web app or the server did not build');
  }
  const baseline = BASELINE === null ? null : await baselineVariant(BASELINE);
  const date = new Date().toISOString().slice(0, 10);
  const header = [
    '| call | load | figure | | | share of the Node floor (same body, same load) |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  const section = async (title, run) => [title, '', ...header, ...(await withFloors(run)), ''];
  const sqlite = await measureDialect('sqlite', () => null, baseline);
  const sections = await section(
    `SQLite, ${SONGS} songs, ${ARTISTS} artists, ${PLAYLISTS} playlists of ${PLAYLIST_SIZE}, ${LIKES} likes; ` +
      `wrk -t2 -d${DURATION} on 127.0.0.1 (${date})`,
    sqlite.current,
  );
  if (sqlite.before !== null) {
    sections.push(...(await section(`SQLite, the baseline (${BASELINE})`, sqlite.before)));
    sections.push(...againstBaseline(sqlite.current, sqlite.before), '');
  }
  const postgres = await throwawayPostgres('tonearm_bench');
  if (postgres !== null) {
    try {
      const pg = await import('pg');
      const databaseUrl = (variant) => {
        if (variant === CURRENT) return postgres.url;
        const url = new URL(postgres.url);
        url.pathname = '/tonearm_bench_baseline';
        return url.toString();
      };
      if (baseline !== null) {
        const admin = new pg.default.Client({ connectionString: postgres.url });
        await admin.connect();
        await admin.query('create database tonearm_bench_baseline');
        await admin.end();
      }
      const pgRun = await measureDialect('postgres', databaseUrl, baseline);
      sections.push(...(await section(`PostgreSQL ${postgres.version}, the same data and load`, pgRun.current)));
      if (pgRun.before !== null) {
        sections.push(...(await section(`PostgreSQL, the baseline (${BASELINE})`, pgRun.before)));
        sections.push(...againstBaseline(pgRun.current, pgRun.before), '');
      }
      sections.push('PostgreSQL p99 / SQLite p99, and PostgreSQL req/s / SQLite req/s:', '');
      for (const [name, result] of Object.entries(pgRun.current.figures)) {
        const sqliteResult = sqlite.current.figures[name];
        if (result.p99 === undefined || sqliteResult === undefined) continue;
        sections.push(
          `- ${name}: p99 ${fmt(result.p99 / sqliteResult.p99, 2)}×, req/s ${fmt(result.rps / sqliteResult.rps, 2)}×`,
        );
      }
    } finally {
      await postgres.stop();
    }
  }
  const table = sections.join('\n');
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/catalogue.md'), `${table}\n`);
}

await runBench('bench:catalogue', main, {
  watchdogMs: WATCHDOG_MS,
  cleanUp: () => {
    if (baselineDir !== null) removeWorktree(baselineDir);
    rmSync(work, { recursive: true, force: true });
  },
});
