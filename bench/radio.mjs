// `npm run bench:radio`: song radio's latency at a real library's size (issue 28: "at 100 000 songs a radio answers in
// under 50 ms p99 at 8 connections"). Seeds BENCH_SONGS songs (100 000) with the catalogue benchmarks' synthetic
// library (apps/server/src/demo/synthetic-library.ts: about N/20 artists, albums of 10 with a year, genres drawn from
// the contract's list), gives every song an audio feature vector as the analysis stores it (song_features: version,
// FEATURE_LENGTH little-endian float32 raw measures, analysed_at, audio_key), drawn in clusters (a sound per artist
// around one of a few dozen styles, so the index has structure to find), and a listening history (BENCH_LISTENS
// listens in sessions of songs of one style, with skips among the plays), all straight into a fresh DATA_DIR. Then:
// - the radio's vector index built in this process with the radio's own code (its repository's read of the vectors,
//   then VectorIndex.build), timed;
// - the built server started on it; the first radio request after the start (which builds the index on the server's
//   event loop), with a second radio request and a catalogue page sent 100 ms after it: whether they wait for the build;
// - with wrk on 127.0.0.1, at each of BENCH_CONNECTIONS (8 and 64) for BENCH_DURATION (15s): POST /api/radio/next (a
//   fresh radio of one seed song, a different seed each request, 20 songs) and, in the same run, a plain catalogue page
//   (GET /api/songs/page?limit=20: as many songs), req/s, p50, p99 and the radio / page ratios;
// - one vector changed in the database (as the analysis writes one): the radio request that sees the new stamp
//   rebuilds the index; its latency, and a page's sent during it;
// - the server's RSS before the first radio request, after the index was built, and its peak.
// Prints the table and writes it to bench/results/radio.md. Bounded in time; cleans up after itself.
//
// Environment: BENCH_SONGS (100000), BENCH_LISTENS (as many as songs), BENCH_DURATION (15s), BENCH_CONNECTIONS
// (8,64), BENCH_DIALECTS (sqlite; sqlite,postgres adds a throwaway PostgreSQL). A quick check that it runs:
// BENCH_SONGS=2000 BENCH_DURATION=3s npm run bench:radio. BENCH_DATA_DIR=/some/dir keeps the SQLite library there
// and reuses it on the next run (same BENCH_SONGS). BENCH_NODE_ARGS (space-separated) go to the server's node, for
// example "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where a radio's time goes; BENCH_SERVER_LOG=file keeps the
// server's output (with "--trace-gc", its collections). Runs under tsx (it seeds and builds the index with the
// server's TypeScript).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedSyntheticLibraryAt } from '../apps/server/src/demo/synthetic-library.ts';
import { createDatabase } from '../apps/server/src/db/database.ts';
import {
  encodeVector,
  FEATURE_LENGTH,
  FEATURE_NAMES,
  FEATURE_VERSION,
} from '../apps/server/src/modules/analysis/feature-layout.ts';
import { createRadioRepository } from '../apps/server/src/modules/radio/radio.repository.ts';
import { seededRandom, VectorIndex } from '../apps/server/src/modules/radio/vector-index.ts';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import { throwawayPostgres } from './postgres.mjs';
import {
  logIn,
  parseDuration,
  registerAccount,
  runBench,
  settle,
  startBuiltServer,
  stopProcess,
  treeMiB,
  wrk,
} from './support.mjs';

const SONGS = Number(process.env.BENCH_SONGS ?? '100000');
const LISTENS = Number(process.env.BENCH_LISTENS ?? String(SONGS));
const DURATION = process.env.BENCH_DURATION ?? '15s';
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '8,64').split(',').map(Number);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite').split(',');
const ARTISTS = Math.max(1, Math.round(SONGS / 20));
const ALBUM_SIZE = 10;
/** Styles the vectors cluster around; each artist has a sound of its own near one of them. */
const STYLES = Math.max(4, Math.min(60, Math.round(SONGS / 1000)));
/** Listeners of the history (about 1 000 listens each), and songs a session (one hour, one style). */
const LISTENERS = Math.max(2, Math.round(LISTENS / 1000));
const SESSION = 10;
/** Plays that never became a listen (skips), per listen. */
const SKIP_SHARE = 0.2;
const BATCH = 20;
const PAGE = `/api/songs/page?limit=${BATCH}`;
/** The radio's stamp is read at most this often (radio.service.ts's STAMP_CHECK_MS), plus a margin. */
const STAMP_WAIT_MS = 6000;
const TARGET_P99_MS = 50;
const TARGET_CONNECTIONS = 8;
const CHUNK = 1000;
const WATCHDOG_MS =
  DIALECTS.length * (1200 + SONGS / 100 + CONNECTIONS.length * 2 * (parseDuration(DURATION) + 30)) * 1000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-radio-'));
