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

/**
 * Starts the real server (built web app, fresh SQLite data dir, demo catalogue unless `demo: false`) on a free
 * loopback port. Each spec file that needs its own first account (the first becomes ADMIN) starts its own.
 */
export async function startServer(
  options: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tonearm-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const output: string[] = [];
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  await waitForHealth(baseURL, child, output);
  return {
    baseURL,
    dataDir,
    async stop() {
      if (isRunning(child)) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (isRunning(child)) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
