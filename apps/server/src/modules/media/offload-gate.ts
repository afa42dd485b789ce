import { chmod, lstat, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { GateAddress } from '../../config.js';
import { generateRequestId } from '../../logger.js';
import type { HandOver, MediaHandler } from './media-handler.js';
import type { GateMeter } from '../../media/media-meters.js';

/**
 * MEDIA_OFFLOAD_GATE: a second listener, for nginx's `/media/` requests only (docs/deploy/nginx.conf). It answers each
 * one with an empty response naming where nginx goes next: the blob in the `internal` location once the media
 * handler's checks pass (the session, the blob, no transcode: `handOver`), else the named location `@tonearm`, which
 * passes the very same request on to Tonearm's HTTP server, so every refusal, transcode and error is answered there,
 * exactly as without the gate.
 *
 * Why not node:http: nginx asks once per Range request of a stream, and Node's HTTP server costs about 20 µs of CPU
 * per request before any of Tonearm's work, on the cores that nginx needs to send the bytes. The gate reads only
 * what nginx sends (one request head at a time over keep-alive connections, no bodies) and writes a few fixed
 * headers: about half the cost. Anything else is refused (400, 431) and the connection closed; it sends no content,
 * so a client that reached it directly would learn no more than Tonearm's own answers tell. It holds at most
 * MAX_CONNECTIONS connections, and closes one that waits longer than IDLE_TIMEOUT_MS for a whole head.
 */

/** The named nginx location that passes a request on to Tonearm's HTTP server. */
export const APP_LOCATION = '@tonearm';
/** The largest request head accepted (nginx's proxied heads are a few hundred bytes plus the cookies). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Heads waiting behind the one being answered; nginx sends one at a time, so more than this is not nginx. */
const MAX_PENDING_BYTES = 4 * MAX_HEAD_BYTES;
/** TCP keep-alive probes on idle connections (the kernel's, free per request): a vanished peer's socket goes. */
const KEEP_ALIVE_PROBE_MS = 60_000;
/**
 * A connection is closed when no whole head came this long after its previous answer (or its opening): longer than
 * nginx's 60 s upstream keepalive_timeout, so nginx closes its idle connections first and never reuses one the gate is
 * closing (docs/deploy/nginx.conf). Counted from the answer, not from the last byte, so a head sent a byte at a time
 * cannot hold a connection either; a request whose answer is awaited is never cut.
 */
export const IDLE_TIMEOUT_MS = 120_000;
/**
 * Connections open at once; past this a new one is closed as soon as it is accepted. nginx keeps `keepalive 32` idle
 * connections per worker and uses each for microseconds per request, so far fewer are ever open.
 */
export const MAX_CONNECTIONS = 1024;
/** A refused connection is logged at most this often (a flood would otherwise flood the log too). */
const DROP_WARNING_MS = 60_000;
const REQUEST_LINE = /^([A-Z]+) (\/\S*) HTTP\/1\.([01])$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const EMPTY: Buffer = Buffer.alloc(0);
const LF = 0x0a;
const CR = 0x0d;

export interface RequestHead {
  method: string;
  /** The request target as sent: path and query, still percent-encoded. */
  target: string;
  /** Every Cookie header, joined as one. */
  cookie: string | undefined;
  /** Whether the connection stays open after the answer. */
  keepAlive: boolean;
}

/** A complete head and its length in bytes, a refusal, or null while the head is still incomplete. */
export type ParsedHead = { head: RequestHead; length: number } | { refuse: 400 | 431 } | null;

type Refusal = 400 | 408 | 431;

/**
 * The first request head in `buffer` (HTTP/1.x, no body: a body would desynchronise the connection, so it is refused).
 * Lines end in CRLF: a head with a bare LF is refused rather than waited for, since its CRLF CRLF end never comes.
 */
export function parseRequestHead(buffer: Buffer): ParsedHead {
  const end = buffer.indexOf('\r\n\r\n');
  if (end === -1) {
    if (hasBareLf(buffer)) return { refuse: 400 };
    return buffer.length > MAX_HEAD_BYTES ? { refuse: 431 } : null;
  }
  if (end + 4 > MAX_HEAD_BYTES) return { refuse: 431 };
  const lines = buffer.toString('latin1', 0, end).split('\r\n');
  const line = REQUEST_LINE.exec(lines[0] ?? '');
  if (line === null) return { refuse: 400 };
  const [, method = '', target = '', minor] = line;
  const head: RequestHead = { method, target, cookie: undefined, keepAlive: minor === '1' };
  for (const field of lines.slice(1)) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).toLowerCase();
    if (colon <= 0 || !HEADER_NAME.test(name) || field.includes('\n')) return { refuse: 400 };
    const value = field.slice(colon + 1).trim();
    if (name === 'transfer-encoding' || (name === 'content-length' && value !== '0')) return { refuse: 400 };
    if (name === 'cookie') head.cookie = head.cookie === undefined ? value : `${head.cookie}; ${value}`;
    if (name === 'connection') head.keepAlive = keepsAlive(value, head.keepAlive);
  }
  return { head, length: end + 4 };
}

