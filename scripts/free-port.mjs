// The one freePort of the repo, in plain JavaScript so that every runtime can load it: the npm scripts and the bench
// (plain node), the server tests (Vitest) and the e2e support (Playwright). Its types are in free-port.d.mts.
import { createServer } from 'node:net';

/** A TCP port that was free a moment ago on the loopback interface. */
export function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePromise(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
