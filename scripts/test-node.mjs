// `npm run test:node -- [VERSION...] [FILTER...]`: the server suite (vitest's server project, its SQLite half) on other Node
// versions than the one running npm, by default every version in TESTED_NODE_VERSIONS beyond the current one. Each
// Node comes from the npm registry (the `node-<platform>-<arch>` package that the `node` package installs, with its
// headers), into a temporary copy of this checkout (hard links, so it costs seconds) whose better-sqlite3 is rebuilt
// for that Node's ABI: the checkout itself is never changed. Ends with one line per version and exits non-zero if any
// failed or could not be set up. FILTERs (anything not a version) go to vitest, to run part of the suite.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { printFailures, readJson, root, run, vitestFailures } from './lib.mjs';

/**
 * The exact versions the second CI leg runs; package.json's engines says the same majors. On Node 24 the server runs
 * SQLite on node:sqlite (apps/server/src/db/sqlite-driver.ts), so the leg there runs the whole SQLite half. Node 22
 * runs better-sqlite3 as Node 20 does: its leg runs what depends on the Node it runs on (the native modules built for
 * its ABI, better-sqlite3 and argon2; the database seam; scan threads and file reads; streams and transcoding; blob
 * stores; backups; start-up), not every route's rules a second time.
 */
export const TESTED_NODE_VERSIONS = ['22.23.3', '24.21.0'];

/** The part of the suite a major's leg runs by default (vitest filters); none: all of it. */
const DEFAULT_SCOPE = {
  22: [
    'apps/server/src/db',
    'apps/server/src/modules/libraries',
    'apps/server/src/modules/auth',
    'apps/server/src/modules/media',
    'apps/server/src/modules/songs',
    'apps/server/src/media',
    'apps/server/src/storage',
    'apps/server/src/backup',
    'apps/server/src/startup.test.ts',
    'apps/server/src/app.test.ts',
  ],
};

function fail(message) {
  console.error(`test:node: ${message}`);
  process.exit(2);
}

