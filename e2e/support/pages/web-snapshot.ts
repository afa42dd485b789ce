import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const WEB_DIST = resolve(import.meta.dirname, '../../../apps/web/dist');
/** A build that finished this long ago is taken as complete. */
const QUIET_MS = 1500;

export interface WebSnapshot {
  dir: string;
  remove(): void;
}

/** The newest mtime under `dir`, directories included (emptying a directory changes its own mtime). */
function newestMtime(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether index.html and every /assets file it names are present in `dir`. */
function isCompleteBuild(dir: string): boolean {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return false;
  const assets = readFileSync(index, 'utf8').match(/\/assets\/[^"'\s)]+/g) ?? [];
  return assets.every((asset) => existsSync(join(dir, asset)));
}

/**
 * Copies the built web app to a private directory for one spec's server. Engineers share this working tree and
 * `vite build` empties apps/web/dist while it runs: a server reading it directly would answer 404 for the page
 * or for lazy chunks in the middle of a test. The copy is taken only from a build that has been quiet for a moment.
 */
export async function snapshotWebDist(timeoutMs = 120_000): Promise<WebSnapshot> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const stamp = newestMtime(WEB_DIST);
      if (Date.now() - stamp > QUIET_MS && isCompleteBuild(WEB_DIST)) {
        const dir = mkdtempSync(join(tmpdir(), 'tonearm-web-'));
        cpSync(WEB_DIST, dir, { recursive: true });
        if (newestMtime(WEB_DIST) === stamp && isCompleteBuild(dir)) {
          return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
        }
        rmSync(dir, { recursive: true, force: true });
      }
    } catch {
      // apps/web/dist vanished mid-read: a build is running, try again shortly
    }
    if (Date.now() > deadline) throw new Error(`${WEB_DIST} did not settle into a complete build`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
}
