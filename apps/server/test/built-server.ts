/**
 * The built server (apps/server/dist, what `npm start` runs) as a process of its own, for tests that kill it (SIGKILL)
 * and start it again on the same DATA_DIR and database: kill-9.test.ts, scan-kill-9.test.ts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort } from '../../../scripts/free-port.mjs';
import { emptyPostgresDatabase, type Dialect } from './harness.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = path.join(ROOT, 'apps/server/dist/main.js');
const PASSWORD = 'kill-nine-password-1';

/** Builds the bundle the operators run (npm start), when its sources changed: call it in a beforeAll. */
export function buildServer(): void {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

/** Where a server keeps its data: a DATA_DIR, and a PostgreSQL database (null: SQLite in the DATA_DIR). */
export interface Place {
  dataDir: string;
  databaseUrl: string | null;
  drop(): Promise<void>;
}

/** A fresh, empty place of the dialect: a temp DATA_DIR, and on PostgreSQL an empty database of the run. */
export async function newPlace(dialect: Dialect, prefix = 'tonearm-kill9-'): Promise<Place> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  const pg = dialect === 'postgres' ? await emptyPostgresDatabase() : null;
  return {
    dataDir,
    databaseUrl: pg?.databaseUrl ?? null,
    async drop() {
      await pg?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A process and everything it printed. */
export interface Running {
  child: ChildProcess;
  output: string[];
}

export function launch(command: string, args: string[], place: Place, env: Record<string, string> = {}): Running {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: place.dataDir,
      DATABASE_URL: place.databaseUrl ?? '',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      UPLOAD_RATE_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

export async function killHard({ child }: Running): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** How long a process may take to stop on SIGTERM, or an import to finish, before a test says which one hung. */
export const PROCESS_DEADLINE_MS = 60_000;

/** The exit code of `running` once it exits; fails, with what it printed, if that takes over `ms`. */
export async function exitOf(running: Running, what: string, ms = PROCESS_DEADLINE_MS): Promise<number | null> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not exit within ${ms} ms:\n${running.output.join('')}`)),
      ms,
    );
  });
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function stopGently(running: Running): Promise<void> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitOf(running, 'the server, stopped with SIGTERM,');
  child.kill('SIGTERM');
  await exited;
}

/**
 * The built server on `place` (with `env` on top of launch's), answering at the returned base URL. A free port can be
 * taken by another test's process before the server binds it: then it tries another. `onLaunch` is told each process
 * as soon as it is spawned (a test that kills it before it answers).
 */
export async function startServer(
  place: Place,
  env: Record<string, string> = {},
  onLaunch: (server: Running) => void = () => undefined,
): Promise<{ base: string; server: Running }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(place, env, onLaunch);
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function startServerOnce(
  place: Place,
  env: Record<string, string>,
  onLaunch: (server: Running) => void,
): Promise<{ base: string; server: Running }> {
  const port = await freePort();
  const server = launch(process.execPath, [SERVER], place, { ...env, PORT: String(port), HOST: '127.0.0.1' });
  onLaunch(server);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`server exited early:\n${server.output.join('')}`);
    }
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, server };
    await sleep(100);
  }
  await killHard(server);
  throw new Error(`server did not start:\n${server.output.join('')}`);
}

/** Registers the first user (an administrator) and signs in: answers the session cookie. */
export async function signIn(base: string): Promise<string> {
  const register = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'killadmin', email: 'kill@example.test', password: PASSWORD }),
  });
  expect(register.status).toBe(201);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'killadmin', password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
