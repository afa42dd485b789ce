import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCodes, ServerMessages } from '@tonearm/contract';
import type { BlobKind, ByteRange } from '../../storage/blob-store.js';
import { LocalBlobStore } from '../../storage/local-blob-store.js';
import { imageFile, useHttpErrors, wavFile } from './media.fixtures.js';
import { ImageMessages } from './media.formats.js';
import { mediaRoutes } from './media.routes.js';
import { commitAll, stageAudio, stageImage, type StagedAudio, type StagedImage } from './media.service.js';
import { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL, RANGE_NOT_SATISFIABLE_MESSAGE, sendBlob } from './send-blob.js';

/** Remembers every stream it opens, so a test can check that an aborted download closed its file. */
class RecordingStore extends LocalBlobStore {
  readonly opened: Readable[] = [];

  override openRead(kind: BlobKind, key: string, range?: ByteRange): Readable {
    const stream = super.openRead(kind, key, range);
    this.opened.push(stream);
    return stream;
  }
}

let root: string;
let store: RecordingStore;
let app: FastifyInstance;
let audio: StagedAudio;
let wav: Buffer;
let cover: StagedImage;
let emptyFile: string;
let textFile: string;
const authenticate = vi.fn((request: FastifyRequest) => request.headers['x-session'] === 'valid');

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-media-routes-'));
  store = new RecordingStore(root);
  wav = wavFile(1.5);
  audio = await stageAudio(store, wav);
  cover = await stageImage(store, await imageFile(800, 800, 'png'));
  await commitAll([audio, cover]);
  emptyFile = path.join(root, 'empty.txt');
  textFile = path.join(root, 'hello.txt');
  await writeFile(emptyFile, '');
  await writeFile(textFile, 'hello, ranges');

  app = Fastify();
  useHttpErrors(app);
  // Registered globally with no size threshold, as an app might: the media routes must still answer uncompressed.
  await app.register(fastifyCompress, { global: true, threshold: 0 });
  await app.register(mediaRoutes, { store, authenticate });
  for (const [url, file] of [
    ['/file/empty', emptyFile],
    ['/file/text', textFile],
  ] as const) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      compress: false,
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

const session = { 'x-session': 'valid' };

function getAudio(headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
  return app.inject({ method, url: `/media/audio/${audio.key}`, headers: { ...session, ...headers } });
}

