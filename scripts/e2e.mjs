// `npm run test:e2e`: builds the web app and the server when stale, then runs the Playwright suite in Chromium.
import { ensureServerBuilt } from './build-server.mjs';
import { bin, ensureWebBuilt, run } from './lib.mjs';

for (const ensureBuilt of [ensureWebBuilt, ensureServerBuilt]) {
  const build = await ensureBuilt();
  if (build.code !== 0) process.exit(build.code);
}
const { code } = await run(bin('playwright'), ['test', ...process.argv.slice(2)]);
process.exit(code);
