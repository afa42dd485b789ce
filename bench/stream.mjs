// `npm run bench:stream`: the same 8 MB audio file and ~30 KB cover served by Tonearm (the built server, through its
// real, authenticated routes), by nginx (sendfile, 1 worker) and by a minimal node:http + fs.createReadStream range
// server (the Node ceiling), and by nginx in front of a second Tonearm with MEDIA_OFFLOAD=nginx and its gate (Tonearm
// checks the session, nginx sends the file: the media locations of docs/deploy/nginx.conf), each driven in turn by wrk (2 threads, 64 connections, 10 s) on loopback. Before any
// load, each server must answer 200 and 206 with exactly the right bytes (and Tonearm 401 without a session); the
// servers run side by side and each scenario is run on each server in turn, so drift on a shared machine hits all.
// Prints req/s, MiB/s, p50/p99 latency, non-2xx answers and RSS for each, and Tonearm's ratios. Bounded in time (a
// watchdog stops everything); cleans up after itself, also on Ctrl-C.
//
// Environment: BENCH_DURATION (10s), BENCH_CONNECTIONS (64), BENCH_SERVERS (tonearm,nginx,node,offload: a subset),
// BENCH_ROUNDS (1: with more, each figure is the run with the median req/s), BENCH_BASELINE (a git ref, e.g. a commit
// before a change: its server is built in a temporary worktree and measured beside the current one, as "Tonearm
// baseline", so the cost of the change shows as a ratio from one run), BENCH_TRANSCODE (1: the transcoding row, see
// bench/transcode.mjs for its own variables; 0 leaves it out).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { freePort } from '../scripts/free-port.mjs';
import { root } from '../scripts/lib.mjs';
import { makeCover, makeWav } from './fixtures.mjs';
import {
  measureTranscoding,
  requireFfmpeg,
  TRANSCODE_MAX_K,
  transcodeReport,
  transcodeWatchdogMs,
} from './transcode.mjs';
import {
  addWorktree,
  offloadLocations,
  parseDuration,
  removeWorktree,
  runBench,
  startBuiltServer,
  resetPeak,
  startProcess,
  stopProcess,
  treeMiB,
  waitFor,
  wrk,
} from './support.mjs';

const DURATION = process.env.BENCH_DURATION ?? '10s';
const CONNECTIONS = process.env.BENCH_CONNECTIONS ?? '64';
const SERVERS = (process.env.BENCH_SERVERS ?? 'tonearm,nginx,node,offload').split(',').map((s) => s.trim());
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '1');
const BASELINE = process.env.BENCH_BASELINE?.trim() || null;
const AUDIO_BYTES = 8 * 1024 * 1024;
const RANGE_BYTES = 256 * 1024;
const SCENARIOS = ['full', 'range', 'cover'];
const TRANSCODE = (process.env.BENCH_TRANSCODE ?? '1') !== '0' && SERVERS.includes('tonearm');
const OFFLOAD_NAME = 'Tonearm behind nginx (offload)';
/** The issue's target for the offload row: its Range req/s at least this share of plain nginx's. */
const OFFLOAD_RANGE_TARGET = 0.8;

const durationSeconds = parseDuration(DURATION);
// Every run, plus start-up, upload and checks; anything past this is a hang.
const WATCHDOG_MS =
  ((SERVERS.length + (BASELINE ? 1 : 0) + (SERVERS.includes('offload') ? 1 : 0)) *
    (ROUNDS * SCENARIOS.length * (durationSeconds + 15) + 90) +
    60) *
    1000 +
  (TRANSCODE ? transcodeWatchdogMs() : 0);

const work = mkdtempSync(join(tmpdir(), 'tonearm-bench-'));
// nginx runs its worker as an unprivileged user (nobody) when started as root: it must be able to read the files.
chmodSync(work, 0o755);

function requireTool(name, pkg) {
  if (spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0) {
    throw new Error(`${name} is not installed: apt-get install -y ${pkg}`);
  }
}

function rangeScript(size) {
  const script = join(work, 'range.lua');
  writeFileSync(
    script,
    `local size = ${size}\nlocal span = ${RANGE_BYTES}\nmath.randomseed(42)\n` +
      'request = function()\n  local start = math.random(0, size - span)\n' +
      '  wrk.headers["Range"] = "bytes=" .. start .. "-" .. (start + span - 1)\n  return wrk.format()\nend\n',
  );
  return script;
}

async function json(response, what) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return (response.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : text;
}