/** BENCH_DATA_DIR: where the SQLite library is seeded once and kept, to measure it again without seeding. */
const KEPT = process.env.BENCH_DATA_DIR;
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const listener = { username: 'bench_listener', email: 'listener@example.com', password: 'bench-password-1' };

/**
 * Rough typical values and spreads across songs of the analyser's raw measures (audio-features.ts: dB, shares, Hz on
 * log2 scales, MFCCs, log2 BPM…), by name. The index z-scores every dimension, so only the clusters' shape matters to
 * it; these keep the stored numbers looking like what the analysis writes.
 */
function scaleOf(name) {
  if (/^mfcc1(Spread)?$/.test(name)) return name.endsWith('Spread') ? [40, 10] : [-250, 60];
  if (name.startsWith('mfcc')) return name.endsWith('Spread') ? [12, 4] : [0, 15];
  if (name.startsWith('contrast')) return [20, 5];
  if (name === 'tempo') return [Math.log2(120), 0.3];
  if (name.startsWith('centroid') || name.startsWith('rolloff') || name === 'spread') return [11, 0.8];
  if (name.startsWith('zcr') || name.startsWith('flatness')) return [0.08, 0.04];
  if (/Rate$/.test(name)) return [3, 1.2];
  if (name === 'loudnessSpread' || name === 'dynamicRange') return [8, 3];
  return [0.5, 0.2];
}

