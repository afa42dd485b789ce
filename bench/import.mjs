// `npm run bench:import`: does an import keep the server responsive? Writes BENCH_FILES (default 10 000) small tagged
// WAV files (title, artist, genre, an embedded JPEG cover; N/20 artists), then, for each importer, starts the built
// server on a fresh DATA_DIR (SQLite), registers a listener and measures a small page (`BENCH_PAGE`) with wrk at 8
// connections:
// - alone, on the empty catalogue;
// - while `npm run import` adds the files (wrk runs back to back in windows of BENCH_WINDOW until the import ends;
//   p50 is the median of the windows', p99 the highest window's, which bounds the p99 of the whole import, and the
//   median window's p99 beside it);
// - alone again, on the imported catalogue;
// and the import's files/s (from its summary line). The importers (BENCH_IMPORTERS, in this order by default):
// - `per-file`: this import with --batch-size 1 --nice 0 (a transaction per file, no lower priority);
// - `batched`: --nice 0 (batches of 100 or 250 ms, no lower priority);
// - `default`: the import as a user runs it (batches, nice 10);
// - with BENCH_BASELINE=<git ref>: `baseline`, that ref's import (run from a temporary worktree) against this server.
// Writes the table to bench/results/import.md. Bounded in time; cleans up after itself. wrk keeps the server busy
// the whole time, so an import at nice 10 gets only what the server leaves: expect it to take several times longer
// here than beside real listeners.
//
// Environment: BENCH_FILES (10000), BENCH_DURATION (10s, the runs alone), BENCH_WINDOW (5s), BENCH_IMPORTERS
// (per-file,batched,default), BENCH_BASELINE, BENCH_PAGE (auto: /api/songs/page?limit=20 when the server has it, else
// /api/songs?limit=20). Runs under tsx (it writes the corpus with the server's TypeScript).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeImportCorpus } from '../apps/server/src/cli/import-corpus.ts';
import { openSqliteFile } from '../apps/server/src/db/sqlite-driver.ts';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import {
  addWorktree,
  logIn,
  parseDuration,
  registerAccount,
  removeWorktree,
  runBench,
  startBuiltServer,
  startProcess,
  stopProcess,
  wrk,
} from './support.mjs';

const FILES = Number(process.env.BENCH_FILES ?? '10000');
const DURATION = process.env.BENCH_DURATION ?? '10s';
const WINDOW = process.env.BENCH_WINDOW ?? '5s';
const CONNECTIONS = '8';
const BASELINE = process.env.BENCH_BASELINE?.trim() || null;
const PAGE = process.env.BENCH_PAGE ?? 'auto';
const IMPORTERS = {
  'per-file': { args: ['--batch-size', '1', '--nice', '0'], about: '--batch-size 1 --nice 0: a transaction per file' },
  batched: { args: ['--nice', '0'], about: '--nice 0: batches of 100 files or 250 ms' },
  default: { args: [], about: 'as a user runs it: batches, nice 10' },
};
const chosen = (process.env.BENCH_IMPORTERS ?? 'per-file,batched,default').split(',').map((name) => name.trim());
for (const name of chosen) if (!(name in IMPORTERS)) throw new Error(`BENCH_IMPORTERS: no importer ${name}`);
const runs = chosen.length + (BASELINE ? 1 : 0);
// Corpus, then per importer: two runs alone, start-up, and the import itself at ≥ 2 files/s (wrk keeps the server
// busy all along, so a niced import gets little CPU).
const WATCHDOG_MS = (FILES / 50 + runs * (2 * (parseDuration(DURATION) + 20) + FILES / 2 + 120) + 120) * 1000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-import-bench-'));
const account = { username: 'bench_listener', email: 'listener@example.com', password: 'bench-password-1' };
let baselineDir = null;

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The page to measure: BENCH_PAGE, or the paged songs endpoint when this server has it. */
async function pagePath(base, cookie) {
  if (PAGE !== 'auto') return PAGE;
  const response = await fetch(`${base}/api/songs/page?limit=20`, { headers: { cookie } });
  await response.arrayBuffer();
  return response.status === 200 ? '/api/songs/page?limit=20' : '/api/songs?limit=20';
}

/** Runs the import command; answers its process and a promise of its summary line once it ends. */
function startImport(corpus, dataDir, importer) {
  const cwd = importer.cwd ?? root;
  const child = startProcess(
    process.execPath,
    ['--import', 'tsx', join(cwd, 'apps/server/src/cli/import.ts'), corpus, ...importer.args],
    { DATA_DIR: dataDir, DATABASE_URL: '', INIT_CWD: cwd },
  );
  const ended = new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const output = child.output.join('');
      const summary = /Imported (\d+) of (\d+) files in ([\d.]+) s \(([\d.]+) files\/s\)/.exec(output);
      if (code !== 0 || summary === null) reject(new Error(`the import ended with ${code}:\n${output.slice(-2000)}`));
      else resolve({ added: Number(summary[1]), seconds: Number(summary[3]), rate: Number(summary[4]) });
    });
  });
  return { child, ended };
}

