// `npm run bench:node-floor`: what a Node server can show at all on this machine, the floor under bench:catalogue's
// figures. A bare node:http server answers an 11 KB JSON body (the size of a 50-song page) after 0, 0.1, 0.3 and 1 ms
// of synchronous work per request, and wrk measures it as bench:catalogue measures the song pages: 64 connections,
// then 8. With every connection busy (wrk keeps each one waiting on an answer), the event loop serves them unevenly,
// and the slowest 1 % wait far longer than the median: p99 grows much faster than the work. Writes
// bench/results/node-floor.md.
//
// Environment: BENCH_DURATION (10s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../scripts/free-port.mjs';
import { root } from '../scripts/lib.mjs';
import { parseDuration, runBench, startProcess, stopProcess, waitFor, wrk } from './support.mjs';

const DURATION = process.env.BENCH_DURATION ?? '10s';
const WORK_MS = [0, 0.1, 0.3, 1];
const CONNECTIONS = ['64', '8'];
const BYTES = 11_000;
const WATCHDOG_MS = (WORK_MS.length * CONNECTIONS.length * (parseDuration(DURATION) + 30) + 60) * 1000;

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

async function main() {
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `A bare node:http server (Node ${process.versions.node}), an ${BYTES / 1000} KB JSON answer after a fixed amount of ` +
      `synchronous work; wrk -t2 -d${DURATION} on 127.0.0.1 (${date})`,
    '',
    '| work per request | connections | req/s | p50 | p90 | p99 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const workMs of WORK_MS) {
    const port = await freePort();
    const server = startProcess(process.execPath, [
      join(root, 'bench/minimal-json-server.mjs'),
      String(port),
      String(workMs),
      String(BYTES),
    ]);
    try {
      const url = `http://127.0.0.1:${port}/`;
      await waitFor(url, server);
      for (const connections of CONNECTIONS) {
        const result = await wrk(url, { connections, duration: DURATION });
        const line = `| ${workMs} ms | ${connections} | ${fmt(result.rps, 0)} | ${fmt(result.p50)} ms | ${fmt(result.p90)} ms | ${fmt(result.p99)} ms |`;
        lines.push(line);
        console.log(line);
      }
    } finally {
      await stopProcess(server);
    }
  }
  const table = lines.join('\n');
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/node-floor.md'), `${table}\n`);
}

await runBench('bench:node-floor', main, { watchdogMs: WATCHDOG_MS, cleanUp: () => undefined });
