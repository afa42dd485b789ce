// `npm run bench:devices`: issue 27's live channel. Starts the built server (and, for its second half, two of them on
// one throwaway PostgreSQL database) and measures:
// - remote control: the time from a command sent for device B (POST /api/devices/:id/commands, from A's side) to B's
//   new state reaching device A's live channel (B, a Node client here, answers each command with its report, as the
//   web player does); p50/p99 over BENCH_COMMANDS commands (200), one at a time. On SQLite on one instance; on
//   PostgreSQL with A and B on two instances (the command and the state cross LISTEN/NOTIFY both ways);
// - live connections: BENCH_CONNECTIONS (1000) idle live channels held by one instance (25 devices for each of
//   enough users): the server's RSS before and after, and a 20-song page (/api/songs/page?limit=20) with wrk at 8
//   connections for BENCH_DURATION, without them and beside them (p50/p99, req/s).
// Writes bench/results/devices.md. A short check: BENCH_COMMANDS=20 BENCH_CONNECTIONS=50 BENCH_DURATION=3s.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import { throwawayPostgres } from './postgres.mjs';
import { logIn, registerAccount, runBench, settle, startBuiltServer, stopProcess, treeMiB, wrk } from './support.mjs';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1000);
const DURATION = process.env.BENCH_DURATION ?? '10s';
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
/** Devices of one user the connections are spread over (below DEVICES_PER_USER_MAX, 30). */
const DEVICES_PER_USER = 25;
const PAGE = '/api/songs/page?limit=20';
const work = mkdtempSync(join(tmpdir(), 'tonearm-bench-devices-'));

