import net, { type AddressInfo } from 'node:net';
import { ErrorCodes, ServerMessages } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { DRAIN_MAX_BYTES, LINGER_MS } from './multipart.js';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser, type TestUser } from '../../test/factories.js';

/*
 * A refused upload must reach the client as its answer (401, 403, ...), not as a network error: the server answers
 * while the client is still sending, and must not close the connection under it (a reset makes Node's fetch, like
 * browsers, drop the answer and report EPIPE/ECONNRESET). Real HTTP with Node's fetch (undici), as a browser sends.
 */

const UPLOAD_BYTES = 24 * 1024 * 1024;
const ATTEMPTS = 6;

function largeSongForm(): FormData {
  const form = new FormData();
  form.append('name', 'Too big to read');
  form.append('genre', 'Pop');
  form.append('artistId', '1');
  form.append('songFile', new Blob([new Uint8Array(UPLOAD_BYTES).fill(0x55)], { type: 'audio/wav' }), 'big.wav');
  return form;
}

describeEachDialect('refused uploads reach the client on %s', (t) => {
  let user: TestUser;
  let base: string;

  beforeAll(async () => {
    user = await makeUser(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  async function attempt(headers: Record<string, string>): Promise<{ status: number; body: unknown } | string> {
    try {
      const response = await fetch(`${base}/api/songs`, { method: 'POST', body: largeSongForm(), headers });
      return { status: response.status, body: await response.json() };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return `network error: ${cause?.code ?? cause?.message ?? String(error)}`;
    }
  }

  it(`answers a ${UPLOAD_BYTES >> 20} MB upload without a session with the 401, ${ATTEMPTS} times out of ${ATTEMPTS}`, async () => {
    const outcomes = [];
    for (let i = 0; i < ATTEMPTS; i += 1) outcomes.push(await attempt({}));
    expect(outcomes).toEqual(
      Array.from({ length: ATTEMPTS }, () => ({
        status: 401,
        body: { error: { code: ErrorCodes.unauthorized, message: ServerMessages.notAuthenticated } },
      })),
    );
  });

  it(`answers the same upload from a signed-in non-admin with the 403, ${ATTEMPTS} times out of ${ATTEMPTS}`, async () => {
    const outcomes = [];
    for (let i = 0; i < ATTEMPTS; i += 1) outcomes.push(await attempt({ cookie: user.cookie }));
    expect(outcomes.map((outcome) => (typeof outcome === 'string' ? outcome : outcome.status))).toEqual(
      Array.from({ length: ATTEMPTS }, () => 403),
    );
  });

  function rawUploadHead(contentLength: number): string {
    return (
      'POST /api/songs HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=zzz\r\n' +
      `Content-Length: ${contentLength}\r\n\r\n`
    );
  }

  function rawConnection() {
    const port = Number(new URL(base).port);
    // Half-open like a client still sending: the server's FIN alone must not end the upload on our side.
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    let received = '';
    /** When the first bytes of an answer arrived (not when a poll noticed them, later on a loaded machine). */
    let answeredAt = 0;
    socket.on('data', (chunk: Buffer) => {
      if (received === '') answeredAt = Date.now();
      received += chunk.toString('latin1');
    });
    let failure: string | null = null;
    socket.on('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    return { socket, received: () => received, answeredAt: () => answeredAt, failure: () => failure, closed };
  }

  it('drains a refused upload under the drain cap and keeps the connection for the next request', async () => {
    const half = 512 * 1024;
    const connection = rawConnection();
    connection.socket.write(rawUploadHead(2 * half));
    connection.socket.write(Buffer.alloc(half, 0x41));
    await expect.poll(() => connection.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(connection.received()).not.toMatch(/connection: close/i);
    connection.socket.write(Buffer.alloc(half, 0x41));
    connection.socket.write('GET /api/auth/ping HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await expect.poll(() => connection.received()).toMatch(/\r\n\r\npong$/);
    expect(connection.failure()).toBeNull();
    connection.socket.end();
  });

  it('past the drain cap, keeps reading for a moment after the answer before it closes', async () => {
    const connection = rawConnection();
    const declared = 64 * DRAIN_MAX_BYTES;
    connection.socket.write(rawUploadHead(declared));
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    // Sends like a client that has not looked at the answer yet, until the server closes.
    const pump = setInterval(() => {
      if (!connection.socket.destroyed && connection.socket.writableLength < chunk.length && sent < declared) {
        connection.socket.write(chunk);
        sent += chunk.length;
      }
    }, 1);
    await expect.poll(() => connection.received(), { timeout: 5000 }).toMatch(/^HTTP\/1\.1 401 /);
    const closedAt = await connection.closed;
    clearInterval(pump);
    expect(sent, 'the server closed only after the whole body was sent').toBeLessThan(declared);
    expect(closedAt - connection.answeredAt()).toBeGreaterThanOrEqual(LINGER_MS * 0.8);
  });
});
