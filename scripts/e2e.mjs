// `npm run test:e2e`: builds the web app when stale, then runs the Playwright suite in Debian's Chromium.
import { bin, ensureWebBuilt, run } from './lib.mjs';

const build = await ensureWebBuilt();
if (build.code !== 0) process.exit(build.code);
const { code } = await run(bin('playwright'), ['test', ...process.argv.slice(2)]);
process.exit(code);
