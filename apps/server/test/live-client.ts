import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveEventName, LiveEvents } from '@tonearm/contract';
import type { App } from '../src/http/app-types.js';

/** One event of the live channel as the client read it. */
export interface LiveFrame {
  event: string;
  data: unknown;
}

/** A live channel (GET /api/live) read over a real socket, as a browser's EventSource reads it. */
export interface LiveClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly frames: readonly LiveFrame[];
  /** Raw bytes read so far (heartbeats included). */
  readonly text: string;
  /** The next `event` (after those already taken) that `match` accepts, within `timeoutMs`. */
  next<E extends LiveEventName>(
    event: E,
    match?: (data: LiveEvents[E]) => boolean,
    timeoutMs?: number,
  ): Promise<LiveEvents[E]>;
  /** Resolves when the server ends the channel. */
  readonly ended: Promise<void>;
  close(): void;
}

/** The base URL of a listening app. */
export async function listening(app: App): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${String(address.port)}`;
}

/** Opens the live channel of device `key` with the session `cookie` (none: anonymous). */
export function openLive(
  base: string,
  cookie: string | null,
  key: string,
  agent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream', 'user-agent': agent };
    if (cookie !== null) headers.cookie = cookie;
    const req = request(`${base}/api/live?device=${encodeURIComponent(key)}`, { headers });
    req.on('error', reject);
    req.on('response', (response: IncomingMessage) => {
      resolve(liveClientOf(response, () => req.destroy()));
    });
    req.end();
  });
}

function liveClientOf(response: IncomingMessage, destroy: () => void): LiveClient {
  const frames: LiveFrame[] = [];
  let text = '';
  let buffer = '';
  const taken = new Set<number>();
  const waiters = new Set<() => void>();
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    text += chunk;
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) frames.push({ event, data: JSON.parse(data) as unknown });
    }
    for (const wake of waiters) wake();
  });
  const ended = new Promise<void>((resolve) => {
    response.on('end', resolve);
    response.on('close', resolve);
    response.on('error', () => {
      resolve();
    });
  });
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    frames,
    get text() {
      return text;
    },
    ended,
    next(event, match = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          for (const [index, frame] of frames.entries()) {
            if (!taken.has(index) && frame.event === event && match(frame.data as never)) {
              taken.add(index);
              waiters.delete(look);
              clearTimeout(timer);
              resolve(frame.data as never);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`No ${event} event within ${String(timeoutMs)} ms; had ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(look);
        look();
      });
    },
    close: destroy,
  };
}
