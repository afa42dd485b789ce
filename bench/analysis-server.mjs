// What bench:analysis and bench:radio-quality share: the built server started with the audio analysis on, a library of
// the style corpus's files (hard links under the names asked for), its scan and the analysis followed to their end
// through the API, and the server's own database read beside it (the API shows no paths and no vectors).
import { linkSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openSqliteFile } from '../apps/server/src/db/sqlite-driver.ts';
import { root } from '../scripts/lib.mjs';
import { logIn, post, registerAccount, startBuiltServer, stopProcess } from './support.mjs';

const require = createRequire(join(root, 'apps/server/package.json'));
const account = { username: 'bench_admin', email: 'admin@example.com', password: 'bench-password-1' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The built server on a fresh DATA_DIR under `work` (and the PostgreSQL database at `databaseUrl`, when given), with the
 * analysis on, SCAN_WATCH=0 and `env`; the administrator registered and logged in.
 */
export async function startAnalysisServer({ work, name, databaseUrl = null, env = {} }) {
  const dataDir = join(work, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const { base, server } = await startBuiltServer({
    dataDir,
    databaseUrl,
    env: { ANALYSIS: '1', SCAN_WATCH: '0', ...(databaseUrl === null && { DATABASE_URL: '' }), ...env },
  });
  await registerAccount(base, account);
  const cookie = await logIn(base, account);
  return { name, dataDir, databaseUrl, base, server, cookie, stop: () => stopProcess(server) };
}

export async function getJson(ctx, path) {
  const response = await fetch(`${ctx.base}${path}`, { headers: { cookie: ctx.cookie } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

function alive(ctx) {
  if (ctx.server.exitCode !== null || ctx.server.signalCode !== null) {
    throw new Error(`the server exited (${ctx.server.exitCode ?? ctx.server.signalCode})`);
  }
}

/** Adds `folder` as a library and waits for its first scan to end; answers the library. */
export async function addLibrary(ctx, folder, { timeoutMs = 600_000 } = {}) {
  await post(`${ctx.base}/api/libraries`, { path: folder }, { cookie: ctx.cookie });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    alive(ctx);
    const [library] = (await getJson(ctx, '/api/libraries')).libraries;
    if (library?.scan && library.scan.state !== 'running') return library;
    await sleep(200);
  }
  throw new Error('the scan did not end in time');
}

/** GET /api/analysis. */
export function analysisProgress(ctx) {
  return getJson(ctx, '/api/analysis');
}

/** Polls the analysis until nothing is pending (every `pollMs`); answers its last progress. */
export async function waitForAnalysis(ctx, { timeoutMs, pollMs = 1000 }) {
  const deadline = Date.now() + timeoutMs;
  let progress = null;
  while (Date.now() < deadline) {
    alive(ctx);
    progress = await analysisProgress(ctx);
    if (progress.songs > 0 && progress.pending === 0 && progress.state !== 'working') return progress;
    await sleep(pollMs);
  }
  throw new Error(`the analysis did not end in time; last seen: ${JSON.stringify(progress)}`);
}

/** Rows of the server's own database: SQLite's file read-only, or PostgreSQL. */
export async function queryDatabase(ctx, sql, parameters = []) {
  if (ctx.databaseUrl === null) {
    const db = openSqliteFile(join(ctx.dataDir, 'tonearm.db'), { readOnly: true, mustExist: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(parameters);
    } finally {
      db.close();
    }
  }
  const pg = require('pg');
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, parameters)).rows;
  } finally {
    await client.end();
  }
}

/** Song id by file path (relative to the library). */
export async function songIdsByPath(ctx, libraryId) {
  const rows = await queryDatabase(ctx, 'select song_id, path from library_files where library_id = $1', [libraryId]);
  return new Map(rows.map((row) => [row.path, Number(row.song_id)]));
}

/** Hard-links `sources` into `folder` under `names` (round-robin over the sources: one file may become many songs). */
export function linkFiles(sources, folder, names) {
  mkdirSync(folder, { recursive: true });
  names.forEach((name, index) => linkSync(sources[index % sources.length], join(folder, name)));
}
