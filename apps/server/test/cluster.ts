/**
 * What a process-level test of several instances needs (its database comes from emptyPostgresDatabase in harness.ts):
 * built Tonearm servers started as child processes, and nginx in front of them. Everything is started on free loopback
 * ports and stopped by process id, temp dirs removed, also when a test fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureServerBuilt, serverCommand } from '../../../scripts/build-server.mjs';
import { freePort } from '../../../scripts/free-port.mjs';

export const NGINX = '/usr/sbin/nginx';

/** A started child process, its output kept for the error message when it dies early. */
export interface Started {
  child: ChildProcess;
  output: string[];
}

function startProcess(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => output.push(String(chunk)));
  return { child, output };
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM by pid, then SIGKILL after 5 s. */
export async function stopProcess({ child }: Started): Promise<void> {
  const { pid } = child;
  if (hasExited(child) || pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(pid, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (!hasExited(child)) process.kill(pid, 'SIGKILL');
}

/** Waits until `url` answers below 500, failing with the process's output when it exits or 30 s pass. */
async function waitForAnswer(url: string, started: Started): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (hasExited(started.child)) throw new Error(`process exited early:\n${started.output.join('')}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 30 s:\n${started.output.join('')}`);
}

/** Builds the server bundle when its sources changed (seconds; nothing when it is fresh). */
export async function builtServer(): Promise<void> {
  const { code } = await ensureServerBuilt();
  if (code !== 0) throw new Error('building the server (scripts/build-server.mjs) failed');
}

export interface Instance extends Started {
  base: string;
}

/** Starts the built server with `env` on a free port; answers once /healthz does. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const [command, args, serverEnv] = serverCommand();
  const started = startProcess(command, args, { ...serverEnv, ...env, PORT: String(port), HOST: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForAnswer(`${base}/healthz`, started);
  } catch (error) {
    await stopProcess(started);
    throw error;
  }
  return { ...started, base };
}

export interface Nginx extends Started {
  base: string;
  stop(): Promise<void>;
}

/**
 * nginx as a round-robin reverse proxy over `upstreams` (base URLs), with its own temp prefix, config and pid file,
 * in the foreground (so its pid is the child's).
 */
export async function startNginx(upstreams: string[]): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`nginx is required by this test and is not installed at ${NGINX}`);
  const prefix = await mkdtemp(path.join(tmpdir(), 'tonearm-nginx-'));
  const port = await freePort();
  for (const dir of ['logs', 'temp']) await mkdir(path.join(prefix, dir));
  const servers = upstreams.map((base) => `    server ${new URL(base).host};`).join('\n');
  const config = `
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  upstream tonearm {
${servers}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 50m;
    location / {
      proxy_pass http://tonearm;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
  const configFile = path.join(prefix, 'nginx.conf');
  await writeFile(configFile, config);
  const started = startProcess(NGINX, ['-p', prefix, '-c', configFile, '-e', `${prefix}/logs/error.log`], {});
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(started);
    await rm(prefix, { recursive: true, force: true });
  };
  try {
    await waitForAnswer(`${base}/healthz`, started);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...started, base, stop };
}
