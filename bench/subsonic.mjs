// `npm run bench:subsonic`: the Subsonic calls apps make most, at a real library's size (issue 13). Seeds N songs
// (BENCH_SONGS, default 100 000) over about N/20 artists, in albums of 10 (about 10 000 albums), straight into the
// database of a fresh DATA_DIR (SQLite, then a throwaway PostgreSQL when its server binaries are there), starts the
// built server on it, makes an API key for a listener, and measures with wrk on 127.0.0.1 req/s, p50, p90 and p99 of:
// - search3 with two words, and with one three-letter prefix;
// - search3 with an empty query, a page of 100 songs in the middle of the catalogue (how Symfonium syncs a library);
// - getAlbumList2: newest, alphabeticalByName at an offset in the middle, random, byGenre;
// each at BENCH_CONNECTIONS (64) and at 8 connections. In the same run, the reference: a bare node:http server
// answering a body of the same size (bench/minimal-json-server.mjs) with no work at all, and after 1 ms of synchronous
// work (about what one of these calls costs), at the same loads: at 64 connections the second one's p99 is the floor
// any Node server doing that much work per call shows on this machine (see bench:node-floor). Each call's row also
// reads as a share of the Node floor: its req/s over the bare server's with no work and a body of the same size, at
// the same load, measured in the same run (a ratio that holds from machine to machine).
// Writes the table to bench/results/subsonic.md. Bounded in time; cleans up after itself.
//
// Environment: BENCH_SONGS (100000), BENCH_DURATION (10s), BENCH_CONNECTIONS (64). Runs under tsx (it seeds with the
// server's TypeScript: apps/server/src/demo/synthetic-library.ts).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedSyntheticLibraryAt } from '../apps/server/src/demo/synthetic-library.ts';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { freePort } from '../scripts/free-port.mjs';
import { root } from '../scripts/lib.mjs';
import {
  logIn,
  nodeFloor,
  parseDuration,
  post,
  registerAccount,
  runBench,
  settle,
  startBuiltServer,
  startProcess,
  stopProcess,
  waitFor,
  wrk,
} from './support.mjs';
import { throwawayPostgres } from './postgres.mjs';

const SONGS = Number(process.env.BENCH_SONGS ?? '100000');
const DURATION = process.env.BENCH_DURATION ?? '10s';
const CONNECTIONS = process.env.BENCH_CONNECTIONS ?? '64';
const LOW_CONNECTIONS = '8';
const ARTISTS = Math.max(1, Math.round(SONGS / 20));
const ALBUM_SIZE = 10;
const CALLS = 8;
const WATCHDOG_MS = (2 * (CALLS * 2 * (parseDuration(DURATION) + 20) + 300) + 240) * 1000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-subsonic-'));
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

/** The calls measured, as paths with their own parameters (the credentials are added). */
function calls() {
  const middle = Math.floor(SONGS / 2);
  const albums = Math.floor(SONGS / ALBUM_SIZE);
  return [
    ['search3, two words ("amber river")', 'search3?query=amber%20river'],
    ['search3, prefix ("sil")', 'search3?query=sil'],
    [
      'search3, empty query: 100 songs in the middle',
      `search3?query=&artistCount=0&albumCount=0&songCount=100&songOffset=${middle}`,
    ],
    ['getAlbumList2 newest', 'getAlbumList2?type=newest&size=50'],
    [
      'getAlbumList2 alphabeticalByName, middle',
      `getAlbumList2?type=alphabeticalByName&size=50&offset=${Math.floor(albums / 2)}`,
    ],
    ['getAlbumList2 random', 'getAlbumList2?type=random&size=50'],
    ['getAlbumList2 byGenre (Rock)', 'getAlbumList2?type=byGenre&genre=Rock&size=50'],
    ['getAlbumList2 alphabeticalByArtist', 'getAlbumList2?type=alphabeticalByArtist&size=50'],
  ];
}

/** Measures `url` at both loads; fails on any non-2xx answer. */
async function twoLoads(url, base) {
  const results = {};
  for (const connections of [CONNECTIONS, LOW_CONNECTIONS]) {
    if (base !== null) await settle(base);
    const result = await wrk(url, { connections, duration: DURATION });
    if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
    results[connections] = result;
  }
  return results;
}

/** A row; with `bytes`, its req/s as a share of the Node floor at that body size and load (support.mjs nodeFloor). */
const rowOf = async (name, connections, r, bytes = null) => {
  const share = bytes === null ? '' : ` ${fmt(r.rps / (await nodeFloor(bytes, connections, DURATION)), 3)} |`;
  return `| ${name} | ${connections} | ${fmt(r.rps)} | ${fmt(r.p50, 1)} ms | ${fmt(r.p90, 1)} ms | ${fmt(r.p99, 1)} ms |${share}`;
};

