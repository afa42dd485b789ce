// `npm run bench:catalogue`: the catalogue calls at a real library's size. Seeds N songs (BENCH_SONGS, default
// 100 000) over about N/20 artists, 1 000 playlists of 50 songs, and likes, straight into the database of a fresh
// DATA_DIR (SQLite, and then a throwaway PostgreSQL when its server binaries are there), then starts the built server
// on it and measures with wrk on 127.0.0.1:
// - the whole-catalogue calls that existing clients make (`GET /api/songs`, `GET /api/songs/data`): time and bytes;
// - req/s, p50 and p99 at 64 connections for the keyset pages (GET /api/songs/page shuffled with a fixed seed: the first
//   page, and a page in the middle reached by walking the cursors once; an artist's songs; GET /api/songs/liked/page;
//   GET /api/playlists/:id/songs), a two-word search and a three-letter prefix search, and for comparison the offset
//   pages old clients still ask for (GET /api/songs?limit&offset);
// - the stall test: a 20-song page at 8 connections alone, then while another client fetches /api/songs/data four
//   times;
// - the server's RSS before and after.
// Writes the table to bench/results/catalogue.md. Bounded in time; cleans up after itself.
//
// Environment: BENCH_SONGS (100000), BENCH_DURATION (10s), BENCH_CONNECTIONS (64). Runs under tsx (it reads the
// contract's TypeScript).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENRES, PAGE_LIMIT_MAX } from '@tonearm/contract';
import { ensureServerBuilt, serverCommand } from '../scripts/build-server.mjs';
import { freePort } from '../scripts/free-port.mjs';
import { root } from '../scripts/lib.mjs';
import { parseDuration, runBench, startProcess, stopProcess, treeMiB, waitFor, wrk } from './support.mjs';

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
const STALL_CONNECTIONS = '8';
const WHOLE_FETCHES = 4;
const WATCHDOG_MS = (2 * (12 * (parseDuration(DURATION) + 20) + 300) + 120) * 1000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-catalogue-'));
const require = createRequire(join(root, 'apps/server/package.json'));

const WORDS = [
  'amber',
  'river',
  'silver',
  'night',
  'golden',
  'echo',
  'velvet',
  'paper',
  'glass',
  'ocean',
  'summer',
  'winter',
  'cloud',
  'ember',
  'static',
  'neon',
  'hollow',
  'wild',
  'quiet',
  'electric',
  'crimson',
  'northern',
  'lantern',
  'signal',
  'harbor',
  'marble',
  'saffron',
  'cobalt',
  'juniper',
  'willow',
  'falcon',
  'meadow',
  'thunder',
  'orchid',
  'silent',
  'copper',
  'midnight',
  'morning',
  'autumn',
  'shadow',
];

