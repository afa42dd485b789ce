// What the benchmarks share: child processes that are stopped whatever happens, waiting for a server, wrk runs and
// their figures, and the memory of a process tree read from /proc.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverCommand } from '../scripts/build-server.mjs';
import { freePort } from '../scripts/free-port.mjs';
import { root } from '../scripts/lib.mjs';

/** Every child process still running; `killAll` stops them (on errors, Ctrl-C and the watchdog). */
export const children = new Set();

export function killAll() {
  for (const child of children) child.kill('SIGKILL');
}

/** SIGTERM, then SIGKILL after 5 s. */
export async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export function parseDuration(text) {
  const match = /^(\d+)(s|m)?$/.exec(text);
  if (!match) throw new Error(`BENCH_DURATION must look like 10s or 1m (got ${text})`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

export function startProcess(command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (c) => output.push(String(c)));
  child.stderr.on('data', (c) => output.push(String(c)));
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.output = output;
  return child;
}

export async function waitFor(url, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${child.output.join('')}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/**
 * Starts the built server (apps/server/dist, or the bundle at `entry`) on `dataDir` (and PostgreSQL at `databaseUrl`),
 * without the demo catalogue, with the auth rate limit lifted and the audio analysis off (ANALYSIS=0, unless `env`
 * says otherwise); answers its base URL and process once it answers.
 */
export async function startBuiltServer({ dataDir, databaseUrl = null, entry = null, env = {}, nodeArgs = [] }) {
  const port = await freePort();
  const [command, defaultArgs, serverEnv] = serverCommand();
  const args = [...nodeArgs, ...defaultArgs.slice(0, -1), entry ?? defaultArgs.at(-1)];
  const server = startProcess(command, args, {
    ...serverEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    DEMO: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    AUTH_RATE_LIMIT: '1000',
    // The audio analysis (issue 28) would share the cores with what a benchmark measures: bench:analysis turns it on.
    ANALYSIS: '0',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`, server);
  return { base, server };
}

/**
 * The media locations of docs/deploy/nginx.conf with MEDIA_OFFLOAD=nginx and its gate: `/media/` (to the upstream
 * `tonearm_media`, the gate), `@tonearm` (to the upstream `tonearm`) and the `internal` one, with its alias pointed at
 * `blobsDir`. Taken from the example itself, so that what is measured is what is documented.
 */
export function offloadLocations(blobsDir) {
  const example = readFileSync(join(root, 'docs/deploy/nginx.conf'), 'utf8');
  const block = (name) => {
    const found = new RegExp(`^ {4}location ${name} \\{\n[\\s\\S]*?^ {4}\\}\n`, 'm').exec(example)?.[0];
    if (found === undefined) throw new Error(`docs/deploy/nginx.conf has no location ${name} { … }`);
    return found;
  };
  const internal = block('/_tonearm_blobs/');
  const alias = 'alias /var/lib/tonearm/blobs/;';
  if (!internal.includes(alias)) throw new Error(`docs/deploy/nginx.conf's internal location lacks ${alias}`);
  return [block('/media/'), block('@tonearm'), internal.replace(alias, `alias ${blobsDir}/;`)].join('');
}

/** POSTs `body` as JSON; throws unless the answer is 2xx. */
export async function post(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** Registers the account through the API (the first one on a server becomes ADMIN). */
export async function registerAccount(base, account) {
  await post(`${base}/api/auth/register`, account);
}

/** Logs in; answers the session cookie (`name=value`). */
export async function logIn(base, { username, password }) {
  const response = await post(`${base}/api/auth/login`, { username, password });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie) throw new Error('login: no session cookie');
  return cookie;
}

/**
 * A temporary git worktree of `ref` in `dir` whose node_modules point at this checkout's packages (its own workspace
 * packages at its own sources), to build or run an earlier version beside the current one. Remove it with
 * `removeWorktree`.
 */
export function addWorktree(ref, dir) {
  const result = spawnSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git worktree add ${dir} ${ref}: ${result.stderr}`);
  mkdirSync(join(dir, 'node_modules/@tonearm'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@tonearm') symlinkSync(join(root, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  for (const [name, path] of [
    ['contract', 'packages/contract'],
    ['server', 'apps/server'],
    ['web', 'apps/web'],
  ]) {
    symlinkSync(join(dir, path), join(dir, 'node_modules/@tonearm', name));
  }
  return dir;
}

export function removeWorktree(dir) {
  spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
}

/** The pid and all its descendants (nginx's worker, or any child a server starts). */
function processTree(pid) {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(list ? list.split(/\s+/).flatMap((c) => processTree(Number(c))) : [])];
  } catch {
    return [pid];
  }
}

/** A /proc/<pid>/status field (kB) summed over the process tree, in MiB. */
export function treeMiB(pid, field) {
  let kib = 0;
  for (const p of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kib += Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return kib / 1024;
}

/** Resets the peak RSS (VmHWM) of the tree to its current RSS (Linux clear_refs); false when the kernel refuses. */
export function resetPeak(pid) {
  try {
    for (const p of processTree(pid)) writeFileSync(`/proc/${p}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the server at `base` is idle again: wrk stops with its connections' last requests still queued, and a
 * slow call can leave a second of work behind it; the next run's first requests would wait for that and count it as
 * theirs. Idle means two health checks in a row answered within 20 ms (at most `maxMs` of waiting).
 */
export async function settle(base, maxMs = 15_000) {
  const deadline = Date.now() + maxMs;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    quick = performance.now() - started < 20 ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One wrk run (2 threads, `--latency`) against `url`; resolves with its parsed figures. */
export function wrk(url, { connections, duration, headers = {}, script } = {}) {
  const durationSeconds = parseDuration(duration);
  const args = ['-t2', `-c${connections}`, `-d${duration}`, '--latency', '--timeout', '5s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) args.push('-s', script);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + 30) * 1000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolve(parseWrk(out));
      else reject(new Error(`wrk failed (${code}): ${err || out}`));
    });
  });
}

function toMs(value, unit) {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60000 : n;
}

function toMiB(value, unit) {
  const n = Number(value);
  return unit === 'GB' ? n * 1024 : unit === 'KB' ? n / 1024 : unit === 'B' ? n / 1048576 : n;
}

export function parseWrk(text) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const transfer = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(text);
  const p50 = /\s50%\s+([\d.]+)(\w+)/.exec(text);
  const p90 = /\s90%\s+([\d.]+)(\w+)/.exec(text);
  const p99 = /\s99%\s+([\d.]+)(\w+)/.exec(text);
  const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text);
  const socketErrors = /Socket errors:(.*)/.exec(text);
  return {
    rps,
    mibps: transfer ? toMiB(transfer[1], transfer[2]) : NaN,
    p50: p50 ? toMs(p50[1], p50[2]) : NaN,
    p90: p90 ? toMs(p90[1], p90[2]) : NaN,
    p99: p99 ? toMs(p99[1], p99[2]) : NaN,
    non2xx: errors ? Number(errors[1]) : 0,
    socketErrors: socketErrors ? socketErrors[1].trim() : '',
  };
}

/**
 * Runs a benchmark's `main` under a watchdog: after `watchdogMs`, on Ctrl-C and when it ends (either way), `cleanUp`
 * runs and every child process is stopped. A failure prints the children's last output and sets the exit code.
 */
export async function runBench(name, main, { watchdogMs, cleanUp }) {
  const finish = () => {
    killAll();
    cleanUp();
  };
  const watchdog = setTimeout(() => {
    console.error(`${name} took longer than ${watchdogMs / 1000} s; stopping`);
    finish();
    process.exit(1);
  }, watchdogMs);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      finish();
      process.exit(130);
    });
  }
  try {
    await main();
  } catch (error) {
    console.error(`${name} failed: ${error.message}`);
    for (const child of children) console.error(child.output?.join('').slice(-2000));
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    finish();
  }
}

