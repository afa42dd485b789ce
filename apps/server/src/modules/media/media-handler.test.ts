import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCodes, ServerMessages } from '@tonearm/contract';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalBlobStore } from '../../storage/local-blob-store.js';
import { SESSION_COOKIE } from '../../http/session.js';
import { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL, RANGE_NOT_SATISFIABLE_MESSAGE } from '../../media/blob-response.js';
import { PUMP_CHUNK_BYTES } from './file-pump.js';
import { imageFile, toneWav } from '../../../test/media.js';
import { ImageMessages } from '../../media/media.formats.js';
import { createMediaHandler, type MediaHandler } from './media-handler.js';
import { commitAll, stageAudio, stageImage, type StagedAudio, type StagedImage } from '../../media/staging.js';
import { storedMediaSources } from '../../media/media-source.js';

/**
 * The lean /media handler on a real node:http server (it answers before any framework, so only real HTTP reaches
 * it): the Range and conditional-request semantics, sessions, keys, and what happens to files and buffers when clients
 * go away or blobs vanish. Requests it leaves alone get a 418 from the stand-in for Fastify.
 */
const TOKEN = randomBytes(32).toString('base64url');
/** Open blob files are reused for this long here (10 s in the app), so tests can watch them close. */
const FILE_TTL_MS = 300;
const SECURITY_HEADERS = { 'x-frame-options': 'SAMEORIGIN', 'cross-origin-resource-policy': 'same-origin' };

let root: string;
let store: LocalBlobStore;
let server: Server;
let base: string;
let audio: StagedAudio;
let wav: Buffer;
let cover: StagedImage;
let closing = false;
let media: MediaHandler;
const resolveUserId = vi.fn((token: string) => Promise.resolve(token === TOKEN ? 7 : null));
const logged: unknown[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-media-handler-'));
  store = new LocalBlobStore(root);
  wav = toneWav(440, 1.5);
  audio = await stageAudio(store, wav);
  cover = await stageImage(store, await imageFile(800, 800, 'png'));
  await commitAll([audio, cover]);
  ({ media, server, base } = await serveMedia(FILE_TTL_MS));
});