/** Whether a line of the (incomplete) head ends in LF alone. */
function hasBareLf(buffer: Buffer): boolean {
  for (let at = buffer.indexOf(LF); at !== -1; at = buffer.indexOf(LF, at + 1)) {
    if (buffer[at - 1] !== CR) return true;
  }
  return false;
}

function keepsAlive(connection: string, fallback: boolean): boolean {
  const options = connection
    .toLowerCase()
    .split(',')
    .map((option) => option.trim());
  if (options.includes('close')) return false;
  return options.includes('keep-alive') || fallback;
}

/** The answer to one head: the blob for nginx to send, or the request back to Tonearm's HTTP server. */
export function gateAnswer(handOver: HandOver | null, keepAlive: boolean): string {
  const connection = keepAlive ? '' : 'Connection: close\r\n';
  if (handOver === null)
    return `HTTP/1.1 200 OK\r\nX-Accel-Redirect: ${APP_LOCATION}\r\n${connection}Content-Length: 0\r\n\r\n`;
  return (
    `HTTP/1.1 200 OK\r\nX-Accel-Redirect: ${handOver.uri}\r\nContent-Type: ${handOver.mime}\r\n` +
    `Cache-Control: ${handOver.cacheControl}\r\nX-Request-Id: ${generateRequestId()}\r\n${connection}` +
    'Content-Length: 0\r\n\r\n'
  );
}