/**
 * The server of `ref`, built in a temporary git worktree whose node_modules point at this checkout's packages (its own
 * workspace packages at its own sources). Answers the bundle's path.
 */
function buildBaseline(ref) {
  const dir = addWorktree(ref, join(work, 'baseline'));
  baselineWorktree = dir;
  console.log(`building the baseline server (${ref})…`);
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--force'], { cwd: dir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`the baseline server (${ref}) did not build`);
  return join(dir, 'apps/server/dist/main.js');
}

let baselineWorktree = null;

async function startTonearm(audio, cover, { name = 'Tonearm', entry = null, env = {} } = {}) {
  if (entry === null) {
    const build = await ensureServerBuilt();
    if (build.code !== 0) throw new Error('the server did not build');
  }
  const dataDir = join(work, `data-${name.replaceAll(' ', '-')}`);
  const { base, server } = await startBuiltServer({
    dataDir,
    entry,
    // The transcoding row measures the machine, not the limit: every stream of its largest step runs at once.
    env: { TRANSCODE_CONCURRENCY: String(Math.max(TRANSCODE_MAX_K, 1)), ...env },
  });
  const credentials = { username: 'bench', email: 'bench@example.com', password: 'bench-password-1' };
  await json(
    await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    }),
    'register',
  );
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: credentials.username, password: credentials.password }),
  });
  await json(login, 'login');
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie) throw new Error('login: no session cookie');
  const artistForm = new FormData();
  artistForm.set('name', 'Bench Artist');
  artistForm.set('image', new Blob([cover], { type: 'image/png' }), 'artist.png');
  await json(await fetch(`${base}/artists`, { method: 'POST', headers: { cookie }, body: artistForm }), 'artist');
  const artists = await json(await fetch(`${base}/artists`, { headers: { cookie } }), 'artists');
  const songForm = new FormData();
  songForm.set('name', 'Bench Song');
  songForm.set('genre', 'Ambient');
  songForm.set('artistId', String(artists[0].id));
  songForm.set('songFile', new Blob([audio], { type: 'audio/wav' }), 'bench.wav');
  songForm.set('imageFile', new Blob([cover], { type: 'image/png' }), 'cover.png');
  await json(await fetch(`${base}/api/songs`, { method: 'POST', headers: { cookie }, body: songForm }), 'upload');
  const [song] = await json(await fetch(`${base}/api/songs`, { headers: { cookie } }), 'songs');
  const coverResponse = await fetch(new URL(song.imgLink, base));
  if (coverResponse.status !== 200) throw new Error(`cover: ${coverResponse.status}`);
  return {
    name,
    process: server,
    dataDir,
    headers: { cookie },
    audioUrl: new URL(song.link, base).href,
    coverUrl: new URL(song.imgLink, base).href,
    coverBytes: Buffer.from(await coverResponse.arrayBuffer()),
    requiresSession: true,
  };
}

async function startNginx(dir) {
  const port = await freePort();
  const prefix = join(work, 'nginx');
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;\ndaemon off;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log warn;\n` +
      `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n` +
      `  keepalive_requests 100000;\n  client_body_temp_path ${prefix}/body;\n  proxy_temp_path ${prefix}/proxy;\n` +
      `  fastcgi_temp_path ${prefix}/fastcgi;\n  uwsgi_temp_path ${prefix}/uwsgi;\n  scgi_temp_path ${prefix}/scgi;\n` +
      `  types { audio/wav wav; image/webp img; }\n` +
      `  server {\n    listen 127.0.0.1:${port};\n    root ${dir};\n  }\n}\n`,
  );
  const nginx = startProcess('nginx', ['-c', conf, '-p', prefix]);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/audio.wav`, nginx);
  return { name: 'nginx', process: nginx, headers: {}, audioUrl: `${base}/audio.wav`, coverUrl: `${base}/cover.img` };
}

/**
 * nginx (1 worker, like the plain nginx row, no TLS either) in front of `backend`, a Tonearm started with
 * MEDIA_OFFLOAD=nginx and MEDIA_OFFLOAD_GATE: every /media/ request goes through Tonearm's session check at its gate,
 * and the bytes come from the internal location, with the media locations of docs/deploy/nginx.conf. Its figures
 * cover both processes.
 */