/** wrk windows back to back while `running()` holds; answers every window's figures. */
async function windowsWhile(url, headers, running) {
  const windows = [];
  while (running()) {
    const result = await wrk(url, { connections: CONNECTIONS, duration: WINDOW, headers });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers during the import`);
    windows.push(result);
  }
  return windows;
}

function songCount(dataDir) {
  const db = openSqliteFile(join(dataDir, 'tonearm.db'), { readOnly: true, mustExist: true });
  try {
    return db.prepare('select count(*) as n from songs').get([]).n;
  } finally {
    db.close();
  }
}

/** One importer on a fresh DATA_DIR and server: the page alone, during the import, and alone after it. */
async function measure(name, importer, corpus) {
  const dataDir = join(work, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const { base, server } = await startBuiltServer({ dataDir });
  try {
    await registerAccount(base, account);
    const headers = { cookie: await logIn(base, account) };
    const path = await pagePath(base, headers.cookie);
    const url = `${base}${path}`;
    const before = await wrk(url, { connections: CONNECTIONS, duration: DURATION, headers });
    console.log(`${name}: ${path} alone, empty catalogue: p50 ${fmt(before.p50, 1)} ms, p99 ${fmt(before.p99, 1)} ms`);

    const run = startImport(corpus, dataDir, importer);
    let importing = true;
    const ended = run.ended.finally(() => (importing = false));
    const [windows, summary] = await Promise.all([windowsWhile(url, headers, () => importing), ended]);
    if (windows.length === 0) throw new Error('the import ended before any measurement');
    const during = {
      rps: median(windows.map((w) => w.rps)),
      p50: median(windows.map((w) => w.p50)),
      p99: Math.max(...windows.map((w) => w.p99)),
      p99Median: median(windows.map((w) => w.p99)),
    };
    console.log(
      `${name}: ${summary.added} files in ${summary.seconds} s (${summary.rate} files/s); during it ` +
        `p50 ${fmt(during.p50, 1)} ms, p99 ≤ ${fmt(during.p99, 1)} ms over ${windows.length} windows`,
    );
    const songs = songCount(dataDir);
    if (songs !== FILES) throw new Error(`${songs} songs in the catalogue after importing ${FILES} files`);

    const after = await wrk(url, { connections: CONNECTIONS, duration: DURATION, headers });
    console.log(`${name}: alone, ${songs} songs: p50 ${fmt(after.p50, 1)} ms, p99 ${fmt(after.p99, 1)} ms`);
    return { name, about: importer.about, path, before, during, windows: windows.length, summary, after };
  } finally {
    await stopProcess(server);
  }
}

function report(results, corpusSeconds) {
  const date = new Date().toISOString().slice(0, 10);
  const page = [...new Set(results.map((r) => r.path))].join(', ');
  const lines = [
    `Importing ${FILES} tagged WAV files (${corpusSeconds} s of audio each, embedded JPEG cover, ` +
      `${Math.max(1, Math.round(FILES / 20))} artists) into SQLite while wrk -t2 -c${CONNECTIONS} asks for ` +
      `${page} (${date}). "during" runs wrk in ${WINDOW} windows until the import ends: p50 is the median ` +
      "window's, p99 the highest window's (an upper bound of the import's p99) and, in brackets, the median window's.",
    '',
    '| importer | files/s | import time | alone, empty: p50 / p99 | during the import: req/s, p50 / p99 | ' +
      'alone, after: p50 / p99 |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.name} (${r.about}) | ${fmt(r.summary.rate, 1)} | ${fmt(r.summary.seconds, 1)} s | ` +
        `${fmt(r.before.p50, 1)} / ${fmt(r.before.p99, 1)} ms | ` +
        `${fmt(r.during.rps)} req/s, ${fmt(r.during.p50, 1)} / ${fmt(r.during.p99, 1)} ` +
        `(${fmt(r.during.p99Median, 1)}) ms | ` +
        `${fmt(r.after.p50, 1)} / ${fmt(r.after.p99, 1)} ms |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const corpus = join(work, 'corpus');
  const seconds = 2;
  console.log(`writing ${FILES} tagged files…`);
  const writing = performance.now();
  await writeImportCorpus(corpus, FILES, { seconds, sampleRate: 8000, artists: Math.max(1, Math.round(FILES / 20)) });
  console.log(`written in ${fmt((performance.now() - writing) / 1000, 1)} s`);

  const importers = chosen.map((name) => [name, IMPORTERS[name]]);
  if (BASELINE) {
    baselineDir = addWorktree(BASELINE, join(work, 'baseline'));
    importers.push(['baseline', { args: [], cwd: baselineDir, about: `the import of ${BASELINE}` }]);
  }
  const results = [];
  for (const [name, importer] of importers) results.push(await measure(name, importer, corpus));

  const table = report(results, seconds);
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/import.md'), `${table}\n`);
}

await runBench('bench:import', main, {
  watchdogMs: WATCHDOG_MS,
  cleanUp: () => {
    if (baselineDir) removeWorktree(baselineDir);
    rmSync(work, { recursive: true, force: true });
  },
});