/** Seeds a fresh database of the dialect and measures every call; answers the rows and the answers' sizes. */
async function measure(dialect, databaseUrl) {
  const dataDir = join(work, `data-${dialect}`);
  mkdirSync(dataDir, { recursive: true });
  let { base, server } = await startBuiltServer({ dataDir, databaseUrl });
  const admin = { username: 'bench_admin', email: 'admin@example.com', password: 'bench-password-1' };
  const listener = { username: 'bench_listener', email: 'listener@example.com', password: 'bench-password-1' };
  for (const account of [admin, listener]) await registerAccount(base, account);
  await stopProcess(server);
  console.log(`${dialect}: seeding ${SONGS} songs, ${ARTISTS} artists, albums of ${ALBUM_SIZE}…`);
  const seeded = await seedSyntheticLibraryAt(
    { dataDir, databaseUrl },
    { songs: SONGS, artists: ARTISTS, albums: { size: ALBUM_SIZE } },
  );
  console.log(`${dialect}: seeded ${seeded.albums} albums in ${fmt(seeded.ms / 1000, 1)} s`);
  ({ base, server } = await startBuiltServer({ dataDir, databaseUrl }));
  const cookie = await logIn(base, listener);
  const me = await (await fetch(`${base}/api/auth/me`, { headers: { cookie } })).json();
  const created = await post(`${base}/api/users/${me.id}/api-keys`, { name: 'bench' }, { cookie });
  const { key } = await created.json();
  const lines = [];
  const sizes = [];
  for (const [name, path] of calls()) {
    const url = `${base}/rest/${path}&f=json&apiKey=${encodeURIComponent(key)}`;
    const probe = await fetch(url);
    const body = await probe.text();
    const answer = JSON.parse(body)['subsonic-response'];
    if (answer.status !== 'ok') throw new Error(`${name}: ${body.slice(0, 300)}`);
    sizes.push(Buffer.byteLength(body));
    const results = await twoLoads(url, base);
    for (const [connections, result] of Object.entries(results).reverse()) {
      const bytes = Buffer.byteLength(body);
      const line = await rowOf(`${name} (${fmt(bytes / 1024, 1)} KB)`, connections, result, bytes);
      lines.push(line);
      console.log(`${dialect}: ${line}`);
    }
  }
  await stopProcess(server);
  return { lines, sizes };
}

/**
 * The reference in the same run: node:http answering a body of `bytes` bytes after `workMs` of synchronous work (0: a
 * server doing nothing; 1: about what one of these calls costs), at both loads.
 */
async function reference(bytes, workMs) {
  const port = await freePort();
  const child = startProcess(process.execPath, [
    join(root, 'bench/minimal-json-server.mjs'),
    String(port),
    String(workMs),
    String(bytes),
  ]);
  try {
    await waitFor(`http://127.0.0.1:${port}/`, child);
    const results = await twoLoads(`http://127.0.0.1:${port}/`, null);
    const rows = [];
    for (const [connections, result] of Object.entries(results).reverse()) {
      rows.push(
        await rowOf(
          `reference: bare node:http, ${fmt(bytes / 1024, 1)} KB after ${workMs} ms of work`,
          connections,
          result,
        ),
      );
    }
    return rows;
  } finally {
    await stopProcess(child);
  }
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const date = new Date().toISOString().slice(0, 10);
  const header = [
    '| call | connections | req/s | p50 | p90 | p99 | share of the Node floor (same body, same load) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const sqlite = await measure('sqlite', null);
  const median = [...sqlite.sizes].sort((a, b) => a - b)[Math.floor(sqlite.sizes.length / 2)];
  const sections = [
    `SQLite, ${SONGS} songs, ${ARTISTS} artists, albums of ${ALBUM_SIZE}; API key auth, f=json; ` +
      `wrk -t2 -d${DURATION} on 127.0.0.1 (${date})`,
    '',
    ...header,
    ...sqlite.lines,
    ...(await reference(median, 0)),
    ...(await reference(median, 1)),
  ];
  const postgres = await throwawayPostgres('tonearm_bench');
  if (postgres !== null) {
    try {
      const pgRun = await measure('postgres', postgres.url);
      sections.push('', `PostgreSQL ${postgres.version}, the same data and load`, '', ...header, ...pgRun.lines);
    } finally {
      await postgres.stop();
    }
  }
  const table = sections.join('\n');
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/subsonic.md'), `${table}\n`);
}

await runBench('bench:subsonic', main, {
  watchdogMs: WATCHDOG_MS,
  cleanUp: () => rmSync(work, { recursive: true, force: true }),
});
