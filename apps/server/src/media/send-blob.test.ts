import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHttpErrors } from '../../test/http-errors.js';
import { sendBlob } from './send-blob.js';

/** sendBlob: the Fastify side of answerBlob, used by the download route (files served by path). */
let root: string;
let app: FastifyInstance;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-send-blob-'));
  const emptyFile = path.join(root, 'empty.txt');
  const textFile = path.join(root, 'hello.txt');
  await writeFile(emptyFile, '');
  await writeFile(textFile, 'hello, ranges');

  app = Fastify();
  useHttpErrors(app);
  for (const [url, file] of [
    ['/file/empty', emptyFile],
    ['/file/text', textFile],
  ] as const) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      handler: async (request, reply) => {
        const info = await stat(file);
        return sendBlob(request, reply, {
          path: file,
          key: path.basename(file),
          size: info.size,
          mtimeMs: info.mtimeMs,
          mime: 'text/plain',
          cacheControl: 'no-cache',
        });
      },
    });
  }
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

describe('sendBlob from a path', () => {
  it('serves a file by path with ranges, validators and caching headers', async () => {
    const response = await app.inject({ url: '/file/text', headers: { range: 'bytes=7-' } });
    expect(response.statusCode).toBe(206);
    expect(response.body).toBe('ranges');
    expect(response.headers).toMatchObject({
      'content-type': 'text/plain',
      'content-range': 'bytes 7-12/13',
      etag: '"hello.txt"',
      'cache-control': 'no-cache',
      'accept-ranges': 'bytes',
    });
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    expect((await app.inject({ url: '/file/text', headers: { 'if-none-match': '"hello.txt"' } })).statusCode).toBe(304);
    const head = await app.inject({ method: 'HEAD', url: '/file/text' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('13');
    expect(head.body).toBe('');
  });

  it('serves an empty file as 200 with Content-Length 0, and a range of it as 416 in the JSON shape', async () => {
    const response = await app.inject({ url: '/file/empty' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe('0');
    expect(response.body).toBe('');
    const unsatisfiable = await app.inject({ url: '/file/empty', headers: { range: 'bytes=0-' } });
    expect(unsatisfiable.statusCode).toBe(416);
    expect(unsatisfiable.headers['content-range']).toBe('bytes */0');
    expect(unsatisfiable.json()).toMatchObject({ error: { code: 'range-not-satisfiable' } });
  });
});