const REASONS: Record<Refusal, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function refusal(status: Refusal): string {
  const reason = REASONS[status];
  return `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
}

export interface OffloadGateOptions {
  address: GateAddress;
  handOver: MediaHandler['handOver'];
  log: FastifyBaseLogger;
  /** Counts the answers (the metrics); none by default. */
  meter?: GateMeter;
  /** How long a connection may wait for a whole head (IDLE_TIMEOUT_MS by default; tests shorten it). */
  idleMs?: number;
  /** Connections open at once (MAX_CONNECTIONS by default). */
  maxConnections?: number;
}

export interface OffloadGate {
  /** Stops listening and closes every connection (a Unix socket's file goes too). */
  close(): Promise<void>;
}

/**
 * Listens at the address; rejects, naming it, when it cannot (a taken port, a socket another process listens on). A
 * Unix socket left by a process that died is replaced, and the new one is open to every local user (chmod 666): it
 * sends no content, and the directory it is in decides who reaches it (RuntimeDirectory= in docs/deploy).
 */
export async function startOffloadGate(options: OffloadGateOptions): Promise<OffloadGate> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, options);
  });
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  warnOfDrops(server, options.log);
  const { address } = options;
  const where = 'path' in address ? address.path : `${address.host}:${address.port}`;
  try {
    if ('path' in address) await removeStaleSocket(address.path);
    await listen(server, address);
    if ('path' in address) await chmod(address.path, 0o666);
  } catch (error) {
    server.close();
    throw new Error(`MEDIA_OFFLOAD_GATE: cannot listen on ${where}: ${(error as Error).message}`, { cause: error });
  }
  options.log.info({ address: where }, 'the media offload gate is listening');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Logs that the gate refused connections for being at its limit (Node closes them: `server.maxConnections`). */
function warnOfDrops(server: Server, log: FastifyBaseLogger): void {
  let warnedAt = -Infinity;
  server.on('drop', () => {
    const now = Date.now();
    if (now - warnedAt < DROP_WARNING_MS) return;
    warnedAt = now;
    log.warn(
      { maxConnections: server.maxConnections },
      'the media offload gate is at its connection limit: it closes new connections',
    );
  });
}

function listen(server: Server, address: GateAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Removes the socket file at `path` when no process listens on it any more; anything else there is left alone. */
async function removeStaleSocket(path: string): Promise<void> {
  const found = await lstat(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  });
  if (found === null) return;
  if (!found.isSocket()) throw new Error('a file that is not a socket is in the way');
  const listening = await new Promise<boolean>((resolve) => {
    const probe = connect({ path }, () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (listening) throw new Error('another process listens on it');
  await unlink(path);
}

/** One keep-alive connection from nginx: heads are answered one at a time, in order. */
function serveConnection(socket: Socket, { handOver, log, meter, idleMs = IDLE_TIMEOUT_MS }: OffloadGateOptions): void {
  let pending: Buffer = EMPTY;
  let busy = false;
  let ended = false;
  // One timer per connection, restarted by each answer (refresh() is cheap: no new timer per request).
  const idle = setTimeout(expire, idleMs);
  socket.setNoDelay(true);
  socket.setKeepAlive(true, KEEP_ALIVE_PROBE_MS);
  socket.on('error', () => socket.destroy());
  socket.once('close', () => clearTimeout(idle));
  socket.on('data', (chunk: Buffer) => {
    if (ended) return;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (pending.length > MAX_PENDING_BYTES) socket.destroy();
    else if (!busy) next().catch(broken);
  });

  /** A fault of the gate itself: logged, and the connection dropped (nginx retries the request elsewhere or fails it). */
  function broken(error: unknown): void {
    log.error({ err: error }, 'the media offload gate dropped a connection');
    socket.destroy();
  }

  /** Whether nginx went away (a function: it may happen while an answer is awaited). */
  function closed(): boolean {
    return socket.destroyed;
  }

  /** Sends the last answer; a peer that keeps its side open after it is dropped at the next expiry. */
  function end(last: string): void {
    ended = true;
    pending = EMPTY;
    socket.end(last, 'latin1');
    idle.refresh();
  }

  /** No whole head since the last answer: an idle connection is dropped, a half-sent head told 408 first. */
  function expire(): void {
    if (busy && !ended) idle.refresh();
    else if (ended || pending.length === 0) socket.destroy();
    else end(refusal(408));
  }

  async function next(): Promise<void> {
    busy = true;
    for (;;) {
      const parsed = parseRequestHead(pending);
      if (parsed === null || ended || closed()) break;
      if ('refuse' in parsed) {
        end(refusal(parsed.refuse));
        break;
      }
      pending = pending.subarray(parsed.length);
      const { head } = parsed;
      // Most answers come from memory at once; awaiting those too would cost a turn of the event loop each.
      const decided = decide(head);
      const handedOver = decided instanceof Promise ? await decided : decided;
      meter?.answered(handedOver === null ? 'app' : 'file');
      const answer = gateAnswer(handedOver, head.keepAlive);
      if (closed()) break;
      if (head.keepAlive) {
        socket.write(answer, 'latin1');
        idle.refresh();
      } else end(answer);
    }
    busy = false;
  }

  function decide(head: RequestHead): HandOver | null | Promise<HandOver | null> {
    const failed = (error: unknown) => {
      // Tonearm's HTTP server answers it instead, and reports its own failure if it has one.
      log.error({ err: error, url: head.target }, 'the media offload gate could not decide');
      return null;
    };
    try {
      const decided = handOver(head.method, head.target, head.cookie);
      return decided instanceof Promise ? decided.catch(failed) : decided;
    } catch (error) {
      return failed(error);
    }
  }
}
