// `npm run bench:catalogue`: the catalogue calls at a real library's size. Seeds N songs (BENCH_SONGS, default
// 100 000) over about N/20 artists, 1 000 playlists of 50 songs, and likes, straight into the database of a fresh
// DATA_DIR (SQLite), then starts the built server on it and measures with wrk on 127.0.0.1:
// - the whole-catalogue calls that existing clients make (`GET /api/songs`, `GET /api/songs/data`): time and bytes;
// - req/s, p50 and p99 at 64 connections for the first page, a page in the middle, an artist's songs, liked songs, a
//   playlist, a two-word search and a three-letter prefix search;
// - the stall test: a small page at 8 connections alone, then while another client fetches the whole catalogue four
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
import { GENRES } from '@tonearm/contract';
import { ensureServerBuilt, serverCommand } from '../scripts/build-server.mjs';
import { freePort } from '../scripts/free-port.mjs';
import { root } from '../scripts/lib.mjs';
import { children, killAll, parseDuration, startProcess, stopProcess, treeMiB, waitFor, wrk } from './support.mjs';

const SONGS = Number(process.env.BENCH_SONGS ?? '100000');
const DURATION = process.env.BENCH_DURATION ?? '10s';
const CONNECTIONS = process.env.BENCH_CONNECTIONS ?? '64';
const ARTISTS = Math.max(1, Math.round(SONGS / 20));
const PLAYLISTS = 1000;
const PLAYLIST_SIZE = 50;
const LIKES = 500;
const PAGE = 50;
const STALL_CONNECTIONS = '8';
const WHOLE_FETCHES = 4;
const WATCHDOG_MS = (12 * (parseDuration(DURATION) + 20) + 300) * 1000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-catalogue-'));
const dataDir = join(work, 'data');
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
async function startServer() {
  const port = await freePort();
  const [command, args, env] = serverCommand();
  const server = startProcess(command, args, {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
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

/** Artists, songs, playlists and the listener's likes, written in one transaction per table. */
function seed(listenerId, adminId) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'tonearm.db'));
  db.pragma('journal_mode = WAL');
  const random = seeded(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const now = new Date().toISOString();
  const insertArtist = db.prepare('insert into artists (name) values (?)');
  const insertSong = db.prepare(
    'insert into songs (name, genre, artist_id, audio_key, audio_sha256, mime, size_bytes, duration_ms, ' +
      'image_key, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertPlaylist = db.prepare(
    'insert into playlists (owner_id, name, type, is_public, image_key, created_at) values (?, ?, ?, ?, null, ?)',
  );
  const insertEntry = db.prepare(
    'insert into playlist_songs (playlist_id, song_id, position, added_at) values (?, ?, ?, ?)',
  );
  const insertLike = db.prepare('insert or ignore into likes (user_id, song_id, created_at) values (?, ?, ?)');
  const title = (words) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
  const capitalised = (text) => text.replace(/\b\w/g, (c) => c.toUpperCase());
  db.transaction(() => {
    for (let i = 1; i <= ARTISTS; i++) insertArtist.run(`${capitalised(title(2))} ${i}`);
  })();
  db.transaction(() => {
    for (let i = 1; i <= SONGS; i++) {
      const key = `bench-${i.toString(16).padStart(8, '0')}`;
      insertSong.run(
        capitalised(title(2 + Math.floor(random() * 2))),
        pick(GENRES),
        1 + Math.floor(random() * ARTISTS),
        `${key}.mp3`,
        key.padEnd(64, '0'),
        'audio/mpeg',
        4_000_000,
        180_000 + Math.floor(random() * 120_000),
        null,
        now,
      );
    }
  })();
  db.transaction(() => {
    for (let p = 1; p <= PLAYLISTS; p++) {
      const owner = p % 2 === 0 ? listenerId : adminId;
      const { lastInsertRowid } = insertPlaylist.run(
        owner,
        `${capitalised(title(2))} mix ${p}`,
        'Mix',
        p % 3 === 0 ? 1 : 0,
        now,
      );
      const songs = new Set();
      while (songs.size < PLAYLIST_SIZE) songs.add(1 + Math.floor(random() * SONGS));
      [...songs].forEach((song, position) => insertEntry.run(lastInsertRowid, song, position, now));
    }
    for (let i = 0; i < LIKES; i++) insertLike.run(listenerId, 1 + Math.floor(random() * SONGS), now);
  })();
  db.close();
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

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  mkdirSync(dataDir, { recursive: true });
  let { base, server } = await startServer();
  const [admin, listener] = await makeAccounts(base);
  const adminCookie = await logIn(base, admin);
  const me = await (await fetch(`${base}/api/auth/me`, { headers: { cookie: await logIn(base, listener) } })).json();
  await stopProcess(server);
  console.log(`seeding ${SONGS} songs, ${ARTISTS} artists, ${PLAYLISTS} playlists, ${LIKES} likes…`);
  const seeding = performance.now();
  seed(me.id, 1);
  console.log(`seeded in ${fmt((performance.now() - seeding) / 1000, 1)} s`);
  ({ base, server } = await startServer());
  const cookie = await logIn(base, listener);
  void adminCookie;
  const rssBefore = treeMiB(server.pid, 'VmRSS');
  const headers = { cookie };
  const middle = Math.floor(SONGS / 2);
  const artistId = Math.ceil(ARTISTS / 2);
  const playlistId = 2;

  const rows = [];
  for (const [name, path] of [
    ['GET /api/songs (whole catalogue)', '/api/songs'],
    ['GET /api/songs/data (whole catalogue)', '/api/songs/data'],
  ]) {
    const { ms, bytes } = await wholeCall(`${base}${path}`, cookie);
    rows.push(`| ${name} | single call | ${fmt(ms)} ms | ${fmt(bytes / 1048576, 1)} MB | | |`);
    console.log(rows.at(-1));
  }
  const paged = [
    ['first page', `/api/songs?limit=${PAGE}`],
    ['a page in the middle', `/api/songs?limit=${PAGE}&offset=${middle}`],
    ["an artist's songs", `/api/songs?artistId=${artistId}&limit=${PAGE}`],
    ['liked songs', `/api/songs/liked?limit=${PAGE}`],
    ['a playlist', `/api/songs/playlistId/${playlistId}`],
    ['search, two words ("amber river")', '/api/search?q=amber%20river&limit=20'],
    ['search, prefix ("sil")', '/api/search?q=sil&limit=20'],
  ];
  for (const [name, path] of paged) {
    const result = await wrk(`${base}${path}`, { connections: CONNECTIONS, duration: DURATION, headers });
    if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
    rows.push(
      `| ${name} | ${CONNECTIONS} conn | ${fmt(result.rps)} req/s | p50 ${fmt(result.p50, 1)} ms | p99 ${fmt(result.p99, 1)} ms | |`,
    );
    console.log(rows.at(-1));
  }
  const small = `${base}/api/songs?limit=20`;
  const alone = await wrk(small, { connections: STALL_CONNECTIONS, duration: DURATION, headers });
  rows.push(
    `| stall test: 20-song page, alone | ${STALL_CONNECTIONS} conn | ${fmt(alone.rps)} req/s | p50 ${fmt(alone.p50, 1)} ms | p99 ${fmt(alone.p99, 1)} ms | |`,
  );
  console.log(rows.at(-1));
  let fetching = true;
  const wholeFetches = (async () => {
    for (let i = 0; i < WHOLE_FETCHES && fetching; i++) await timedGet(`${base}/api/songs/data`, cookie);
  })();
  const during = await wrk(small, { connections: STALL_CONNECTIONS, duration: DURATION, headers });
  fetching = false;
  await wholeFetches;
  rows.push(
    `| stall test: the same page while another client fetches /api/songs/data ${WHOLE_FETCHES}× | ${STALL_CONNECTIONS} conn | ${fmt(during.rps)} req/s | p50 ${fmt(during.p50, 1)} ms | p99 ${fmt(during.p99, 1)} ms | |`,
  );
  console.log(rows.at(-1));
  const rssAfter = treeMiB(server.pid, 'VmRSS');
  const peak = treeMiB(server.pid, 'VmHWM');
  rows.push(`| server RSS | before ${fmt(rssBefore)} MiB | after ${fmt(rssAfter)} MiB | peak ${fmt(peak)} MiB | | |`);
  await stopProcess(server);

  const table = [
    `SQLite, ${SONGS} songs, ${ARTISTS} artists, ${PLAYLISTS} playlists of ${PLAYLIST_SIZE}, ${LIKES} likes; ` +
      `wrk -t2 -d${DURATION} on 127.0.0.1 (${new Date().toISOString().slice(0, 10)})`,
    '',
    '| call | load | figure | | | |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/catalogue.md'), `${table}\n`);
}

function cleanUp() {
  killAll();
  rmSync(work, { recursive: true, force: true });
}

const watchdog = setTimeout(() => {
  console.error(`bench:catalogue took longer than ${WATCHDOG_MS / 1000} s; stopping`);
  cleanUp();
  process.exit(1);
}, WATCHDOG_MS);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

try {
  await main();
} catch (error) {
  console.error(`bench:catalogue failed: ${error.message}`);
  for (const child of children) console.error(child.output?.join('').slice(-2000));
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  cleanUp();
}