async function startOffloadNginx(backend) {
  const port = await freePort();
  const prefix = join(work, 'nginx-offload');
  mkdirSync(prefix, { recursive: true });
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;\ndaemon off;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log warn;\n` +
      `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  keepalive_requests 100000;\n` +
      `  client_body_temp_path ${prefix}/body;\n  proxy_temp_path ${prefix}/proxy;\n` +
      `  fastcgi_temp_path ${prefix}/fastcgi;\n  uwsgi_temp_path ${prefix}/uwsgi;\n  scgi_temp_path ${prefix}/scgi;\n` +
      // As many idle connections to Tonearm and its gate as wrk keeps to nginx, never closed for their count.
      `  upstream tonearm {\n    server ${new URL(backend.audioUrl).host};\n    keepalive ${Number(CONNECTIONS) * 2};\n` +
      `    keepalive_requests 1000000;\n  }\n` +
      `  upstream tonearm_media {\n    server ${backend.gate};\n    keepalive ${Number(CONNECTIONS) * 2};\n` +
      `    keepalive_requests 1000000;\n  }\n` +
      `  server {\n    listen 127.0.0.1:${port};\n    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n` +
      `    proxy_set_header Host $host;\n    proxy_set_header X-Forwarded-For $remote_addr;\n` +
      `    location / {\n      proxy_pass http://tonearm;\n      proxy_buffering off;\n    }\n` +
      `${offloadLocations(join(backend.dataDir, 'blobs'))}  }\n}\n`,
  );
  const nginx = startProcess('nginx', ['-c', conf, '-p', prefix]);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`, nginx);
  const viaNginx = (url) => `${base}${new URL(url).pathname}${new URL(url).search}`;
  return {
    ...backend,
    name: OFFLOAD_NAME,
    process: nginx,
    backend: backend.process,
    audioUrl: viaNginx(backend.audioUrl),
    coverUrl: viaNginx(backend.coverUrl),
  };
}

async function startMinimalNode(dir) {
  const port = await freePort();
  const server = startProcess(process.execPath, [join(root, 'bench/minimal-range-server.mjs'), dir, String(port)]);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/audio.wav`, server);
  return {
    name: 'minimal Node',
    process: server,
    headers: {},
    audioUrl: `${base}/audio.wav`,
    coverUrl: `${base}/cover.img`,
  };
}

/** Each server must serve the same bytes before its numbers mean anything. */
async function verify(target, audio, coverBytes) {
  async function expect(what, url, headers, status, bytes) {
    const response = await fetch(url, { headers });
    const body = Buffer.from(await response.arrayBuffer());
    const detail = response.status >= 400 ? `: ${body.toString().slice(0, 200)}` : '';
    if (response.status !== status || (bytes && !body.equals(bytes))) {
      throw new Error(
        `${target.name} ${what}: expected ${status}${bytes ? ` with ${bytes.length} bytes` : ''}, ` +
          `got ${response.status} with ${body.length} bytes${detail}`,
      );
    }
  }
  const start = 1_000_001;
  const end = start + RANGE_BYTES - 1;
  await expect('full GET', target.audioUrl, target.headers, 200, audio);
  await expect(
    'Range GET',
    target.audioUrl,
    { ...target.headers, range: `bytes=${start}-${end}` },
    206,
    audio.subarray(start, end + 1),
  );
  await expect('cover GET', target.coverUrl, target.headers, 200, coverBytes);
  if (target.requiresSession) await expect('audio GET without a session', target.audioUrl, {}, 401);
}

async function stop(target) {
  await stopProcess(target.process);
  if (target.backend) await stopProcess(target.backend);
}

/** Every process a target runs on (the offload row: nginx and its Tonearm). */
const pidsOf = (target) => [target.process.pid, ...(target.backend ? [target.backend.pid] : [])];
const sumMiB = (target, field) => pidsOf(target).reduce((sum, pid) => sum + treeMiB(pid, field), 0);

/** Memory before the load, then resets the peak so that what follows measures the load alone. */
function memoryBeforeLoad(target) {
  const beforeLoadPeakMiB = sumMiB(target, 'VmHWM');
  const idleMiB = sumMiB(target, 'VmRSS');
  return { idleMiB, beforeLoadPeakMiB, peakReset: pidsOf(target).every((pid) => resetPeak(pid)) };
}

/** The run whose req/s is the median of the rounds (the whole row, so its latencies belong to it). */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Each scenario is run on every server in turn before the next scenario starts (and the whole sequence ROUNDS times),
 * so a slow spell of a shared machine hits all servers alike instead of whichever happened to run then.
 */
