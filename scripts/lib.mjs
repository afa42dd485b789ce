// Helpers shared by the npm scripts: running a step with timing, and building the web app only when stale.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

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

/** The first line of a failure, without colour codes, cut to `width` characters. */
function firstLine(text, width = 160) {
  const lines = stripVTControlCharacters(text ?? '').split('\n');
  const line = lines.find((part) => part.trim() !== '') ?? '';
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** A vitest error's first line; its JSON report gives a timeout as the bare stack of "Error: STACK_TRACE_ERROR". */
function vitestError(text) {
  const line = firstLine(text);
  return line === 'Error: STACK_TRACE_ERROR' ? 'timed out (the test or one of its hooks)' : line;
}

/** A JSON report a test runner wrote, or null when it wrote none (it did not run, or crashed first). */
export function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/**
 * What failed in a vitest JSON report (`--reporter=json`), one line each: a file that did not load, or a test with the
 * first line of its error; paths are shown relative to `base`. CI shows only the end of the output, so the summaries
 * repeat these there (printFailures).
 */
export function vitestFailures(report, base = root) {
  const lines = [];
  for (const file of report?.testResults ?? []) {
    const name = file.name.startsWith(base) ? file.name.slice(base.length + 1) : file.name;
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failed.length === 0) lines.push(`${name}: ${firstLine(file.message)}`);
    for (const test of failed) lines.push(`${name} › ${test.fullName}: ${vitestError(test.failureMessages?.[0])}`);
  }
  return lines;
}

/** What failed in a Playwright JSON report, one line each (suites nest). */
export function playwrightFailures(report) {
  const lines = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const error = spec.tests?.flatMap((test) => test.results ?? []).find((result) => result.error)?.error;
      lines.push(`${spec.file} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error?.message)}`);
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return lines;
}

/** Prints failure lines under a summary, `indent` deep, the first 20 of them. */
export function printFailures(lines, indent) {
  for (const line of lines.slice(0, 20)) console.log(`${indent}✗ ${line}`);
  if (lines.length > 20) console.log(`${indent}… and ${lines.length - 20} more`);
}
