// `npm run bench:stream`: the same 8 MB audio file and ~30 KB cover served by Tonearm (through its real,
// authenticated routes), by nginx (sendfile, 1 worker) and by a minimal node:http + fs.createReadStream range server
// (the Node ceiling), each driven in turn by wrk (2 threads, 64 connections, 10 s) on loopback. Prints req/s, MiB/s,
// p50/p99 latency and peak RSS for each, and Tonearm's ratios. Bounded in time; cleans up after itself.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, root } from '../scripts/lib.mjs';
import { makeCover, makeWav } from './fixtures.mjs';

const DURATION = process.env.BENCH_DURATION ?? '10s';
const CONNECTIONS = process.env.BENCH_CONNECTIONS ?? '64';
const RANGE_BYTES = 256 * 1024;
const work = mkdtempSync(join(tmpdir(), 'tonearm-bench-'));
const children = [];

function requireTool(name, pkg) {
  if (spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0) {
    throw new Error(`${name} is not installed: apt-get install -y ${pkg}`);
  }
}

function startProcess(command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (c) => output.push(String(c)));
  child.stderr.on('data', (c) => output.push(String(c)));
  children.push(child);
  child.output = output;
  return child;
}

async function waitFor(url, child, headers = {}) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${child.output.join('')}`);
    try {
      const response = await fetch(url, { headers });
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** Peak resident set (VmHWM) of a process and its children, in MiB. */
function peakRssMiB(pid) {
  const pids = [pid, ...childPids(pid)];
  let kib = 0;
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kib += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return kib / 1024;
}

function childPids(pid) {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return list
      ? list
          .split(/\s+/)
          .map(Number)
          .flatMap((c) => [c, ...childPids(c)])
      : [];
  } catch {
    return [];
  }
}

function wrk(url, { headers = {}, rangeOf } = {}) {
  const args = ['-t2', `-c${CONNECTIONS}`, `-d${DURATION}`, '--latency', '--timeout', '5s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (rangeOf) {
    const script = join(work, 'range.lua');
    writeFileSync(
      script,
      `local size = ${rangeOf}\nlocal span = ${RANGE_BYTES}\nmath.randomseed(42)\n` +
        'request = function()\n  local start = math.random(0, size - span)\n' +
        '  wrk.headers["Range"] = "bytes=" .. start .. "-" .. (start + span - 1)\n  return wrk.format()\nend\n',
    );
    args.push('-s', script);
  }
  args.push(url);
  const result = spawnSync('wrk', args, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`wrk failed: ${result.stderr || result.stdout}`);
  return parseWrk(result.stdout);
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
  const p99 = /\s99%\s+([\d.]+)(\w+)/.exec(text);
  const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text);
  const socketErrors = /Socket errors:(.*)/.exec(text);
  return {
    rps,
    mibps: transfer ? toMiB(transfer[1], transfer[2]) : NaN,
    p50: p50 ? toMs(p50[1], p50[2]) : NaN,
    p99: p99 ? toMs(p99[1], p99[2]) : NaN,
    non2xx: errors ? Number(errors[1]) : 0,
    socketErrors: socketErrors ? socketErrors[1].trim() : '',
  };
}

async function startTonearm(audio, cover) {
  const port = await freePort();
  const dataDir = join(work, 'tonearm-data');
  const server = startProcess(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`, server);
  const credentials = { username: 'bench', email: 'bench@example.com', password: 'bench-password-1' };
  let response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: credentials.username, password: credentials.password }),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  if (!response.ok || !cookie) throw new Error(`login: ${response.status}`);
  const artistForm = new FormData();
  artistForm.set('name', 'Bench Artist');
  artistForm.set('image', new Blob([cover], { type: 'image/png' }), 'artist.png');
  response = await fetch(`${base}/artists`, { method: 'POST', headers: { cookie }, body: artistForm });
  if (!response.ok) throw new Error(`create artist: ${response.status} ${await response.text()}`);
  const artists = await (await fetch(`${base}/artists`, { headers: { cookie } })).json();
  const songForm = new FormData();
  songForm.set('name', 'Bench Song');
  songForm.set('genre', 'Ambient');
  songForm.set('artistId', String(artists[0].id));
  songForm.set('songFile', new Blob([audio], { type: 'audio/wav' }), 'bench.wav');
  songForm.set('imageFile', new Blob([cover], { type: 'image/png' }), 'cover.png');
  response = await fetch(`${base}/api/songs`, { method: 'POST', headers: { cookie }, body: songForm });
  if (response.status !== 201) throw new Error(`upload song: ${response.status} ${await response.text()}`);
  const songs = await (await fetch(`${base}/api/songs`, { headers: { cookie } })).json();
  const song = songs[0];
  const coverBytes = Buffer.from(await (await fetch(new URL(song.imgLink, base))).arrayBuffer());
  return {
    name: 'Tonearm',
    process: server,
    headers: { cookie },
    audioUrl: new URL(song.link, base).href,
    coverUrl: new URL(song.imgLink, base).href,
    coverBytes,
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
      `  types { audio/wav wav; image/webp webp; image/png png; }\n` +
      `  server {\n    listen 127.0.0.1:${port};\n    root ${dir};\n  }\n}\n`,
  );
  const nginx = startProcess('nginx', ['-c', conf, '-p', prefix]);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/audio.wav`, nginx);
  return { name: 'nginx', process: nginx, headers: {}, audioUrl: `${base}/audio.wav`, coverUrl: `${base}/cover.img` };
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

async function stop(target) {
  const child = target.process;
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function measure(target, audioSize) {
  const rows = {
    full: wrk(target.audioUrl, { headers: target.headers }),
    range: wrk(target.audioUrl, { headers: target.headers, rangeOf: audioSize }),
    cover: wrk(target.coverUrl, { headers: target.headers }),
  };
  return { name: target.name, rows, rssMiB: peakRssMiB(target.process.pid) };
}

function fmt(n, digits = 0) {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

function report(results) {
  const lines = [];
  lines.push('| server | scenario | req/s | MiB/s | p50 ms | p99 ms | non-2xx | peak RSS MiB |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    for (const [scenario, m] of Object.entries(r.rows)) {
      lines.push(
        `| ${r.name} | ${scenario} | ${fmt(m.rps)} | ${fmt(m.mibps, 1)} | ${fmt(m.p50, 2)} | ${fmt(m.p99, 2)} | ${m.non2xx} | ${fmt(r.rssMiB)} |`,
      );
    }
  }
  const [tonearm, nginx, node] = results;
  lines.push('');
  lines.push('| scenario | Tonearm / nginx | Tonearm / minimal Node |');
  lines.push('| --- | ---: | ---: |');
  for (const scenario of Object.keys(tonearm.rows)) {
    const t = tonearm.rows[scenario].rps;
    lines.push(`| ${scenario} | ${fmt(t / nginx.rows[scenario].rps, 2)} | ${fmt(t / node.rows[scenario].rps, 2)} |`);
  }
  return lines.join('\n');
}

async function main() {
  requireTool('wrk', 'wrk');
  requireTool('nginx', 'nginx-light');
  const audio = makeWav(8 * 1024 * 1024);
  const cover = await makeCover();
  console.log(`audio ${(audio.length / 1048576).toFixed(1)} MiB, cover ${(cover.length / 1024).toFixed(1)} KiB`);
  const results = [];

  const tonearm = await startTonearm(audio, cover);
  const files = join(work, 'files');
  mkdirSync(files, { recursive: true });
  writeFileSync(join(files, 'audio.wav'), audio);
  writeFileSync(join(files, 'cover.img'), tonearm.coverBytes);
  console.log(`measuring Tonearm (${DURATION} per scenario)…`);
  results.push(measure(tonearm, audio.length));
  await stop(tonearm);

  for (const start of [startNginx, startMinimalNode]) {
    const target = await start(files);
    console.log(`measuring ${target.name}…`);
    results.push(measure(target, audio.length));
    await stop(target);
  }

  const table = report(results);
  console.log(`\n${table}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/stream.md'), `${table}\n`);
}

try {
  await main();
} catch (error) {
  console.error(`bench:stream failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
