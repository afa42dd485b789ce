import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../scripts/free-port.mjs';

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');

/** A function, not an inline check, because the exit code changes behind TypeScript's narrowing across awaits. */
function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

async function waitForHealth(baseURL: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Tonearm exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      const response = await fetch(`${baseURL}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Tonearm did not answer /healthz within 60 s:\n${output.join('')}`);
}

/** Work done on the fresh data dir before the server starts (a seeded library): more environment, and a clean-up. */
export type BeforeStart = (dataDir: string) => Promise<{ env: Record<string, string>; dispose(): Promise<void> }>;

/**
 * Starts the real server (built web app, fresh SQLite data dir, demo catalogue unless `demo: false`) on a free
 * loopback port. Each spec file that needs its own first account (the first becomes ADMIN) starts its own.
 * `beforeStart` prepares the data dir first (e2e/support/large-library.ts seeds one).
 */
export async function startServer(
  options: { demo?: boolean; env?: Record<string, string>; beforeStart?: BeforeStart } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tonearm-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  let prepared: Awaited<ReturnType<BeforeStart>> = { env: {}, dispose: () => Promise.resolve() };
  try {
    if (options.beforeStart) prepared = await options.beforeStart(dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // The built server (plain node, no TypeScript loader), as `npm start` runs it; global-setup.ts builds it when stale.
  const child = spawn(process.execPath, ['--enable-source-maps', join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: options.demo === false ? '0' : '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...options.env,
      ...prepared.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const stop = async () => {
    if (isRunning(child)) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (isRunning(child)) child.kill('SIGKILL');
    }
    await prepared.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseURL, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, dataDir, stop };
}