/** A deterministic pseudo-random generator, so every run seeds the same catalogue. */
function seeded(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/** Starts the built server on the benchmark's DATA_DIR; answers its base URL and process. */
async function startServer(dataDir, databaseUrl) {
  const port = await freePort();
  const [command, args, env] = serverCommand();
  const server = startProcess(command, args, {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    DEMO: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    AUTH_RATE_LIMIT: '1000',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`, server);
  return { base, server };
}

async function post(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** Registers the administrator and a listener through the API (so the passwords are hashed the server's way). */
async function makeAccounts(base) {
  const accounts = [
    { username: 'bench_admin', email: 'admin@example.com', password: 'bench-password-1' },
    { username: 'bench_listener', email: 'listener@example.com', password: 'bench-password-1' },
  ];
  for (const account of accounts) await post(`${base}/api/auth/register`, account);
  return accounts;
}

async function logIn(base, { username, password }) {
  const response = await post(`${base}/api/auth/login`, { username, password });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie) throw new Error('login: no session cookie');
  return cookie;
}

/** Every row to seed, with the ids a fresh database gives them (1, 2, 3… in insertion order, on both dialects). */
function catalogueRows(listenerId, adminId) {
  const random = seeded(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const now = new Date().toISOString();
  const title = (words) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
  const capitalised = (text) => text.replace(/\b\w/g, (c) => c.toUpperCase());
  const artists = Array.from({ length: ARTISTS }, (_, i) => [`${capitalised(title(2))} ${i + 1}`]);
  const songs = Array.from({ length: SONGS }, (_, i) => {
    const key = `bench-${(i + 1).toString(16).padStart(8, '0')}`;
    const name = capitalised(title(2 + Math.floor(random() * 2)));
    const artist = 1 + Math.floor(random() * ARTISTS);
    const duration = 180_000 + Math.floor(random() * 120_000);
    return [name, pick(GENRES), artist, `${key}.mp3`, key.padEnd(64, '0'), 'audio/mpeg', 4_000_000, duration, now];
  });
  const playlists = [];
  const entries = [];
  for (let p = 1; p <= PLAYLISTS; p++) {
    const owner = p % 2 === 0 ? listenerId : adminId;
    playlists.push([owner, `${capitalised(title(2))} mix ${p}`, 'Mix', p % 3 === 0 ? 1 : 0, now]);
    const picked = new Set();
    while (picked.size < PLAYLIST_SIZE) picked.add(1 + Math.floor(random() * SONGS));
    [...picked].forEach((song, position) => entries.push([p, song, position, now]));
  }
  const liked = new Set();
  while (liked.size < LIKES) liked.add(1 + Math.floor(random() * SONGS));
  const likes = [...liked].map((song) => [listenerId, song, now]);
  return { artists, songs, playlists, entries, likes };
}

const TABLES = [
  ['artists', 'artists', ['name']],
  [
    'songs',
    'songs',
    ['name', 'genre', 'artist_id', 'audio_key', 'audio_sha256', 'mime', 'size_bytes', 'duration_ms', 'created_at'],
  ],
  ['playlists', 'playlists', ['owner_id', 'name', 'type', 'is_public', 'created_at']],
  ['entries', 'playlist_songs', ['playlist_id', 'song_id', 'position', 'added_at']],
  ['likes', 'likes', ['user_id', 'song_id', 'created_at']],
];

/** SQLite: one prepared insert per table, each table in one transaction. */
function writeSqlite(dataDir, rows) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'tonearm.db'));
  db.pragma('journal_mode = WAL');
  for (const [key, table, columns] of TABLES) {
    const insert = db.prepare(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    );
    db.transaction(() => {
      for (const row of rows[key]) insert.run(...row);
    })();
  }
  db.close();
}

/** PostgreSQL: multi-row inserts of 1 000 rows, each table in one transaction. */
async function writePostgres(url, rows) {
  const pg = require('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [key, table, columns] of TABLES) {
      await client.query('begin');
      for (let start = 0; start < rows[key].length; start += 1000) {
        const batch = rows[key].slice(start, start + 1000);
        const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
        await client.query(`insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`, batch.flat());
      }
      await client.query('commit');
    }
    await client.query('analyze');
  } finally {
    await client.end();
  }
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

/** Seeds a fresh database of the dialect and measures every call; answers the table rows and the figures. */
async function measure(dialect, databaseUrl) {
  const dataDir = join(work, `data-${dialect}`);
  mkdirSync(dataDir, { recursive: true });
  let { base, server } = await startServer(dataDir, databaseUrl);
  const [admin, listener] = await makeAccounts(base);
  const adminMe = await (await fetch(`${base}/api/auth/me`, { headers: { cookie: await logIn(base, admin) } })).json();
  const me = await (await fetch(`${base}/api/auth/me`, { headers: { cookie: await logIn(base, listener) } })).json();
  await stopProcess(server);
  console.log(`${dialect}: seeding ${SONGS} songs, ${ARTISTS} artists, ${PLAYLISTS} playlists, ${LIKES} likes…`);
  const seeding = performance.now();
  const rows = catalogueRows(me.id, adminMe.id);
  if (databaseUrl === null) writeSqlite(dataDir, rows);
  else await writePostgres(databaseUrl, rows);
  console.log(`${dialect}: seeded in ${fmt((performance.now() - seeding) / 1000, 1)} s`);
  ({ base, server } = await startServer(dataDir, databaseUrl));
  const cookie = await logIn(base, listener);
  const headers = { cookie };
  const rssBefore = treeMiB(server.pid, 'VmRSS');
  const lines = [];
  const figures = {};
  const line = (text) => {
    lines.push(text);
    console.log(`${dialect}: ${text}`);
  };

  for (const [name, path] of [
    ['GET /api/songs (whole catalogue)', '/api/songs'],
    ['GET /api/songs/data (whole catalogue)', '/api/songs/data'],
  ]) {
    const { ms, bytes } = await wholeCall(`${base}${path}`, cookie);
    line(`| ${name} | single call | ${fmt(ms)} ms | ${fmt(bytes / 1048576, 1)} MB | |`);
  }
  const middle = await cursorToMiddle(base, cookie);
  const paged = [
    ['first page', `/api/songs/page?limit=${PAGE}&seed=${SEED}`],
    ['a page in the middle', `/api/songs/page?limit=${PAGE}&seed=${SEED}&cursor=${encodeURIComponent(middle)}`],
    ["an artist's songs", `/api/songs/page?artistId=${Math.ceil(ARTISTS / 2)}&limit=${PAGE}&seed=${SEED}`],
    ['liked songs', `/api/songs/liked/page?limit=${PAGE}`],
    ['a playlist', `/api/playlists/2/songs?limit=${PAGE}`],
    ['search, two words ("amber river")', '/api/search?q=amber%20river&limit=20'],
    ['search, prefix ("sil")', '/api/search?q=sil&limit=20'],
    ['old clients: first page by offset', `/api/songs?limit=${PAGE}`],
    ['old clients: a page in the middle by offset', `/api/songs?limit=${PAGE}&offset=${Math.floor(SONGS / 2)}`],
  ];
  const row = (name, load, result) => {
    figures[name] = result;
    line(
      `| ${name} | ${load} | ${fmt(result.rps)} req/s | p50 ${fmt(result.p50, 1)} ms | p99 ${fmt(result.p99, 1)} ms |`,
    );
  };
  for (const [name, path] of paged) {
    const result = await wrk(`${base}${path}`, { connections: CONNECTIONS, duration: DURATION, headers });
    if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
    row(name, `${CONNECTIONS} conn`, result);
  }
  const small = `${base}/api/songs/page?limit=${STALL_PAGE}&seed=${SEED}`;
  row(
    `stall test: ${STALL_PAGE}-song page, alone`,
    `${STALL_CONNECTIONS} conn`,
    await wrk(small, { connections: STALL_CONNECTIONS, duration: DURATION, headers }),
  );
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
  );
  const rssAfter = treeMiB(server.pid, 'VmRSS');
  const peak = treeMiB(server.pid, 'VmHWM');
  line(`| server RSS | before ${fmt(rssBefore)} MiB | after ${fmt(rssAfter)} MiB | peak ${fmt(peak)} MiB | |`);
  await stopProcess(server);
  return { lines, figures };
}

/** PostgreSQL when its server binaries are installed (a throwaway cluster, removed afterwards); null otherwise. */
async function throwawayPostgres() {
  const { startThrowawayPostgres } = await import('../apps/server/test/postgres-server.ts');
  try {
    const postgres = await startThrowawayPostgres();
    const pg = require('pg');
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('create database tonearm_bench');
    await admin.end();
    const url = new URL(postgres.adminUrl);
    url.pathname = '/tonearm_bench';
    return { url: url.toString(), version: postgres.version, stop: postgres.stop };
  } catch (error) {
    console.log(`PostgreSQL is not measured: ${error.message}`);
    return null;
  }
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const date = new Date().toISOString().slice(0, 10);
  const header = ['| call | load | figure | | |', '| --- | --- | ---: | ---: | ---: |'];
  const sqlite = await measure('sqlite', null);
  const sections = [
    `SQLite, ${SONGS} songs, ${ARTISTS} artists, ${PLAYLISTS} playlists of ${PLAYLIST_SIZE}, ${LIKES} likes; ` +
      `wrk -t2 -d${DURATION} on 127.0.0.1 (${date})`,
    '',
    ...header,
    ...sqlite.lines,
  ];
  const postgres = await throwawayPostgres();
  if (postgres !== null) {
    try {
      const pgRun = await measure('postgres', postgres.url);
      sections.push('', `PostgreSQL ${postgres.version}, the same data and load`, '', ...header, ...pgRun.lines, '');
      sections.push('PostgreSQL p99 / SQLite p99:', '');
      for (const [name, result] of Object.entries(pgRun.figures)) {
        sections.push(`- ${name}: ${fmt(result.p99 / sqlite.figures[name].p99, 2)}×`);
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
  cleanUp: () => rmSync(work, { recursive: true, force: true }),
});