const newKey = () => randomBytes(12).toString('hex');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A live channel read as EventSource reads it; `on(event, handler)` sees each event's data. */
function openLive(base, cookie, key = newKey()) {
  return new Promise((resolve, reject) => {
    const handlers = new Map();
    const req = request(`${base}/api/live?device=${key}`, { headers: { cookie, accept: 'text/event-stream' } });
    req.on('error', reject);
    req.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET /api/live: ${response.statusCode}`));
        return;
      }
      let buffer = '';
      let helloSeen = false;
      response.setEncoding('utf8');
      const live = {
        deviceId: null,
        on: (event, handler) => handlers.set(event, handler),
        close: () => req.destroy(),
      };
      response.on('data', (chunk) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === undefined || data === undefined) continue;
          const parsed = JSON.parse(data);
          if (event === 'hello' && !helloSeen) {
            helloSeen = true;
            live.deviceId = parsed.deviceId;
            resolve(live);
          }
          handlers.get(event)?.(parsed);
        }
      });
    });
    req.end();
  });
}

async function send(base, cookie, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Device A on `baseA` sends COMMANDS seeks, one at a time, to device B on `baseB`; B answers each with its report;
 * each latency runs from the command's send to B's report reaching A's channel.
 */
async function remoteControl(label, baseA, baseB, cookie) {
  const a = await openLive(baseA, cookie);
  const b = await openLive(baseB, cookie);
  b.on('command', ({ command }) => {
    void send(baseB, cookie, 'PUT', `/api/devices/${b.deviceId}/playback`, {
      state: 'playing',
      songId: null,
      positionMs: command.positionMs,
      volume: 1,
    });
  });
  const latencies = [];
  for (let seq = 1; seq <= COMMANDS; seq += 1) {
    const arrived = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`command ${seq}: no state within 5 s`)), 5000);
      a.on('device', ({ device }) => {
        if (device.id === b.deviceId && device.playback?.positionMs === seq) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const started = performance.now();
    await send(baseA, cookie, 'POST', `/api/devices/${b.deviceId}/commands`, { type: 'seek', positionMs: seq });
    await arrived;
    latencies.push(performance.now() - started);
  }
  a.close();
  b.close();
  latencies.sort((x, y) => x - y);
  const row = { label, p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length };
  console.log(`${label}: p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms over ${row.count} commands`);
  return row;
}

/** The page with wrk, and the RSS, before and beside CONNECTIONS idle live channels. */
async function idleConnections(label, base, server, account) {
  const cookie = await logIn(base, account);
  await settle(base);
  const rssBefore = treeMiB(server.pid, 'VmRSS');
  const alone = await wrk(`${base}${PAGE}`, { connections: 8, duration: DURATION, headers: { cookie } });
  const open = [];
  let users = 0;
  while (open.length < CONNECTIONS) {
    users += 1;
    const user = {
      username: `idle_${users}_${newKey().slice(0, 6)}`,
      email: `idle${users}@example.test`,
      password: 'correct horse battery staple',
    };
    await registerAccount(base, user);
    const userCookie = await logIn(base, user);
    for (let index = 0; index < DEVICES_PER_USER && open.length < CONNECTIONS; index += 1) {
      open.push(await openLive(base, userCookie));
    }
  }
  await sleep(2000);
  await settle(base);
  const rssAfter = treeMiB(server.pid, 'VmRSS');
  const beside = await wrk(`${base}${PAGE}`, { connections: 8, duration: DURATION, headers: { cookie } });
  for (const live of open) live.close();
  const row = { label, connections: open.length, rssBefore, rssAfter, alone, beside };
  console.log(
    `${label}: ${open.length} idle channels, RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB; page p99 ` +
      `${alone.p99.toFixed(1)} ms alone, ${beside.p99.toFixed(1)} ms beside them`,
  );
  return row;
}

function report(latency, idle) {
  const lines = [
    '# bench:devices',
    '',
    `${new Date().toISOString()}, ${COMMANDS} commands, ${CONNECTIONS} connections, wrk ${DURATION} at 8 connections.`,
    '',
    '| Remote control | p50 ms | p99 ms | commands |',
    '| --- | --- | --- | --- |',
    ...latency.map((r) => `| ${r.label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.count} |`),
    '',
    '| Idle live channels | channels | RSS before MiB | RSS after MiB | page p50 / p99 alone ms | beside ms | req/s alone / beside |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...idle.map(
      (r) =>
        `| ${r.label} | ${r.connections} | ${r.rssBefore.toFixed(0)} | ${r.rssAfter.toFixed(0)} | ` +
        `${r.alone.p50.toFixed(2)} / ${r.alone.p99.toFixed(2)} | ${r.beside.p50.toFixed(2)} / ${r.beside.p99.toFixed(2)} | ` +
        `${r.alone.rps.toFixed(0)} / ${r.beside.rps.toFixed(0)} |`,
    ),
    '',
  ];
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/devices.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}

let postgres = null;

async function main() {
  const built = await ensureServerBuilt();
  if (built.code !== 0) throw new Error('the server does not build');
  const account = { username: 'bench_owner', email: 'owner@example.test', password: 'correct horse battery staple' };
  const latency = [];
  const idle = [];

  if (DIALECTS.includes('sqlite')) {
    const dataDir = join(work, 'sqlite');
    const { base, server } = await startBuiltServer({ dataDir, env: { DATABASE_URL: '' } });
    await registerAccount(base, account);
    const cookie = await logIn(base, account);
    latency.push(await remoteControl('SQLite, one instance', base, base, cookie));
    idle.push(await idleConnections('SQLite', base, server, account));
    await stopProcess(server);
  }

  if (DIALECTS.includes('postgres')) {
    postgres = await throwawayPostgres('tonearm_bench_devices');
    if (postgres !== null) {
      const first = await startBuiltServer({ dataDir: join(work, 'pg-1'), databaseUrl: postgres.url });
      const second = await startBuiltServer({ dataDir: join(work, 'pg-2'), databaseUrl: postgres.url });
      await registerAccount(first.base, account);
      const cookie = await logIn(first.base, account);
      latency.push(await remoteControl('PostgreSQL, A and B on two instances', first.base, second.base, cookie));
      idle.push(await idleConnections('PostgreSQL', first.base, first.server, account));
      await stopProcess(second.server);
      await stopProcess(first.server);
    }
  }
  report(latency, idle);
}

await runBench('bench:devices', main, {
  watchdogMs: 20 * 60 * 1000,
  cleanUp: () => {
    void postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  },
});
