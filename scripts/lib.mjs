// Helpers shared by the npm scripts: running a step with timing, and building the web app only when stale.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command with inherited output; resolves with its exit code and wall time. */
export function run(command, args, options = {}) {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolvePromise({ code: 127, ms: Date.now() - started });
    });
    child.on('exit', (code, signal) => resolvePromise({ code: code ?? (signal ? 1 : 0), ms: Date.now() - started }));
  });
}

/** The newest modification time under `path` (node_modules and dist left out); 0 when it does not exist. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const webSources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
];

/** True when apps/web/dist is missing or older than any web or contract source. */
export function webBuildIsStale() {
  const built = join(root, 'apps/web/dist/index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return webSources.some((source) => newestMtime(join(root, source)) > builtAt);
}

export async function ensureWebBuilt() {
  if (!webBuildIsStale()) return { code: 0, ms: 0 };
  console.log('Building the web app (apps/web/dist)…');
  return run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: join(root, 'apps/web') });
}
