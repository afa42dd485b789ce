// `npm run bench:profile`: where a catalogue request's CPU goes. Seeds BENCH_SONGS songs (default 100 000, albums of
// 10, 1 000 playlists of 50 songs and 500 likes of the listener's) into a fresh SQLite DATA_DIR (BENCH_DIALECT=postgres:
// a throwaway PostgreSQL), starts the built server under `--cpu-prof` once per call measured (the first page of a seeded
// shuffle and of a new seed on every call, an album, a two-word and a prefix search, Subsonic getAlbumList2), keeps it
// busy with wrk at 8 connections for BENCH_DURATION, stops it, and reads the profile: the share of the samples spent in
// each function (self time, mapped back to the TypeScript source through the bundle's source map) and in each part
// (SQLite, PostgreSQL driver, Fastify, serialisation, JSON, our code, idle). Writes bench/results/profile.md. Bounded in
// time; cleans up after itself.
//
// Environment: BENCH_SONGS (100000), BENCH_DURATION (10s), BENCH_DIALECT (sqlite), BENCH_TOP (25), BENCH_CALLS
// (page,new-seed,album,search,prefix,subsonic: which calls).
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedSyntheticLibraryAt } from '../apps/server/src/demo/synthetic-library.ts';
import { ensureServerBuilt, serverEntry } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import { throwawayPostgres } from './postgres.mjs';
import {
  logIn,
  newSeedScript,
  post,
  registerAccount,
  runBench,
  startBuiltServer,
  stopProcess,
  wrk,
} from './support.mjs';

const SONGS = Number(process.env.BENCH_SONGS ?? '100000');
const DURATION = process.env.BENCH_DURATION ?? '10s';
const DIALECT = process.env.BENCH_DIALECT ?? 'sqlite';
const TOP = Number(process.env.BENCH_TOP ?? '25');
const CALLS = (process.env.BENCH_CALLS ?? 'page,new-seed,album,search,prefix,subsonic').split(',');
const CONNECTIONS = '8';
const work = mkdtempSync(join(tmpdir(), 'tonearm-profile-'));

/** Loads the source maps of the bundle's files, so a profile's frames name TypeScript files and lines. */
function sourceMaps() {
  const maps = new Map();
  const dist = join(root, 'apps/server/dist');
  const files = ['main.js', ...readdirSync(join(dist, 'chunks')).map((name) => `chunks/${name}`)];
  for (const file of files.filter((name) => name.endsWith('.js'))) {
    try {
      const payload = JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8'));
      maps.set(`file://${join(dist, file)}`, new SourceMap(payload));
    } catch {
      // A chunk without a map is named by its bundle line.
    }
  }
  return maps;
}

/** Where a profile frame's code lives: a TypeScript file and line when the bundle's map knows it. */
function place(frame, maps) {
  const map = maps.get(frame.url);
  if (map !== undefined) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry?.originalSource) {
      const source = entry.originalSource.replace(/^.*?\/(apps|packages)\//, '$1/');
      return `${source}:${entry.originalLine + 1}`;
    }
  }
  if (frame.url === '') return '(native)';
  return `${frame.url.replace(/^file:\/\//, '').replace(/^.*?node_modules\//, '')}:${frame.lineNumber + 1}`;
}

/** The part of the stack a frame belongs to, for the summary row. */
function part(frame, where) {
  const name = frame.functionName;
  if (name === '(idle)') return 'idle (waiting for work)';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'V8 and native, unattributed';
  if (/better-sqlite3/.test(frame.url) || (/^(all|get|run|iterate|prepare)$/.test(name) && frame.url === ''))
    return 'SQLite (better-sqlite3)';
  if (/node_modules\/(pg|pg-protocol|pg-pool|postgres)/.test(frame.url)) return 'PostgreSQL driver';
  if (/node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify)/.test(frame.url)) return 'Fastify';
  if (/node_modules\/(fast-json-stringify|ajv)/.test(frame.url)) return 'serialisation';
  if (/node_modules\/zod/.test(frame.url)) return 'zod';
  if (/^(stringify|parse)$/.test(name) && frame.url === '') return 'JSON';
  if (where.startsWith('apps/') || where.startsWith('packages/')) return 'Tonearm';
  if (frame.url.startsWith('node:') || frame.url === '') return 'Node core and natives';
  return 'other libraries';
}

/** Self time by function and by part, as shares of all samples. */
function summarise(profile, maps) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const functions = new Map();
  const parts = new Map();
  let total = 0;
  for (const [id, count] of counts) {
    const frame = byId.get(id).callFrame;
    const where = place(frame, maps);
    const key = `${frame.functionName || '(anonymous)'} ${where}`;
    functions.set(key, (functions.get(key) ?? 0) + count);
    const group = part(frame, where);
    parts.set(group, (parts.get(group) ?? 0) + count);
    total += count;
  }
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  return { total, functions: sorted(functions), parts: sorted(parts) };
}

