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
/**
 * Every port this process was given: never handed out twice, so the ports a caller takes one after another for one
 * setup are distinct (nginx's HTTP and HTTPS listeners on one port would merge into one TLS listener).
 */
const given = new Set();

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

/** A TCP port that was free a moment ago on the loopback interface, and not given before in this process. */
export async function freePort() {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    const port = given.has(candidate) ? null : await tryPort(candidate);
    if (port !== null) return take(port);
  }
  const any = await tryPort(0);
  if (any === null || given.has(any)) throw new Error('no free TCP port on 127.0.0.1');
  return take(any);
}

function take(port) {
  given.add(port);
  return port;
}
