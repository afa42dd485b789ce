import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Fails the run at once, with the reason, when the browser or the built web app is missing; builds the server. */
export default function globalSetup(): void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}: install Debian's package (apt-get install -y chromium).`);
  }
  if (!existsSync('apps/web/dist/index.html')) {
    throw new Error('apps/web/dist is missing: run `npm run build` (npm test and npm run test:e2e build it for you).');
  }
  // The specs run the built server (apps/server/dist); rebuilt here only when a server source is newer.
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
}