async function seed(databaseUrl) {
  const dataDir = join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const { base, server } = await startBuiltServer({ dataDir, databaseUrl });
  const account = { username: 'bench_listener', email: 'listener@example.com', password: 'bench-password-1' };
  await registerAccount(base, account);
  const cookie = await logIn(base, account);
  const me = await (await fetch(`${base}/api/auth/me`, { headers: { cookie } })).json();
  const { key } = await (await post(`${base}/api/users/${me.id}/api-keys`, { name: 'bench' }, { cookie })).json();
  await stopProcess(server);
  console.log(`${DIALECT}: seeding ${SONGS} songs…`);
  const seeded = await seedSyntheticLibraryAt(
    { dataDir, databaseUrl },
    {
      songs: SONGS,
      artists: Math.max(1, Math.round(SONGS / 20)),
      albums: { size: 10 },
      // As bench:catalogue seeds them: the listener's playlists and likes are what each page marks.
      playlists: { owners: [me.id], count: 1000, size: 50 },
      likes: { userId: me.id, count: 500 },
    },
  );
  return { dataDir, account, key, albums: seeded.albums };
}

async function profileCall({ dataDir, databaseUrl, account }, name, path, script) {
  const profiles = join(work, `profile-${name.replace(/\W+/g, '-')}`);
  mkdirSync(profiles, { recursive: true });
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profiles}`];
  const { base, server } = await startBuiltServer({ dataDir, databaseUrl, nodeArgs });
  // Subsonic calls sign in with their API key alone (a session cookie beside it is a second credential).
  const headers = path.startsWith('/rest/') ? {} : { cookie: await logIn(base, account) };
  const warm = await fetch(`${base}${path}`, { headers });
  const body = await warm.text();
  // Subsonic answers its errors with a 200 and status "failed".
  if (!warm.ok || body.includes('"status":"failed"')) throw new Error(`GET ${path}: ${warm.status} ${body}`);
  const result = await wrk(`${base}${path}`, { connections: CONNECTIONS, duration: DURATION, headers, script });
  if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
  await stopProcess(server);
  const file = readdirSync(profiles).find((entry) => entry.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`the server wrote no profile for ${name}`);
  return { result, profile: JSON.parse(readFileSync(join(profiles, file), 'utf8')) };
}

const percent = (count, total) => `${((100 * count) / total).toFixed(1)} %`;

async function main() {
  await ensureServerBuilt();
  const postgres = DIALECT === 'postgres' ? await throwawayPostgres('tonearm_profile') : null;
  if (DIALECT === 'postgres' && postgres === null) throw new Error('PostgreSQL could not be started');
  const databaseUrl = postgres?.url ?? null;
  const seeded = { ...(await seed(databaseUrl)), databaseUrl };
  const calls = [
    ['page', 'first page of a seeded shuffle', '/api/songs/page?limit=50&seed=1'],
    ['new-seed', 'first page, a new seed per call', '/api/songs/page?limit=50&seed=1', newSeedScript(work, 50)],
    ['album', 'an album', `/api/albums/${Math.max(1, Math.ceil(seeded.albums / 2))}`],
    ['search', 'search, two words', '/api/search?q=amber%20river&limit=20'],
    ['prefix', 'search, prefix', '/api/search?q=sil&limit=20'],
    [
      'subsonic',
      'Subsonic getAlbumList2 newest',
      `/rest/getAlbumList2?type=newest&size=50&v=1.16.1&c=bench&f=json&apiKey=${seeded.key}`,
    ],
  ].filter(([id]) => CALLS.includes(id));
  const maps = sourceMaps();
  const lines = [
    `Profiles of the built server (${serverEntry.replace(`${root}/`, '')}) on ${DIALECT}, ${SONGS} songs, wrk -t2 -c${CONNECTIONS} -d${DURATION} (${new Date().toISOString().slice(0, 10)}). Self time, as a share of all samples.`,
    '',
  ];
  for (const [, name, path, script] of calls) {
    console.log(`${DIALECT}: profiling ${name}…`);
    const { result, profile } = await profileCall(seeded, name, path, script);
    const { total, functions, parts } = summarise(profile, maps);
    lines.push(`### ${name}: \`${path.replace(/apiKey=[^&]+/, 'apiKey=…')}\``, '');
    lines.push(
      `${result.rps.toFixed(0)} req/s (${(1000 / result.rps).toFixed(2)} ms a request), p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms. The profile spans the whole process, its start and stop included.`,
      '',
    );
    lines.push('| part | share |', '| --- | ---: |');
    for (const [group, count] of parts) lines.push(`| ${group} | ${percent(count, total)} |`);
    lines.push('', `| function (self) | share |`, '| --- | ---: |');
    for (const [key, count] of functions.slice(0, TOP)) lines.push(`| \`${key}\` | ${percent(count, total)} |`);
    lines.push('');
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/profile.md'), `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
  await postgres?.stop();
}

await runBench('profile', main, {
  watchdogMs: 8 * 60_000 + 6 * 2 * 60_000,
  cleanUp: () => rmSync(work, { recursive: true, force: true }),
});