/** Body sizes within this many bytes share one measurement of the Node floor. */
const FLOOR_BUCKET = 1024;
const floors = new Map();

/**
 * The Node floor: req/s of bench/minimal-json-server.mjs (bench:node-floor's 0 ms row) answering a body of `bytes`
 * bytes (to the nearest KiB) with no work at all, at `connections` for `duration`; measured once per size and load in a
 * run. A row's req/s over it reads as a share of what Node can show at all on this machine.
 */
export async function nodeFloor(bytes, connections, duration) {
  const bucket = Math.max(1, Math.round(bytes / FLOOR_BUCKET)) * FLOOR_BUCKET;
  const key = `${bucket}|${connections}|${duration}`;
  if (!floors.has(key)) {
    const port = await freePort();
    const child = startProcess(process.execPath, [
      join(root, 'bench/minimal-json-server.mjs'),
      String(port),
      '0',
      String(bucket),
    ]);
    try {
      await waitFor(`http://127.0.0.1:${port}/`, child);
      const result = await wrk(`http://127.0.0.1:${port}/`, { connections, duration });
      console.log(
        `node floor, ${(bucket / 1024).toFixed(0)} KB at ${connections} conn: ${result.rps.toFixed(0)} req/s`,
      );
      floors.set(key, result.rps);
    } finally {
      await stopProcess(child);
    }
  }
  return floors.get(key);
}

/**
 * Writes a wrk script into `dir` asking each time for the first page (`limit` songs) of a seed never asked before
 * (each thread walks its own sequence of seeds), as new listeners each opening the songs page do: no seed's sorted
 * order is ever reused. Answers the script's path.
 */
export function newSeedScript(dir, limit) {
  const file = join(dir, 'new-seed.lua');
  const lines = [
    'local threads = 0',
    'function setup(thread) threads = threads + 1; thread:set("id", threads) end',
    'function init(args) seed = (id * 104729) % 2147483647 end',
    'function request()',
    '  seed = (seed * 48271) % 2147483647',
    `  return wrk.format(nil, "/api/songs/page?limit=${limit}&seed=" .. seed)`,
    'end',
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return file;
}
