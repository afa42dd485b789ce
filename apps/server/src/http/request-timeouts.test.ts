import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ErrorCodes, RequestMessages } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser, type TestUser } from '../../test/factories.js';
import { multipartBody } from '../../test/media.js';
import type { HttpTimeouts } from '../config.js';

const TIMEOUTS: HttpTimeouts = {
  headersMs: 400,
  requestMs: 500,
  // Far above the 200 ms between the pieces of the slow upload below, which a loaded machine stretches.
  uploadIdleMs: 1500,
  uploadMs: 10_000,
  keepAliveMs: 5000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawExchange {
  /** Everything the server sent. */
  answer: () => string;
  /** Resolves when the connection is closed (by either side), with the milliseconds since it was opened. */
  closed: Promise<number>;
  socket: net.Socket;
}

function connect(port: number): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const openedAt = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      resolve({ answer: () => Buffer.concat(chunks).toString('utf8'), closed, socket });
    });
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - openedAt)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

describeEachDialect('request timeouts on %s', { config: { timeouts: TIMEOUTS } }, (t) => {
  let user: TestUser;
  let port: number;

  beforeAll(async () => {
    user = await makeUser(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });

  async function openConnections(): Promise<number> {
    return new Promise((resolve, reject) =>
      t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }

  it('cuts a login body trickled byte by byte with a 408 and frees the connection', async () => {
    const exchange = await connect(port);
    const body = JSON.stringify({ username: 'someone', password: 'a password of some length' });
    exchange.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const trickle = setInterval(() => {
      if (!exchange.socket.destroyed && sent < body.length) exchange.socket.write(body[sent++] ?? '');
    }, 100);
    const closedAfter = await exchange.closed;
    clearInterval(trickle);
    expect(sent).toBeLessThan(body.length);
    expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 50);
    expect(closedAfter).toBeLessThan(TIMEOUTS.requestMs + 2000);
    expect(statusOf(exchange.answer())).toBe(408);
    expect(bodyOf(exchange.answer())).toEqual({
      error: { code: ErrorCodes.requestTimeout, message: RequestMessages.requestTimeout },
    });
    await expect.poll(openConnections).toBe(0);
  });

  it('lets a slow but moving upload run past the deadline of ordinary bodies', async () => {
    const form = multipartBody({ name: 'Slowly uploaded', type: 'x'.repeat(30) });
    const exchange = await connect(port);
    exchange.socket.write(
      `POST /api/playlists HTTP/1.1\r\nHost: localhost\r\nCookie: ${user.cookie}\r\n` +
        `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${form.payload.length}\r\n\r\n`,
    );
    const startedAt = Date.now();
    const pieces = 12;
    const size = Math.ceil(form.payload.length / pieces);
    for (let i = 0; i < pieces; i += 1) {
      exchange.socket.write(form.payload.subarray(i * size, (i + 1) * size));
      await sleep(200);
    }
    expect(Date.now() - startedAt).toBeGreaterThan(TIMEOUTS.requestMs * 4);
    await expect.poll(() => statusOf(exchange.answer())).toBe(201);
    expect(exchange.answer()).toContain('Slowly uploaded');
    exchange.socket.end();
  });

  it('cuts an upload that stops moving with a 408 once it was idle for the idle timeout', async () => {
    const form = multipartBody({ name: 'Stalled' });
    const exchange = await connect(port);
    exchange.socket.write(
      `POST /api/playlists HTTP/1.1\r\nHost: localhost\r\nCookie: ${user.cookie}\r\n` +
        `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${form.payload.length}\r\n\r\n`,
    );
    exchange.socket.write(form.payload.subarray(0, 20));
    const closedAfter = await exchange.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.uploadIdleMs - 50);
    expect(statusOf(exchange.answer())).toBe(408);
    await expect.poll(openConnections).toBe(0);
  });

  it('answers headers that never finish with a 408 in our error shape', async () => {
    const exchange = await connect(port);
    exchange.socket.write('GET /api/auth/ping HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const closedAfter = await exchange.closed;
    expect(closedAfter).toBeLessThan(TIMEOUTS.headersMs + 2000);
    expect(statusOf(exchange.answer())).toBe(408);
    expect(bodyOf(exchange.answer())).toEqual({
      error: { code: ErrorCodes.requestTimeout, message: RequestMessages.requestTimeout },
    });
  });
});