/** A file of npm's own install (npm runs this script, so npm_execpath names npm's entry point, bin/npm-cli.js). */
function npmFile(relative) {
  const candidates = [];
  if (process.env.npm_execpath) candidates.push(join(dirname(process.env.npm_execpath), '..', relative));
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout?.trim();
  if (npmRoot) candidates.push(join(npmRoot, 'npm', relative));
  const found = candidates.find((path) => existsSync(path));
  if (!found) fail(`${relative} of npm not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** npm's install, run by `node` in `cwd` without changing anything: answers the engine warnings it prints. */
function engineWarnings(node, cwd, env) {
  const args = [npmFile('bin/npm-cli.js'), 'install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'];
  const result = spawnSync(node, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) fail(`npm install --dry-run failed under ${node}: ${result.stderr}`);
  return `${result.stdout}${result.stderr}`.split('\n').filter((line) => line.includes('EBADENGINE'));
}

/** Installs Node `version` from the npm registry into `dir`; answers its install folder (bin/node, include/node). */
async function installNode(version, dir) {
  const name = `node-${process.platform}-${process.arch}`;
  const { code } = await run('npm', [
    'install',
    '--prefix',
    dir,
    '--no-save',
    '--no-audit',
    '--no-fund',
    `${name}@${version}`,
  ]);
  const home = join(dir, 'node_modules', name);
  if (code !== 0 || !existsSync(join(home, 'bin', 'node')))
    fail(`could not install ${name}@${version} from the registry`);
  return home;
}

/** A hard-linked copy of the checkout (no .git, no scratch folders), with a real copy of better-sqlite3 to rebuild. */
function copyCheckout(target) {
  const skipped = new Set(['.git', '.tmp', 'test-results', 'playwright-report']);
  for (const entry of readdirSync(root)) {
    if (skipped.has(entry)) continue;
    const linked = spawnSync('cp', ['-al', join(root, entry), join(target, entry)]);
    if (linked.status !== 0) fail(`could not copy ${entry}: ${linked.stderr}`);
  }
  const sqlite = join(target, 'node_modules', 'better-sqlite3');
  rmSync(sqlite, { recursive: true });
  cpSync(join(root, 'node_modules', 'better-sqlite3'), sqlite, { recursive: true });
  return sqlite;
}

/**
 * Everything a version's leg needs before its tests: its Node, a checkout copy, no engine warning from npm install,
 * better-sqlite3 built for its ABI. Answers what the tests need, or why the leg failed.
 */
async function prepare(version) {
  const work = mkdtempSync(join(tmpdir(), `tonearm-node-${version}-`));
  console.log(`\n▶ Node ${version}: installing from the npm registry`);
  const home = await installNode(version, join(work, 'node'));
  const checkout = join(work, 'checkout');
  mkdirSync(checkout);
  const sqlite = copyCheckout(checkout);
  const node = join(home, 'bin', 'node');
  // Anything the tests spawn as `node` (built servers, CLIs) is this Node too.
  // SQLite only: what changes between Node versions is the SQLite driver (node:sqlite on 24), native builds and
  // Node's own APIs; the pg driver is the same JavaScript everywhere, and the first leg runs the PostgreSQL half.
  const env = { ...process.env, PATH: `${join(home, 'bin')}:${process.env.PATH}`, TEST_DIALECTS: 'sqlite' };
  const prepared = { version, work, node, checkout, env };
  const warnings = engineWarnings(node, checkout, env);
  if (warnings.length > 0) {
    console.error(warnings.join('\n'));
    return { ...prepared, failed: 'npm install prints engine warnings' };
  }
  console.log(`▶ Node ${version}: npm install prints no engine warning`);
  // Also on Node 24, whose server never loads it: `npm install` builds it there too, and must succeed.
  console.log(`▶ Node ${version}: building better-sqlite3 for its ABI`);
  // npm passes its own config to scripts as npm_config_*; a machine's `nodedir` there would win over the flag.
  const gypEnv = { ...env, npm_config_nodedir: home };
  const built = await run(
    node,
    [npmFile('node_modules/node-gyp/bin/node-gyp.js'), 'rebuild', '--release', `--nodedir=${home}`],
    {
      cwd: sqlite,
      env: gypEnv,
    },
  );
  return built.code === 0 ? prepared : { ...prepared, failed: 'better-sqlite3 did not build' };
}

/** A prepared version's server suite (or `filters` of it); answers its result line. */
async function leg({ version, work, node, checkout, env, failed }, filters) {
  try {
    if (failed) return { version, ok: false, why: failed };
    console.log(`\n▶ Node ${version}: the server suite`);
    const vitest = join(checkout, 'node_modules', 'vitest', 'vitest.mjs');
    const report = join(work, 'vitest.json');
    const reporters = ['--reporter=default', '--reporter=json', `--outputFile=${report}`];
    const tests = await run(node, [vitest, 'run', '--project', 'server', ...reporters, ...filters], {
      cwd: checkout,
      env,
    });
    const failures = vitestFailures(readJson(report), checkout);
    const why = tests.code === 0 ? '' : 'server tests failed';
    return { version, ok: tests.code === 0, why, ms: tests.ms, failures, part: filters.length > 0 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const current = process.versions.node;
const isVersion = (arg) => /^\d+\.\d+\.\d+$/.test(arg);
const wanted = process.argv.slice(2).filter(isVersion);
const filters = process.argv.slice(2).filter((arg) => !isVersion(arg));
const versions = wanted.length > 0 ? wanted : TESTED_NODE_VERSIONS.filter((version) => version !== current);
// The versions are installed and better-sqlite3 built for each at once (each build is one long single-threaded
// compile of SQLite), then their suites run one after another.
const prepared = await Promise.all(versions.map(prepare));
const results = [];
for (const version of prepared) {
  const major = version.version.split('.')[0];
  results.push(await leg(version, filters.length > 0 ? filters : (DEFAULT_SCOPE[major] ?? [])));
}
console.log('\n──────── Node versions ────────');
for (const { version, ok, why, ms, part, failures = [] } of results) {
  const what = `${part ? 'part of the server suite' : 'server suite'}, SQLite`;
  console.log(`${ok ? 'ok  ' : 'FAIL'}  Node ${version}${ok ? `  ${what} ${(ms / 1000).toFixed(1)} s` : `  ${why}`}`);
  printFailures(failures, '      ');
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