describe('GET /media/audio/:key', () => {
  it('serves the whole file with type, length, strong ETag, immutable private caching and byte ranges', async () => {
    const response = await getAudio({ 'accept-encoding': 'gzip, br' });

    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(wav);
    expect(response.headers).toMatchObject({
      'content-type': 'audio/wav',
      'content-length': String(wav.length),
      'accept-ranges': 'bytes',
      etag: `"${audio.key}"`,
      'cache-control': AUDIO_CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['last-modified']).toMatch(/GMT$/);
  });

  it.each([
    ['the first byte', 'bytes=0-0', 0, 0],
    ['the last byte', () => `bytes=${wav.length - 1}-${wav.length - 1}`, -1, -1],
    ['a suffix', 'bytes=-500', -500, -1],
    ['an open range', 'bytes=100-', 100, -1],
    ['a range past the end, clamped', 'bytes=40-99999999', 40, -1],
  ])('answers 206 with %s', async (_name, header, from, to) => {
    const start = from < 0 ? wav.length + from : from;
    const end = to < 0 ? wav.length + to : to;
    const response = await getAudio({ range: typeof header === 'string' ? header : header() });

    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${wav.length}`);
    expect(response.headers['content-length']).toBe(String(end - start + 1));
    expect(response.headers['content-type']).toBe('audio/wav');
    expect(response.rawPayload).toEqual(wav.subarray(start, end + 1));
  });

  it('answers 416 with Content-Range bytes */size for a range past the end, never cached', async () => {
    const response = await getAudio({ range: `bytes=${wav.length}-` });

    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${wav.length}`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      error: { code: ErrorCodes.rangeNotSatisfiable, message: RANGE_NOT_SATISFIABLE_MESSAGE },
    });
  });

  it.each(['bytes=9-2', 'bytes=0-1,4-5', 'pages=1-2'])('ignores a Range it does not serve (%s): 200', async (range) => {
    const response = await getAudio({ range });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(wav);
  });

  it.each(['"x"', 'W/"other"'])('serves the file when If-None-Match does not match (%s)', async (tag) => {
    expect((await getAudio({ 'if-none-match': tag })).statusCode).toBe(200);
  });

  it.each([() => `"${audio.key}"`, () => `W/"${audio.key}"`, () => `"a", "${audio.key}"`, () => '*'])(
    'answers 304 without a body when If-None-Match matches',
    async (tag) => {
      const response = await getAudio({ 'if-none-match': tag() });
      expect(response.statusCode).toBe(304);
      expect(response.rawPayload.length).toBe(0);
      expect(response.headers.etag).toBe(`"${audio.key}"`);
      expect(response.headers['cache-control']).toBe(AUDIO_CACHE_CONTROL);
    },
  );

  it('answers 304 to If-Modified-Since at or after the last modification, 200 before it', async () => {
    const { headers } = await getAudio();
    const lastModified = String(headers['last-modified']);
    expect((await getAudio({ 'if-modified-since': lastModified })).statusCode).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await getAudio({ 'if-modified-since': earlier })).statusCode).toBe(200);
  });

  it('honours If-Range: the range when the validator matches, the whole file when it does not', async () => {
    const matching = await getAudio({ range: 'bytes=0-9', 'if-range': `"${audio.key}"` });
    expect(matching.statusCode).toBe(206);
    expect(matching.rawPayload).toEqual(wav.subarray(0, 10));

    const stale = await getAudio({ range: 'bytes=0-9', 'if-range': '"an-older-version"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload).toEqual(wav);

    const weak = await getAudio({ range: 'bytes=0-9', 'if-range': `W/"${audio.key}"` });
    expect(weak.statusCode).toBe(200);

    const lastModified = String((await getAudio()).headers['last-modified']);
    expect((await getAudio({ range: 'bytes=0-9', 'if-range': lastModified })).statusCode).toBe(206);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await getAudio({ range: 'bytes=0-9', 'if-range': earlier })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const full = await getAudio({}, 'HEAD');
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-length']).toBe(String(wav.length));
    expect(full.headers['content-type']).toBe('audio/wav');
    expect(full.rawPayload.length).toBe(0);

    const partial = await getAudio({ range: 'bytes=-100' }, 'HEAD');
    expect(partial.statusCode).toBe(206);
    expect(partial.headers['content-length']).toBe('100');
    expect(partial.headers['content-range']).toBe(`bytes ${wav.length - 100}-${wav.length - 1}/${wav.length}`);
    expect(partial.rawPayload.length).toBe(0);
  });

  it('answers 401 without a session, before looking at the key', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url: `/media/audio/${audio.key}` });
      expect(response.statusCode).toBe(401);
      if (method === 'GET') {
        expect(response.json()).toEqual({
          error: { code: ErrorCodes.unauthorized, message: ServerMessages.notAuthenticated },
        });
      }
    }
    expect((await app.inject({ url: '/media/audio/unknown.wav' })).statusCode).toBe(401);
  });

  it.each(['f'.repeat(64) + '.wav', 'UPPER.wav', '..%2F..%2Fetc%2Fpasswd', '.hidden', `${'a'.repeat(90)}.WAV`])(
    'answers 404 for an unknown or invalid key (%s)',
    async (key) => {
      const response = await app.inject({ url: `/media/audio/${key}`, headers: session });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: ErrorCodes.notFound, message: ServerMessages.notFound } });
    },
  );

  it('destroys the file stream when the client goes away mid-download', async () => {
    const big = Buffer.alloc(24 * 1024 * 1024, 1);
    const staged = await store.stage('audio', big);
    await staged.commit('big-download.wav');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const before = store.opened.length;

    await new Promise<void>((resolve, reject) => {
      const request = httpRequest({ port, host: '127.0.0.1', path: '/media/audio/big-download.wav', headers: session });
      request.on('response', (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', reject);
      request.end();
    });

    const stream = store.opened[before];
    await vi.waitFor(() => expect(stream?.destroyed).toBe(true));
    expect((stream as unknown as { bytesRead: number }).bytesRead).toBeLessThan(big.length);
  });
});

describe('GET /media/images/:key', () => {
  async function getImage(query = '', method: 'GET' | 'HEAD' = 'GET') {
    return app.inject({ method, url: `/media/images/${cover.originalKey}${query}` });
  }

  it.each([
    ['?w=64', 64],
    ['?w=300', 300],
    ['?w=640', 640],
    ['', 640],
  ])('serves the WebP thumbnail for %s publicly', async (query, width) => {
    const response = await getImage(query);

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': IMAGE_CACHE_CONTROL,
      etag: `"${cover.thumbnailKeys[width as 64 | 300 | 640]}"`,
    });
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ format: 'webp', width, height: width });
  });

  it('does not ask for a session, and answers HEAD and conditional requests', async () => {
    authenticate.mockClear();
    const head = await getImage('?w=64', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    const revalidated = await app.inject({
      url: `/media/images/${cover.originalKey}?w=64`,
      headers: { 'if-none-match': String(head.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(authenticate).not.toHaveBeenCalled();
  });

  it.each(['?w=100', '?w=', '?w=64&w=300', '?w=64px'])('answers 400 for an unsupported width (%s)', async (query) => {
    const response = await getImage(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: ErrorCodes.validation, message: ImageMessages.badWidth, field: 'w' },
    });
  });

  it('answers 404 for unknown keys, thumbnail keys and invalid keys', async () => {
    for (const key of ['0'.repeat(64) + '.png', cover.thumbnailKeys[64], 'unknown.png', '..%2Fsecret']) {
      expect((await app.inject({ url: `/media/images/${key}` })).statusCode).toBe(404);
    }
  });
});

describe('sendBlob from a path', () => {
  it('serves a file by path with ranges', async () => {
    const response = await app.inject({ url: '/file/text', headers: { range: 'bytes=7-' } });
    expect(response.statusCode).toBe(206);
    expect(response.body).toBe('ranges');
    expect(response.headers['content-type']).toBe('text/plain');
  });

  it('serves an empty file as 200 with Content-Length 0, and a range of it as 416', async () => {
    const response = await app.inject({ url: '/file/empty' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe('0');
    expect(response.body).toBe('');
    expect((await app.inject({ url: '/file/empty', headers: { range: 'bytes=0-' } })).statusCode).toBe(416);
  });
});
