// `npm run test:e2e [-- spec...]`: builds the web app and the server when stale, then runs the Playwright suite (or the
// named specs) in Chromium.
import { ensureServerBuilt } from './build-server.mjs';
import { bin, ensureWebBuilt, run } from './lib.mjs';

for (const ensureBuilt of [ensureWebBuilt, ensureServerBuilt]) {
  const build = await ensureBuilt();
  if (build.code !== 0) process.exit(build.code);
}
const args = process.argv.slice(2);
// Named specs run by themselves: the audio specs' project waits for all the others (playwright.config.ts) only in a
// whole run.
const named = args.some((arg) => !arg.startsWith('-'));
const { code } = await run(bin('playwright'), ['test', ...(named ? ['--no-deps'] : []), ...args]);
process.exit(code);