/** The handler on its own node:http server; open files are reused for `openFileTtlMs`. */
async function serveMedia(openFileTtlMs: number): Promise<{ media: MediaHandler; server: Server; base: string }> {
  const log = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const handler = createMediaHandler({
    sources: storedMediaSources(store),
    // Never from memory here: every request asks resolveUserId, which the tests count.
    sessions: { resolveUserId, cachedUserId: () => undefined },
    securityHeaders: SECURITY_HEADERS,
    log,
    isClosing: () => closing,
    openFileTtlMs,
  });
  const httpServer = createServer((request, response) => {
    if (!handler.handle(request, response)) response.writeHead(418).end('not media');
  });
  // As Fastify configures its server: a keep-alive connection outlives a slow assertion between two requests.
  httpServer.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return { media: handler, server: httpServer, base: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}` };
}

async function stopMedia(stopped: { media: MediaHandler; server: Server }): Promise<void> {
  stopped.media.close();
  stopped.server.closeAllConnections();
  await new Promise((resolve) => stopped.server.close(resolve));
}

/** Runs `work` against a handler of its own whose open files live `openFileTtlMs`, stopped afterwards. */
async function withOwnHandler(openFileTtlMs: number, work: (at: string) => Promise<void>): Promise<void> {
  const own = await serveMedia(openFileTtlMs);
  try {
    await work(own.base);
  } finally {
    await stopMedia(own);
  }
}

afterAll(async () => {
  await stopMedia({ media, server });
  await rm(root, { recursive: true, force: true });
});

const session = { cookie: `theme=dark; ${SESSION_COOKIE}=${TOKEN}` };
const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

function getAudio(headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', key = audio.key, at = base) {
  return fetch(`${at}/media/audio/${key}`, { method, headers: { ...session, ...headers } });
}

/** Open file descriptors of this process on `file` (Linux /proc). */
function openDescriptorsOf(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

async function stageBigAudio(size: number, key: string): Promise<Buffer> {
  const big = randomBytes(size);
  await (await store.stage('audio', big)).commit(key);
  return big;
}

describe('GET /media/audio/:key', () => {
  it('serves the whole file with type, length, strong ETag, immutable private caching, the app headers', async () => {
    const response = await getAudio({ 'accept-encoding': 'gzip, br' });

    expect(response.status).toBe(200);
    expect(await bytes(response)).toEqual(wav);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'audio/wav',
      'content-length': String(wav.length),
      'accept-ranges': 'bytes',
      etag: `"${audio.key}"`,
      'cache-control': AUDIO_CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
      ...SECURITY_HEADERS,
    });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('last-modified')).toMatch(/GMT$/);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
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

    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${wav.length}`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(await bytes(response)).toEqual(wav.subarray(start, end + 1));
  });

  it('answers 416 with Content-Range bytes */size for a range past the end, never cached', async () => {
    const response = await getAudio({ range: `bytes=${wav.length}-` });

    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${wav.length}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      error: { code: ErrorCodes.rangeNotSatisfiable, message: RANGE_NOT_SATISFIABLE_MESSAGE },
    });
  });

  it.each(['bytes=9-2', 'bytes=0-1,4-5', 'pages=1-2'])('ignores a Range it does not serve (%s): 200', async (range) => {
    const response = await getAudio({ range });
    expect(response.status).toBe(200);
    expect(await bytes(response)).toEqual(wav);
  });

  it.each(['"x"', 'W/"other"'])('serves the file when If-None-Match does not match (%s)', async (tag) => {
    const response = await getAudio({ 'if-none-match': tag });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it.each([() => `"${audio.key}"`, () => `W/"${audio.key}"`, () => `"a", "${audio.key}"`, () => '*'])(
    'answers 304 without a body when If-None-Match matches',
    async (tag) => {
      const response = await getAudio({ 'if-none-match': tag() });
      expect(response.status).toBe(304);
      expect((await bytes(response)).length).toBe(0);
      expect(response.headers.get('etag')).toBe(`"${audio.key}"`);
      expect(response.headers.get('cache-control')).toBe(AUDIO_CACHE_CONTROL);
    },
  );

  it('answers 304 to If-Modified-Since at or after the last modification, 200 before it', async () => {
    const lastModified = String((await getAudio({}, 'HEAD')).headers.get('last-modified'));
    expect((await getAudio({ 'if-modified-since': lastModified }, 'HEAD')).status).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await getAudio({ 'if-modified-since': earlier }, 'HEAD')).status).toBe(200);
  });

  it('honours If-Range: the range when the validator matches, the whole file when it does not', async () => {
    const matching = await getAudio({ range: 'bytes=0-9', 'if-range': `"${audio.key}"` });
    expect(matching.status).toBe(206);
    expect(await bytes(matching)).toEqual(wav.subarray(0, 10));

    const stale = await getAudio({ range: 'bytes=0-9', 'if-range': '"an-older-version"' });
    expect(stale.status).toBe(200);
    expect(await bytes(stale)).toEqual(wav);

    const weak = await getAudio({ range: 'bytes=0-9', 'if-range': `W/"${audio.key}"` });
    expect(weak.status).toBe(200);
    await weak.arrayBuffer();

    const lastModified = String((await getAudio({}, 'HEAD')).headers.get('last-modified'));
    expect((await getAudio({ range: 'bytes=0-9', 'if-range': lastModified }, 'HEAD')).status).toBe(206);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await getAudio({ range: 'bytes=0-9', 'if-range': earlier }, 'HEAD')).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const full = await getAudio({}, 'HEAD');
    expect(full.status).toBe(200);
    expect(full.headers.get('content-length')).toBe(String(wav.length));
    expect(full.headers.get('content-type')).toBe('audio/wav');
    expect((await bytes(full)).length).toBe(0);

    const partial = await getAudio({ range: 'bytes=-100' }, 'HEAD');
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-length')).toBe('100');
    expect(partial.headers.get('content-range')).toBe(`bytes ${wav.length - 100}-${wav.length - 1}/${wav.length}`);
  });

  it('answers 401 without a valid session, before looking at the key', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await fetch(`${base}/media/audio/${audio.key}`, { method });
      expect(response.status).toBe(401);
      if (method === 'GET') {
        expect(await response.json()).toEqual({
          error: { code: ErrorCodes.unauthorized, message: ServerMessages.notAuthenticated },
        });
      }
    }
    const forged = await getAudio({ cookie: `${SESSION_COOKIE}=${randomBytes(32).toString('base64url')}` });
    expect(forged.status).toBe(401);
    await forged.arrayBuffer();
    const unknownKey = await fetch(`${base}/media/audio/unknown.wav`);
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    await unknownKey.arrayBuffer();
  });

  it('answers 500 in the JSON error shape, and logs, when the session check fails', async () => {
    resolveUserId.mockRejectedValueOnce(new Error('database is down'));
    const response = await getAudio();
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: ErrorCodes.internal, message: ServerMessages.internalError },
    });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'media request failed' }));
  });

  it.each(['f'.repeat(64) + '.wav', 'UPPER.wav', '..%2F..%2Fetc%2Fpasswd', '.hidden', `${'a'.repeat(90)}.WAV`, '%zz'])(
    'answers 404 for an unknown or invalid key (%s)',
    async (key) => {
      const response = await getAudio({}, 'GET', key);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: ErrorCodes.notFound, message: ServerMessages.notFound } });
    },
  );

  it('reads a percent-encoded key as the router would, and accepts a trailing slash', async () => {
    const encoded = encodeURIComponent(audio.key).replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`);
    const response = await getAudio({ range: 'bytes=0-3' }, 'GET', encoded);
    expect(response.status).toBe(206);
    expect(await bytes(response)).toEqual(wav.subarray(0, 4));
    expect((await getAudio({}, 'HEAD', `${audio.key}/`)).status).toBe(200);
  });

  it('leaves other paths and methods to the framework', async () => {
    for (const [method, url] of [
      ['GET', `/media/audio/${audio.key}/extra`],
      ['GET', '/media/audio/'],
      ['GET', '/media/videos/x'],
      ['POST', `/media/audio/${audio.key}`],
      ['DELETE', `/media/images/${cover.originalKey}`],
      ['GET', '/api/songs'],
    ] as const) {
      const response = await fetch(`${base}${url}`, { method, headers: session });
      expect(response.status, `${method} ${url}`).toBe(418);
      await response.arrayBuffer();
    }
  });

  it('leaves requests to the framework while the app is closing', async () => {
    closing = true;
    try {
      const response = await getAudio({}, 'HEAD');
      expect(response.status).toBe(418);
    } finally {
      closing = false;
    }
  });

  it('streams files larger than one read buffer, and ranges across buffer boundaries, byte for byte', async () => {
    const size = 3 * PUMP_CHUNK_BYTES + 12_345;
    const big = await stageBigAudio(size, 'multi-chunk.wav');
    expect((await bytes(await getAudio({}, 'GET', 'multi-chunk.wav'))).equals(big)).toBe(true);
    const start = PUMP_CHUNK_BYTES - 10;
    const end = 2 * PUMP_CHUNK_BYTES + 10;
    const part = await getAudio({ range: `bytes=${start}-${end}` }, 'GET', 'multi-chunk.wav');
    expect(part.status).toBe(206);
    expect((await bytes(part)).equals(big.subarray(start, end + 1))).toBe(true);
  });

  it('gives every one of many concurrent requests its own bytes (no shared buffer leaks between them)', async () => {
    const size = 2 * PUMP_CHUNK_BYTES + 777;
    const big = await stageBigAudio(size, 'concurrent.wav');
    const ranges = Array.from({ length: 40 }, (_, i) => {
      const start = (i * 37_813) % (size - 300_000);
      return [start, start + 100_000 + i * 4_000] as const;
    });
    const bodies = await Promise.all(
      ranges.map(async ([start, end]) =>
        bytes(await getAudio({ range: `bytes=${start}-${end}` }, 'GET', 'concurrent.wav')),
      ),
    );
    bodies.forEach((body, i) => {
      const [start, end] = ranges[i] ?? [0, 0];
      expect(body.equals(big.subarray(start, end + 1)), `range ${start}-${end}`).toBe(true);
    });
  });

  it('never reuses a read buffer before the socket took it: slow clients get their bytes intact', async () => {
    const big = await stageBigAudio(16 * 1024 * 1024, 'slow-readers.wav');
    const { port } = server.address() as AddressInfo;
    // Clients that stop reading fill the socket buffers, so writes queue up holding on to the read buffers.
    const slowRead = () =>
      new Promise<Buffer>((resolve, reject) => {
        const request = httpRequest({
          port,
          host: '127.0.0.1',
          path: '/media/audio/slow-readers.wav',
          headers: session,
        });
        request.on('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.once('data', () => {
            response.pause();
            setTimeout(() => response.resume(), 300);
          });
          response.on('end', () => resolve(Buffer.concat(chunks)));
          response.on('error', reject);
        });
        request.on('error', reject);
        request.end();
      });
    const bodies = await Promise.all([slowRead(), slowRead(), slowRead()]);
    for (const body of bodies) expect(body.equals(big)).toBe(true);
  });

  it('stops reading when the client goes away mid-download, and closes the file once it expires', async () => {
    await stageBigAudio(24 * 1024 * 1024, 'big-download.wav');
    const file = store.localPath('audio', 'big-download.wav');
    const { port } = server.address() as AddressInfo;

    let received = 0;
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest({ port, host: '127.0.0.1', path: '/media/audio/big-download.wav', headers: session });
      request.on('response', (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', (chunk: Buffer) => {
          received = chunk.length;
          expect(openDescriptorsOf(file)).toBe(1);
          request.destroy();
          resolve();
        });
      });
      request.on('error', reject);
      request.end();
    });

    expect(received).toBeGreaterThan(0);
    await vi.waitFor(() => expect(openDescriptorsOf(file)).toBe(0), { timeout: 10 * FILE_TTL_MS });
  });

  it('shares one open file between concurrent and back-to-back requests', async () => {
    // Its own handler, whose open files outlive a slow machine's pauses (FILE_TTL_MS here could expire between two).
    await withOwnHandler(60_000, async (at) => {
      const big = await stageBigAudio(2 * PUMP_CHUNK_BYTES, 'shared.wav');
      const file = store.localPath('audio', 'shared.wav');
      const get = async (range: string) => bytes(await getAudio({ range }, 'GET', 'shared.wav', at));
      const ranges = ['bytes=0-99', 'bytes=1000-300000', 'bytes=-5000', 'bytes=262144-'];
      const first = await Promise.all(ranges.map(get));
      expect(first.map((body) => body.length)).toEqual([100, 299_001, 5000, big.length - 262_144]);
      expect(openDescriptorsOf(file)).toBe(1);
      expect((await get('bytes=0-9')).equals(big.subarray(0, 10))).toBe(true);
      expect(openDescriptorsOf(file)).toBe(1);
    });
    // Closed with the handler (fs.close, a turn of the thread pool later).
    await vi.waitFor(() => expect(openDescriptorsOf(store.localPath('audio', 'shared.wav'))).toBe(0));
  });

  it('frees the disk space of a blob deleted through the store once its open file expires', async () => {
    // Open files live 1.5 s here: the check right after the request cannot outlast that, even on a loaded machine.
    const ttlMs = 1500;
    await withOwnHandler(ttlMs, async (at) => {
      await stageBigAudio(5000, 'freed.wav');
      const file = store.localPath('audio', 'freed.wav');
      expect((await bytes(await getAudio({ range: 'bytes=0-9' }, 'GET', 'freed.wav', at))).length).toBe(10);
      expect(openDescriptorsOf(file)).toBe(1);
      await store.delete('audio', 'freed.wav');
      expect((await getAudio({}, 'HEAD', 'freed.wav', at)).status).toBe(404);
      // Deleted files still count as open (" (deleted)" in the link) until the sweep closes them, within 2 lifetimes.
      expect(openDescriptorsOf(`${file} (deleted)`)).toBe(1);
      await vi.waitFor(() => expect(openDescriptorsOf(`${file} (deleted)`)).toBe(0), { timeout: 5 * ttlMs });
    });
  });

  it('answers 404 for a blob removed behind its back (another process) once its open file expires', async () => {
    const big = await stageBigAudio(1000, 'vanishing.wav');
    expect(await bytes(await getAudio({}, 'GET', 'vanishing.wav'))).toEqual(big);
    await rm(store.localPath('audio', 'vanishing.wav'));
    // Until then the open file still holds the same bytes (a key never names other ones).
    await new Promise((resolve) => setTimeout(resolve, FILE_TTL_MS + 50));

    const response = await getAudio({}, 'GET', 'vanishing.wav');
    expect(response.status).toBe(404);
    await response.arrayBuffer();
    // Forgotten: even a HEAD, which opens nothing, now knows the blob is gone.
    expect((await getAudio({}, 'HEAD', 'vanishing.wav')).status).toBe(404);
  });

  it('answers 404 at once for a blob deleted through the store', async () => {
    await stageBigAudio(1000, 'deleted.wav');
    expect((await getAudio({}, 'HEAD', 'deleted.wav')).status).toBe(200);
    await store.delete('audio', 'deleted.wav');
    expect((await getAudio({}, 'HEAD', 'deleted.wav')).status).toBe(404);
  });
});

describe('GET /media/images/:key', () => {
  function getImage(query = '', method: 'GET' | 'HEAD' = 'GET', headers: Record<string, string> = {}) {
    return fetch(`${base}/media/images/${cover.originalKey}${query}`, { method, headers });
  }

  it.each([
    ['?w=64', 64],
    ['?w=300', 300],
    ['?w=640', 640],
    ['', 640],
    ['?v=2&w=300', 300],
  ])('serves the WebP thumbnail for %s publicly', async (query, width) => {
    const response = await getImage(query);

    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': IMAGE_CACHE_CONTROL,
      etag: `"${cover.thumbnailKeys[width as 64 | 300 | 640]}"`,
      ...SECURITY_HEADERS,
    });
    expect(await sharp(await bytes(response)).metadata()).toMatchObject({ format: 'webp', width, height: width });
  });

  it('does not ask for a session, and answers HEAD and conditional requests', async () => {
    resolveUserId.mockClear();
    const head = await getImage('?w=64', 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    const revalidated = await getImage('?w=64', 'GET', { 'if-none-match': String(head.headers.get('etag')) });
    expect(revalidated.status).toBe(304);
    expect(resolveUserId).not.toHaveBeenCalled();
  });

  it.each(['?w=100', '?w=', '?w=64&w=300', '?w=64px'])('answers 400 for an unsupported width (%s)', async (query) => {
    const response = await getImage(query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: ErrorCodes.validation, message: ImageMessages.badWidth, field: 'w' },
    });
  });

  it('answers 404 for unknown keys, thumbnail keys and invalid keys', async () => {
    for (const key of ['0'.repeat(64) + '.png', cover.thumbnailKeys[64], 'unknown.png', '..%2Fsecret']) {
      const response = await fetch(`${base}/media/images/${key}`);
      expect(response.status, key).toBe(404);
      await response.arrayBuffer();
    }
  });
});