/** A normal deviate from a uniform generator (Box–Muller). */
function gaussian(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * Every song's raw vector and style: a style's centre, an artist's sound near it, a song near its artist's sound (one
 * song in five away from its artist's, in another style). Answers the vectors (index = song id - 1) and each song's
 * style.
 */
function clusteredVectors(artistOf) {
  const random = seededRandom(28);
  const scales = FEATURE_NAMES.map(scaleOf);
  const around = (centre, spread) => centre.map((x, d) => x + spread * scales[d][1] * gaussian(random));
  const styles = Array.from({ length: STYLES }, () =>
    around(
      scales.map(([mean]) => mean),
      1,
    ),
  );
  const artistStyle = Array.from({ length: ARTISTS + 1 }, () => Math.floor(random() * STYLES));
  const artistSound = artistStyle.map((style) => around(styles[style], 0.3));
  const vectors = [];
  const styleOf = new Int32Array(artistOf.length);
  artistOf.forEach((artistId, index) => {
    const away = random() < 0.2;
    const style = away ? Math.floor(random() * STYLES) : artistStyle[artistId];
    styleOf[index] = style;
    vectors.push(Float32Array.from(around(away ? styles[style] : artistSound[artistId], 0.35)));
  });
  return { vectors, styleOf };
}

async function insertChunked(rows, insert) {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

/**
 * What the synthetic library leaves out and the radio reads: each song's year (its album's), its vector, listeners and
 * their listening history (sessions of one style within an hour; a fifth as many skipped plays besides). Answers the
 * time taken.
 */
async function seedRadioData({ dataDir, databaseUrl }) {
  const started = performance.now();
  const database = createDatabase({ dataDir, databaseUrl });
  const { db } = database;
  try {
    const songs = await db.selectFrom('songs').select(['id', 'artist_id', 'audio_key']).orderBy('id').execute();
    const { vectors, styleOf } = clusteredVectors(songs.map((song) => song.artist_id ?? 0));
    const byStyle = Array.from({ length: STYLES }, () => []);
    songs.forEach((song, index) => byStyle[styleOf[index]].push(song.id));
    const createdAt = new Date().toISOString();
    const random = seededRandom(280);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const users = Array.from({ length: LISTENERS }, (_, i) => ({
      username: `bench_history_${i + 1}`,
      email: `history${i + 1}@example.com`,
      password_hash: 'x',
      gender: null,
      address: null,
      role: 'USER',
      premium_until: null,
      image_key: null,
      subsonic_secret: null,
      created_at: createdAt,
    }));
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('songs')
        .set((eb) => ({
          year: eb
            .selectFrom('album_tracks')
            .innerJoin('albums', 'albums.id', 'album_tracks.album_id')
            .select('albums.year')
            .whereRef('album_tracks.song_id', '=', 'songs.id'),
        }))
        .execute();
      const features = songs.map((song, index) => ({
        song_id: song.id,
        version: FEATURE_VERSION,
        vector: encodeVector(vectors[index]),
        failed: null,
        analysed_at: createdAt,
        audio_key: song.audio_key,
      }));
      await insertChunked(features, (chunk) => trx.insertInto('song_features').values(chunk).execute());
      await insertChunked(users, (chunk) => trx.insertInto('users').values(chunk).execute());
      const userIds = (
        await trx.selectFrom('users').select('id').where('username', 'like', 'bench_history_%').execute()
      )
        .map((row) => row.id)
        .sort((a, b) => a - b);
      const listens = [];
      const plays = [];
      const start = Date.parse('2026-01-01T00:00:00Z');
      for (let n = 0; listens.length < LISTENS; n++) {
        const userId = userIds[n % userIds.length];
        const hour = start + Math.floor(n / userIds.length) * 3_600_000;
        const style = pick(byStyle.filter((list) => list.length > 0));
        for (let i = 0; i < SESSION && listens.length < LISTENS; i++) {
          const at = (minutes) => new Date(hour + minutes * 60_000).toISOString();
          const songId = pick(style);
          listens.push({
            user_id: userId,
            song_id: songId,
            played_at: at(i * 5),
            listened_ms: 180_000,
            source: 'web',
            client: null,
          });
          plays.push({ user_id: userId, song_id: songId, played_at: at(i * 5) });
          if (random() < SKIP_SHARE) plays.push({ user_id: userId, song_id: pick(style), played_at: at(i * 5 + 3) });
        }
      }
      // Each listen of a session has its own minute, each session its own hour: listens' unique key holds.
      await insertChunked(listens, (chunk) => trx.insertInto('listens').values(chunk).execute());
      await insertChunked(plays, (chunk) => trx.insertInto('plays').values(chunk).execute());
    });
    return performance.now() - started;
  } finally {
    await database.destroy();
  }
}

/** The radio's own read of the vectors and its index build, in this process: the time of each. */
async function buildIndexHere({ dataDir, databaseUrl }) {
  const database = createDatabase({ dataDir, databaseUrl });
  try {
    const repository = createRadioRepository(database.db);
    const t0 = performance.now();
    const vectors = await repository.latestVectors();
    const t1 = performance.now();
    const index = VectorIndex.build(vectors);
    const t2 = performance.now();
    return { readMs: t1 - t0, buildMs: t2 - t1, size: index.size, mib: index.bytes() / 1048576 };
  } finally {
    await database.destroy();
  }
}

/** One request timed from the first byte sent to the last byte read; throws unless 2xx. */
async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status}`);
  return { ms: performance.now() - started, bytes: body.byteLength, body };
}

function radioRequest(base, cookie, seedId) {
  return timed(`${base}/api/radio/next`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ seedIds: [seedId], historyIds: [], count: BATCH }),
  });
}

/**
 * A radio request, and 100 ms later a second radio request (another seed) and a catalogue page: the first pays for an
 * index (re)build when there is one to make; the others show whether they wait for it.
 */
async function duringBuild(base, cookie, seeds) {
  const first = radioRequest(base, cookie, seeds[0]);
  await sleep(100);
  const [radio, page] = await Promise.all([
    radioRequest(base, cookie, seeds[1]),
    timed(`${base}${PAGE}`, { headers: { cookie } }),
  ]);
  return { first: (await first).ms, radio: radio.ms, page: page.ms };
}

/** The median of five radio requests one after another (other seeds). */
async function warmRadio(base, cookie, seeds) {
  const times = [];
  for (const seed of seeds) times.push((await radioRequest(base, cookie, seed)).ms);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * A wrk script POSTing a fresh radio of one seed song, a different seed each request (each thread walks its own
 * sequence over the song ids 1…SONGS).
 */
function radioScript() {
  const file = join(work, 'radio.lua');
  const lines = [
    'local threads = 0',
    'function setup(thread) threads = threads + 1; thread:set("id", threads) end',
    'function init(args) seed = (id * 104729) % 2147483647 end',
    'function request()',
    '  seed = (seed * 48271) % 2147483647',
    `  local song = 1 + seed % ${SONGS}`,
    `  local body = string.format('{"seedIds":[%d],"historyIds":[],"count":${BATCH}}', song)`,
    '  return wrk.format("POST", "/api/radio/next", nil, body)',
    'end',
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** Song ids spread over the catalogue, drawn from a seed (the probes' seeds, never the wrk scripts'). */
function someSongs(count, seed) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => 1 + Math.floor(random() * SONGS));
}

/** Seeds the library, vectors and listens into a fresh DATA_DIR (and database), then leaves `marker`. */
async function seedLibrary(dialect, dataDir, databaseUrl, marker) {
  mkdirSync(dataDir, { recursive: true });
  const { base, server } = await startBuiltServer({ dataDir, databaseUrl });
  await registerAccount(base, { username: 'bench_admin', email: 'admin@example.com', password: 'bench-password-1' });
  await registerAccount(base, listener);
  await stopProcess(server);
  console.log(`${dialect}: seeding ${SONGS} songs, ${ARTISTS} artists, albums of ${ALBUM_SIZE}…`);
  const seeded = await seedSyntheticLibraryAt({ dataDir, databaseUrl }, { songs: SONGS, albums: { size: ALBUM_SIZE } });
  console.log(`${dialect}: seeded in ${fmt(seeded.ms / 1000, 1)} s; vectors, years and ${LISTENS} listens…`);
  const extraMs = await seedRadioData({ dataDir, databaseUrl });
  console.log(`${dialect}: in ${fmt(extraMs / 1000, 1)} s`);
  writeFileSync(marker, `${SONGS}\n`);
}

/** Seeds a database of the dialect (or reuses BENCH_DATA_DIR's) and measures it; answers the lines of its section. */
async function measure(dialect, databaseUrl) {
  const dataDir = join(KEPT ?? work, `data-${dialect}`);
  const marker = join(dataDir, 'bench-radio-seeded');
  if (databaseUrl === null && existsSync(marker)) console.log(`${dialect}: reusing the library seeded in ${dataDir}`);
  else await seedLibrary(dialect, dataDir, databaseUrl, marker);
  console.log(`${dialect}: building the index here…`);
  const here = await buildIndexHere({ dataDir, databaseUrl });
  console.log(
    `${dialect}: index of ${here.size} vectors: read ${fmt(here.readMs)} ms, built ${fmt(here.buildMs)} ms ` +
      `(${fmt(here.mib, 1)} MiB)`,
  );

  const { base, server } = await startBuiltServer({ dataDir, databaseUrl, nodeArgs: NODE_ARGS });
  const cookie = await logIn(base, listener);
  const headers = { cookie };
  const rssBefore = treeMiB(server.pid, 'VmRSS');
  const start = await duringBuild(base, cookie, someSongs(2, 1));
  const rssBuilt = treeMiB(server.pid, 'VmRSS');
  const warm = await warmRadio(base, cookie, someSongs(5, 2));
  const sample = await radioRequest(base, cookie, someSongs(1, 3)[0]);
  const answered = JSON.parse(new TextDecoder().decode(sample.body)).songIds.length;
  if (answered < BATCH) throw new Error(`the radio answered ${answered} songs of ${BATCH}`);
  const pageBytes = (await timed(`${base}${PAGE}`, { headers })).bytes;
  console.log(
    `${dialect}: first radio request ${fmt(start.first)} ms; 100 ms later a radio ${fmt(start.radio)} ms and a page ` +
      `${fmt(start.page)} ms; warm radio ${fmt(warm, 1)} ms`,
  );

  const script = radioScript();
  const rows = [];
  for (const connections of CONNECTIONS) {
    const result = {};
    for (const [name, url, options] of [
      ['radio', `${base}/api/radio/next`, { script, headers: { ...headers, 'content-type': 'application/json' } }],
      ['page', `${base}${PAGE}`, { headers }],
    ]) {
      await settle(base);
      result[name] = await wrk(url, { connections, duration: DURATION, ...options });
      if (result[name].non2xx > 0) throw new Error(`${name}: ${result[name].non2xx} non-2xx answers`);
      const { rps, p50, p99 } = result[name];
      console.log(
        `${dialect}: ${name} at ${connections}: ${fmt(rps)} req/s, p50 ${fmt(p50, 1)}, p99 ${fmt(p99, 1)} ` +
          result[name].socketErrors,
      );
    }
    rows.push({ connections, ...result });
  }

  // The analysis writes a vector: the next stamp check (at most every 5 s) sees it and the index is built again.
  await settle(base);
  const database = createDatabase({ dataDir, databaseUrl });
  try {
    await database.db
      .updateTable('song_features')
      .set({ analysed_at: new Date().toISOString() })
      .where('song_id', '=', 1)
      .execute();
  } finally {
    await database.destroy();
  }
  await sleep(STAMP_WAIT_MS);
  const rebuild = await duringBuild(base, cookie, someSongs(2, 4));
  const peak = treeMiB(server.pid, 'VmHWM');
  await stopProcess(server);
  if (process.env.BENCH_SERVER_LOG) writeFileSync(process.env.BENCH_SERVER_LOG, server.output.join(''));

  const seedKb = fmt(sample.bytes / 1024, 1);
  const pageKb = fmt(pageBytes / 1024, 1);
  const lines = [
    `| call | connections | req/s | p50 ms | p99 ms | wrk's socket errors (timeouts over 5 s) |`,
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| POST /api/radio/next, one seed song, ${BATCH} songs (${seedKb} KB) | ${row.connections} | ${fmt(row.radio.rps)} | ` +
        `${fmt(row.radio.p50, 1)} | ${fmt(row.radio.p99, 1)} | ${row.radio.socketErrors || 'none'} |`,
      `| GET ${PAGE} (${pageKb} KB) | ${row.connections} | ${fmt(row.page.rps)} | ${fmt(row.page.p50, 1)} | ` +
        `${fmt(row.page.p99, 1)} | ${row.page.socketErrors || 'none'} |`,
      `| radio / page | ${row.connections} | ${fmt(row.radio.rps / row.page.rps, 2)}× | ` +
        `${fmt(row.radio.p50 / row.page.p50, 2)}× | ${fmt(row.radio.p99 / row.page.p99, 2)}× | |`,
    );
  }
  const atTarget = rows.find((row) => row.connections === TARGET_CONNECTIONS);
  lines.push(
    '',
    atTarget
      ? `Target, radio p99 < ${TARGET_P99_MS} ms at ${TARGET_CONNECTIONS} connections: ${fmt(atTarget.radio.p99, 1)} ms, ` +
          `${atTarget.radio.p99 < TARGET_P99_MS ? 'met' : '**missed**'}.`
      : `Target (${TARGET_CONNECTIONS} connections) not measured.`,
    '',
    '| the vector index | ms |',
    '| --- | ---: |',
    `| read the vectors (radio.repository latestVectors, in the bench's process) | ${fmt(here.readMs)} |`,
    `| build the index of ${here.size} vectors (VectorIndex.build, in the bench's process; ${fmt(here.mib, 1)} MiB) | ` +
      `${fmt(here.buildMs)} |`,
    `| server: the first radio request after the start (reads the vectors, builds the index) | ${fmt(start.first)} |`,
    `| … a radio request sent 100 ms after it | ${fmt(start.radio)} |`,
    `| … a catalogue page sent 100 ms after it | ${fmt(start.page)} |`,
    `| server: a radio request once the index is built (median of 5, one at a time) | ${fmt(warm, 1)} |`,
    `| server: the first radio request after one vector changed (as the analysis writes one) | ${fmt(rebuild.first)} |`,
    `| … a radio request sent 100 ms after it | ${fmt(rebuild.radio)} |`,
    `| … a catalogue page sent 100 ms after it | ${fmt(rebuild.page)} |`,
    '',
    `Server RSS: ${fmt(rssBefore)} MiB before the first radio request, ${fmt(rssBuilt)} MiB after it, ` +
      `peak ${fmt(peak)} MiB.`,
  );
  return lines;
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const date = new Date().toISOString().slice(0, 10);
  const sections = [];
  const title =
    `${SONGS} songs with audio vectors (${FEATURE_LENGTH} dimensions, ${STYLES} styles), ${ARTISTS} artists, albums ` +
    `of ${ALBUM_SIZE}, ${LISTENS} listens by ${LISTENERS} listeners; wrk -t2 -d${DURATION} on 127.0.0.1 (${date})`;
  for (const dialect of DIALECTS) {
    if (dialect === 'sqlite') {
      sections.push(`SQLite, ${title}`, '', ...(await measure('sqlite', null)), '');
    } else if (dialect === 'postgres') {
      const postgres = await throwawayPostgres('tonearm_bench_radio');
      if (postgres === null) continue;
      try {
        sections.push(`PostgreSQL ${postgres.version}, ${title}`, '', ...(await measure('postgres', postgres.url)), '');
      } finally {
        await postgres.stop();
      }
    } else {
      throw new Error(`BENCH_DIALECTS: unknown dialect ${dialect}`);
    }
  }
  const table = sections.join('\n');
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/radio.md'), `${table}\n`);
}

await runBench('bench:radio', main, {
  watchdogMs: WATCHDOG_MS,
  cleanUp: () => rmSync(work, { recursive: true, force: true }),
});
