import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ErrorCodes, ServerMessages } from '@tonearm/contract';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { makeAdmin } from '../../test/factories.js';
import { errorOf } from '../../test/harness.js';
import { picture, toneWav } from '../../test/media.js';
import type { App } from '../http/app-types.js';
import { registerErrorHandler } from './error-handler.js';

/** pino's numeric levels. */
const DEBUG = 20;
const WARN = 40;
const ERROR = 50;

interface LogEntry {
  level: number;
  msg?: string;
  reqId?: string;
  err?: { message?: string; stack?: string };
}

/** A pino logger at `level` whose lines land, parsed, in the array answered with it. */
function collectingLogger(level: 'debug' | 'info'): { logger: FastifyBaseLogger; logged: LogEntry[] } {
  const logged: LogEntry[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString('utf8')) as LogEntry);
      done();
    },
  });
  return { logger: pino({ level }, sink), logged };
}

/**
 * Sends the headers and the first half of a multipart upload of `file` as `field` on a raw connection, then closes
 * the connection without sending the rest, as a client that goes away mid-upload.
 */
async function uploadAndLeave(
  port: number,
  request: { method: string; path: string; cookie: string },
  part: { field: string; filename: string; type: string; data: Buffer },
): Promise<void> {
  const boundary = 'tonearm-cut-upload';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
    `Content-Type: ${part.type}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + part.data.length + Buffer.byteLength(tail);
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.write(
    `${request.method} ${request.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${request.cookie}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
  );
  socket.write(head);
  // The handler is reading the file part when the client goes.
  await new Promise<void>((resolve) => socket.write(part.data.subarray(0, part.data.length >> 1), () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
}

describeEachDialect('a client that goes away mid-upload (%s)', { uses: 'nothing' }, (suite) => {
  it('is logged at debug, not as an "unhandled error", and the server goes on serving', async () => {
    const { logger, logged } = collectingLogger('debug');
    await suite.withApp({ logger }, async (t) => {
      const admin = await makeAdmin(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const uploads = [
        {
          request: { method: 'PUT', path: `/api/users/${admin.id}/update-photo`, cookie: admin.cookie },
          part: { field: 'image', filename: 'me.png', type: 'image/png', data: await picture(1, 'png', 400) },
        },
        {
          request: { method: 'POST', path: '/api/songs', cookie: admin.cookie },
          part: { field: 'songFile', filename: 'song.wav', type: 'audio/wav', data: toneWav(440, 4) },
        },
      ];
      for (const { request, part } of uploads) await uploadAndLeave(port, request, part);
      // Both aborts reached the error handler, whatever it made of them.
      const handled = new Set(['client went away mid-request', 'unhandled error']);
      await vi.waitFor(() => expect(logged.filter((entry) => handled.has(entry.msg ?? ''))).toHaveLength(2), {
        timeout: 5000,
      });
      const me = await t.as(admin).get('/api/auth/me');
      expect(me.statusCode).toBe(200);
    });
    expect(logged.filter((entry) => entry.level >= WARN)).toEqual([]);
    const aborts = logged.filter((entry) => entry.msg === 'client went away mid-request');
    expect(aborts.map((entry) => [entry.level, entry.err])).toEqual([
      [DEBUG, undefined],
      [DEBUG, undefined],
    ]);
  });
});

describe('the error handler', () => {
  /** A bare app with only the error handler, listening, with routes that fail in the given ways. */
  async function withFailingApp(work: (base: string, logged: LogEntry[]) => Promise<void>): Promise<void> {
    const { logger, logged } = collectingLogger('info');
    const app: App = Fastify({ loggerInstance: logger }).withTypeProvider<ZodTypeProvider>();
    registerErrorHandler(app);
    app.get('/boom', () => {
      throw new Error('secret internals at /srv/db.ts:42');
    });
    // Another connection of the server's reset (a database, S3, a provider), while the client still waits.
    app.get('/upstream-reset', () => {
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    });
    app.get('/upstream-aborted', () => {
      throw new Error('aborted', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      await work(`http://127.0.0.1:${port}`, logged);
    } finally {
      await app.close();
    }
  }

  it('still logs a genuine unexpected error at error level, with its stack, and answers 500', async () => {
    await withFailingApp(async (base, logged) => {
      for (const path of ['/boom', '/upstream-reset', '/upstream-aborted']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status).toBe(500);
        expect(errorOf(await response.text())).toEqual({
          code: ErrorCodes.internal,
          message: ServerMessages.internalError,
        });
      }
      const errors = logged.filter((entry) => entry.level === ERROR);
      expect(errors.map((entry) => entry.msg)).toEqual(['unhandled error', 'unhandled error', 'unhandled error']);
      expect(errors.every((entry) => entry.err?.stack !== undefined)).toBe(true);
    });
  });
});