async function measureAll(targets, audio, coverBytes) {
  const memory = new Map();
  for (const target of targets) {
    await verify(target, audio, coverBytes);
    memory.set(target, memoryBeforeLoad(target));
  }
  const script = rangeScript(audio.length);
  const runs = new Map(targets.map((target) => [target, Object.fromEntries(SCENARIOS.map((s) => [s, []]))]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const scenario of SCENARIOS) {
      for (const target of targets) {
        console.log(`  round ${round}/${ROUNDS}, ${scenario}, ${target.name}…`);
        const url = scenario === 'cover' ? target.coverUrl : target.audioUrl;
        const options = { headers: target.headers, script: scenario === 'range' ? script : undefined };
        runs.get(target)[scenario].push(await wrk(url, { ...options, connections: CONNECTIONS, duration: DURATION }));
      }
    }
  }
  const results = [];
  for (const target of targets) {
    const loadPeakMiB = sumMiB(target, 'VmHWM');
    // Still alive and still right after the load.
    await verify(target, audio, coverBytes);
    const rows = Object.fromEntries(SCENARIOS.map((s) => [s, medianRun(runs.get(target)[s])]));
    results.push({ name: target.name, rows, loadPeakMiB, ...memory.get(target) });
  }
  return results;
}

function fmt(n, digits = 0) {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

function report(results) {
  const lines = [];
  lines.push(
    `wrk -t2 -c${CONNECTIONS} -d${DURATION}, loopback; audio ${AUDIO_BYTES / 1048576} MiB WAV, Range GETs of ` +
      `${RANGE_BYTES / 1024} KiB at random offsets; RSS of the server's whole process tree.`,
  );
  lines.push('');
  lines.push('| server | scenario | req/s | MiB/s | p50 ms | p99 ms | non-2xx | socket errors |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of results) {
    for (const [scenario, m] of Object.entries(r.rows)) {
      lines.push(
        `| ${r.name} | ${scenario} | ${fmt(m.rps)} | ${fmt(m.mibps, 1)} | ${fmt(m.p50, 2)} | ${fmt(m.p99, 2)} | ` +
          `${m.non2xx} | ${m.socketErrors || '—'} |`,
      );
    }
  }
  lines.push('');
  lines.push(
    '| server | RSS MiB before load | peak RSS MiB before load (start-up, setup) | peak RSS MiB during load |',
  );
  lines.push('| --- | ---: | ---: | ---: |');
  for (const r of results) {
    const load = r.peakReset ? fmt(r.loadPeakMiB) : `${fmt(r.loadPeakMiB)} (could not reset: since start)`;
    lines.push(`| ${r.name} | ${fmt(r.idleMiB)} | ${fmt(r.beforeLoadPeakMiB)} | ${load} |`);
  }
  const tonearm = results.find((r) => r.name === 'Tonearm');
  const others = results.filter((r) => r !== tonearm);
  if (tonearm && others.length > 0) {
    lines.push('');
    lines.push(`| scenario | ${others.map((o) => `Tonearm / ${o.name}`).join(' | ')} |`);
    lines.push(`| --- | ${others.map(() => '---:').join(' | ')} |`);
    for (const scenario of SCENARIOS) {
      const t = tonearm.rows[scenario].rps;
      lines.push(`| ${scenario} | ${others.map((o) => fmt(t / o.rows[scenario].rps, 2)).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/** Against a baseline build (issue 9): the change may cost at most 5% of the throughput of any scenario. */
function baselineLines(results) {
  const tonearm = results.find((r) => r.name === 'Tonearm');
  const baseline = results.find((r) => r.name === 'Tonearm baseline');
  if (!tonearm || !baseline) return [];
  return SCENARIOS.map((s) => {
    const ratio = tonearm.rows[s].rps / baseline.rows[s].rps;
    const verdict = ratio >= 0.95 ? 'met   ' : 'MISSED';
    return `${verdict} ${s}: Tonearm ${fmt(tonearm.rows[s].rps)} req/s = ${fmt(ratio, 2)}× baseline ${BASELINE} (target ≥ 0.95)`;
  });
}

/** Issue 14: the offload row's Range req/s at least 0.8× plain nginx's, measured in the same run. */
function offloadLines(results) {
  const offload = results.find((r) => r.name === OFFLOAD_NAME);
  const nginx = results.find((r) => r.name === 'nginx');
  if (!offload || !nginx) return [];
  const ratio = offload.rows.range.rps / nginx.rows.range.rps;
  const verdict = ratio >= OFFLOAD_RANGE_TARGET ? 'met   ' : 'MISSED';
  return [
    `${verdict} range: ${OFFLOAD_NAME} ${fmt(offload.rows.range.rps)} req/s = ${fmt(ratio, 2)}× plain nginx ` +
      `(target ≥ ${OFFLOAD_RANGE_TARGET})`,
  ];
}

/** The issue's target: at or above the minimal Node server on range and full, peak RSS under 150 MB. */
function targetLines(results) {
  const tonearm = results.find((r) => r.name === 'Tonearm');
  const node = results.find((r) => r.name === 'minimal Node');
  if (!tonearm || !node) return [...baselineLines(results), ...offloadLines(results)];
  const lines = ['range', 'full'].map((s) => {
    const ratio = tonearm.rows[s].rps / node.rows[s].rps;
    const verdict = ratio >= 1 ? 'met   ' : 'MISSED';
    return `${verdict} ${s}: Tonearm ${fmt(tonearm.rows[s].rps)} req/s = ${fmt(ratio, 2)}× minimal Node`;
  });
  const peak = Math.max(tonearm.loadPeakMiB, tonearm.beforeLoadPeakMiB);
  lines.push(`${peak < 150 ? 'met   ' : 'MISSED'} memory: Tonearm peak RSS ${fmt(peak)} MiB (target < 150)`);
  return [...lines, ...baselineLines(results), ...offloadLines(results)];
}

async function main() {
  requireTool('wrk', 'wrk');
  if (SERVERS.includes('nginx') || SERVERS.includes('offload')) requireTool('nginx', 'nginx-light');
  if (TRANSCODE) requireFfmpeg();
  let results;
  let transcoding = null;
  const audio = makeWav(AUDIO_BYTES);
  const cover = await makeCover();
  console.log(`audio ${(audio.length / 1048576).toFixed(1)} MiB, cover ${(cover.length / 1024).toFixed(1)} KiB`);

  // Tonearm first: the other servers serve the exact thumbnail it made of the cover.
  const tonearm = await startTonearm(audio, cover);
  const files = join(work, 'files');
  mkdirSync(files, { recursive: true, mode: 0o755 });
  writeFileSync(join(files, 'audio.wav'), audio, { mode: 0o644 });
  writeFileSync(join(files, 'cover.img'), tonearm.coverBytes, { mode: 0o644 });

  const servers = [tonearm];
  try {
    if (BASELINE)
      servers.push(await startTonearm(audio, cover, { name: 'Tonearm baseline', entry: buildBaseline(BASELINE) }));
    if (SERVERS.includes('nginx')) servers.push(await startNginx(files));
    if (SERVERS.includes('node')) servers.push(await startMinimalNode(files));
    if (SERVERS.includes('offload')) {
      // As docs/deploy configures it: nginx asks the gate about /media/, on a Unix socket.
      const gate = join(work, 'gate.sock');
      const env = { MEDIA_OFFLOAD: 'nginx', MEDIA_OFFLOAD_GATE: gate };
      const backend = { ...(await startTonearm(audio, cover, { name: 'Tonearm offload', env })), gate: `unix:${gate}` };
      // Listed at once, so a failure to start nginx still stops this Tonearm; then replaced by the pair.
      servers.push(backend);
      servers[servers.length - 1] = await startOffloadNginx(backend);
    }
    const measured = SERVERS.includes('tonearm') ? servers : servers.slice(1);
    console.log(`measuring ${measured.map((t) => t.name).join(', ')} (${DURATION} per run, ${ROUNDS} round(s))…`);
    results = await measureAll(measured, audio, tonearm.coverBytes);
    // After the wrk runs, alone: ffmpeg would otherwise take the CPU the other servers are measured with.
    if (TRANSCODE) transcoding = transcodeReport(await measureTranscoding(tonearm, cover, work));
  } finally {
    for (const server of servers) await stop(server);
  }

  const table = transcoding === null ? report(results) : `${report(results)}\n\n${transcoding}`;
  const targets = targetLines(results);
  console.log(`\n${table}\n${targets.length > 0 ? `\n${targets.join('\n')}` : ''}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/stream.md'), `${table}\n`);
  const failed = results.filter((r) => Object.values(r.rows).some((m) => m.non2xx > 0 || !Number.isFinite(m.rps)));
  if (failed.length > 0) {
    throw new Error(`non-2xx answers or no result under load from: ${failed.map((r) => r.name).join(', ')}`);
  }
}

await runBench('bench:stream', main, {
  watchdogMs: WATCHDOG_MS,
  cleanUp: () => {
    if (baselineWorktree) removeWorktree(baselineWorktree);
    rmSync(work, { recursive: true, force: true });
  },
});
