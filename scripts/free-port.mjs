// The one freePort of the repo, in plain JavaScript so that every runtime can load it: the npm scripts and the bench
// (plain node), the server tests (Vitest) and the e2e support (Playwright). Its types are in free-port.d.mts.
import { createServer } from 'node:net';

/**
 * Ports are picked below Linux's ephemeral range (32768-60999 by default), where the kernel never hands one out as the
 * local port of an outgoing connection: a port the OS chose with listen(0) could be taken that way (a database or HTTP
 * client of another test) before the server meant to use it binds it.
 */
const LOW = 20_000;
const HIGH = 32_767;
const ATTEMPTS = 20;

/** Answers `port` if it can be bound on the loopback interface right now, else null. */
function tryPort(port) {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolvePromise(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePromise(typeof address === 'object' && address ? address.port : null));
    });
  });
}

/** A TCP port that was free a moment ago on the loopback interface. */
export async function freePort() {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = await tryPort(LOW + Math.floor(Math.random() * (HIGH - LOW + 1)));
    if (port !== null) return port;
  }
  const any = await tryPort(0);
  if (any === null) throw new Error('no free TCP port on 127.0.0.1');
  return any;
}
