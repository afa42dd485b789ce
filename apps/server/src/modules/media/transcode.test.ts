import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AudioFileMessages, ErrorCodes, ServerMessages, TranscodeMessages } from '@tonearm/contract';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegTone, FFMPEG, realTimeFfmpeg, requireFfmpeg } from '../../../test/ffmpeg.js';
import { SESSION_COOKIE } from '../../http/session.js';
import { LocalBlobStore } from '../../storage/local-blob-store.js';
import { AUDIO_CACHE_CONTROL } from '../../media/blob-response.js';
import { lyingWavs } from '../../media/lying-media.fixtures.js';
import { createMediaHandler, type MediaHandler } from './media-handler.js';
import { TranscodeCache } from './transcode-cache.js';
import { BUSY_RETRY_AFTER_SECONDS } from './transcode-response.js';
import { Transcoder, type TranscodeTarget } from './transcoder.js';
import { storedMediaSources } from '../../media/media-source.js';

/**
 * `?format=` on the lean /media handler over real HTTP, with the real ffmpeg: conversion, the disk cache and its
 * ranges, the answers while a transcode runs, the concurrency limit and the killing of abandoned processes. Two
 * servers: one with ffmpeg at full speed, one with ffmpeg held to real time (`-re`) and a single transcoding slot.
 */
const TOKEN = randomBytes(32).toString('base64url');
const session = { cookie: `${SESSION_COOKIE}=${TOKEN}` };
const FLAC_KEY = `${'f'.repeat(64)}.flac`;
const OTHER_KEY = `${'e'.repeat(64)}.mp3`;
/** WAVs whose header lies (stored before the upload's decode check, say): ffmpeg fails on them before any output. */
const LYING = Object.entries(lyingWavs()).map(([name, bytes], index) => ({
  name,
  bytes,
  key: `${String(index + 1).repeat(64)}.wav`,
}));

interface TestServer {
  base: string;
  server: Server;
  media: MediaHandler;
  transcoder: Transcoder;
  cacheDir: string;
}

let root: string;
let store: LocalBlobStore;
let flac: Buffer;
let fast: TestServer;
let slow: TestServer;

async function startServer(ffmpegPath: string, concurrency: number, name: string): Promise<TestServer> {
  const cacheDir = path.join(root, name);
  const cache = new TranscodeCache(cacheDir, 64 * 1024 * 1024);
  await cache.open();
  const log = pino({ level: 'silent' });
  const transcoder = new Transcoder({ ffmpegPath, cache, concurrency, killGraceMs: 500, log });
  const media = createMediaHandler({
    sources: storedMediaSources(store),
    sessions: { resolveUserId: (token) => Promise.resolve(token === TOKEN ? 7 : null), cachedUserId: () => undefined },
    securityHeaders: {},
    log,
    transcoder,
  });
  const server = createServer((request, response) => {
    if (!media.handle(request, response)) response.writeHead(418).end('not media');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, media, transcoder, cacheDir };
}

async function stopServer(test: TestServer | undefined): Promise<void> {
  if (test === undefined) return;
  test.media.close();
  test.server.closeAllConnections();
  await new Promise((resolve) => test.server.close(resolve));
}

beforeAll(async () => {
  await requireFfmpeg();
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-transcode-'));
  store = new LocalBlobStore(path.join(root, 'blobs'));
  flac = await ffmpegTone(root, 4, 'flac');
  await (await store.stage('audio', flac)).commit(FLAC_KEY);
  await (await store.stage('audio', await ffmpegTone(root, 3, 'mp3', 660))).commit(OTHER_KEY);
  for (const lying of LYING) await (await store.stage('audio', lying.bytes)).commit(lying.key);
  fast = await startServer(FFMPEG, 4, 'fast-cache');
  slow = await startServer(await realTimeFfmpeg(root), 1, 'slow-cache');
}, 30_000);

afterAll(async () => {
  await stopServer(fast);
  await stopServer(slow);
  await rm(root, { recursive: true, force: true });
});

const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

function get(test: TestServer, query: string, headers: Record<string, string> = {}, key = FLAC_KEY) {
  return fetch(`${test.base}/media/audio/${key}${query}`, { headers: { ...session, ...headers } });
}

/** Whether a process with this id exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A GET that the test holds open: the response head, then `close()` to go away mid-stream. */
function openStream(test: TestServer, query: string, key = FLAC_KEY) {
  const { port } = new URL(test.base);
  return new Promise<{ response: IncomingMessage; close: () => void; body: () => Promise<Buffer> }>(
    (resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: `/media/audio/${key}${query}`, headers: session });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const ended = new Promise<Buffer>((done) => response.on('end', () => done(Buffer.concat(chunks))));
        resolve({ response, close: () => request.destroy(), body: () => ended });
      });
      request.on('error', reject);
      request.end();
    },
  );
}

const target = (format: 'opus' | 'mp3', bitrate: number): TranscodeTarget => ({ key: FLAC_KEY, format, bitrate });

describe('GET /media/audio/:key?format=', () => {
  it('converts to Opus in Ogg as it goes: 200, audio/ogg, no length, not to be cached', async () => {
    const response = await get(fast, '?format=opus&bitrate=64');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await bytes(response);
    expect(body.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(body.includes(Buffer.from('OpusHead'))).toBe(true);
    // 4 s at 64 kbit/s is 32 000 bytes, plus the Ogg pages' overhead.
    expect(body.length).toBeGreaterThan(24_000);
    expect(body.length).toBeLessThan(40_000);
  });

  it('converts to MP3 at the asked bitrate', async () => {
    const response = await get(fast, '?format=mp3&bitrate=320');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const body = await bytes(response);
    const frame = body.indexOf(Buffer.from([0xff, 0xfb]));
    expect(frame).toBeGreaterThanOrEqual(0);
    // MPEG-1 Layer III header: bitrate index 14 is 320 kbit/s.
    expect((body[frame + 2] ?? 0) >> 4).toBe(14);
  });

  it('serves the finished transcode from the cache: length, ETag, ranges, 416, 304, HEAD', async () => {
    const first = await bytes(await get(fast, '?format=opus&bitrate=96'));
    await eventually(() => fast.transcoder.cached(target('opus', 96)) !== null);
    const cached = await get(fast, '?format=opus&bitrate=96');
    expect(cached.status).toBe(200);
    expect(cached.headers.get('content-length')).toBe(String(first.length));
    expect(cached.headers.get('cache-control')).toBe(AUDIO_CACHE_CONTROL);
    const etag = cached.headers.get('etag') ?? '';
    expect(etag).toBe(`"${FLAC_KEY}.96k.opus"`);
    expect((await bytes(cached)).equals(first)).toBe(true);

    const part = await get(fast, '?format=opus&bitrate=96', { range: 'bytes=100-299' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${first.length}`);
    expect((await bytes(part)).equals(first.subarray(100, 300))).toBe(true);

    const outside = await get(fast, '?format=opus&bitrate=96', { range: `bytes=${first.length}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${first.length}`);

    expect((await get(fast, '?format=opus&bitrate=96', { 'if-none-match': etag })).status).toBe(304);
    const head = await fetch(`${fast.base}/media/audio/${FLAC_KEY}?format=opus&bitrate=96`, {
      method: 'HEAD',
      headers: session,
    });
    expect(head.headers.get('content-length')).toBe(String(first.length));
  });

  it('writes the cache through a temporary file: only complete transcodes under their name, no leftovers', async () => {
    await bytes(await get(fast, '?format=mp3&bitrate=64'));
    await eventually(() => fast.transcoder.cached(target('mp3', 64)) !== null);
    const files = await readdir(fast.cacheDir);
    expect(files).toContain(`${FLAC_KEY}.64k.mp3`);
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });

  it('makes a Range request from a later byte wait for the finished transcode, then answers it exactly', async () => {
    const part = await get(fast, '?format=mp3&bitrate=128', { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    const whole = await bytes(await get(fast, '?format=mp3&bitrate=128'));
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${whole.length}`);
    expect((await bytes(part)).equals(whole.subarray(1000, 2000))).toBe(true);
  });

  it('serves the original without format, with bitrate alone ignored', async () => {
    for (const query of ['', '?bitrate=64']) {
      const response = await get(fast, query);
      expect(response.headers.get('content-type')).toBe('audio/flac');
      expect((await bytes(response)).equals(flac)).toBe(true);
    }
  });

  it.each([
    ['?format=aac', TranscodeMessages.badFormat, 'format'],
    ['?format=opus&format=mp3', TranscodeMessages.badFormat, 'format'],
    ['?format=', TranscodeMessages.badFormat, 'format'],
    ['?format=opus&bitrate=63', TranscodeMessages.badBitrate, 'bitrate'],
    ['?format=opus&bitrate=321', TranscodeMessages.badBitrate, 'bitrate'],
    ['?format=mp3&bitrate=128.5', TranscodeMessages.badBitrate, 'bitrate'],
    ['?format=mp3&bitrate=fast', TranscodeMessages.badBitrate, 'bitrate'],
  ])('answers %s with 400 and a clear message', async (query, message, field) => {
    const response = await get(fast, query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: ErrorCodes.validation, message, field } });
  });

  it('asks for a session first, and answers 404 for an unknown key, exactly like the original', async () => {
    const anonymous = await fetch(`${fast.base}/media/audio/${FLAC_KEY}?format=opus`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { message: string } }).error.message).toBe(
      ServerMessages.notAuthenticated,
    );
    expect((await get(fast, '?format=opus', {}, `${'0'.repeat(64)}.mp3`)).status).toBe(404);
  });
});

describe('a transcode ffmpeg refuses before its first byte', () => {
  it.each(LYING)(
    'answers 415 for $name, keeps no cache entry or temp file, and leaves the original as it was',
    async ({ bytes: stored, key }) => {
      const ranges: Record<string, string>[] = [{}, { range: 'bytes=0-' }, { range: 'bytes=100-' }];
      for (const range of ranges) {
        const response = await get(fast, '?format=opus&bitrate=96', range, key);
        expect(response.status, JSON.stringify(range)).toBe(415);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(await response.json()).toEqual({
          error: { code: ErrorCodes.unsupportedMediaType, message: AudioFileMessages.notConvertible },
        });
      }
      await eventually(() => fast.transcoder.activeCount === 0);
      expect(fast.transcoder.cached({ key, format: 'opus', bitrate: 96 })).toBeNull();
      expect((await readdir(fast.cacheDir)).filter((file) => file.startsWith(key) || file.endsWith('.tmp'))).toEqual(
        [],
      );
      const original = await get(fast, '', {}, key);
      expect(original.status).toBe(200);
      expect((await bytes(original)).equals(stored)).toBe(true);
    },
  );
});

describe('a transcode while it runs', () => {
  it('answers HEAD with the type and no length, without starting ffmpeg', async () => {
    const head = await fetch(`${slow.base}/media/audio/${FLAC_KEY}?format=opus&bitrate=200`, {
      method: 'HEAD',
      headers: session,
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('audio/ogg');
    expect(head.headers.get('content-length')).toBeNull();
    expect(slow.transcoder.activeCount).toBe(0);
  });

  it('kills ffmpeg when its only listener goes away, and keeps nothing of it', async () => {
    const stream = await openStream(slow, '?format=opus&bitrate=160');
    const running = slow.transcoder.runningFor(target('opus', 160));
    const pid = running?.live.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(true);
    stream.close();
    await eventually(() => !isAlive(pid));
    await eventually(() => slow.transcoder.activeCount === 0);
    expect(slow.transcoder.cached(target('opus', 160))).toBeNull();
    expect(await readdir(slow.cacheDir)).toEqual([]);
  });

  it('keeps ffmpeg for a second listener, who gets the whole stream from its first byte', async () => {
    const first = await openStream(slow, '?format=mp3&bitrate=96');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const second = await openStream(slow, '?format=mp3&bitrate=96');
    expect(second.response.statusCode).toBe(200);
    const pid = slow.transcoder.runningFor(target('mp3', 96))?.live.pid ?? 0;
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isAlive(pid)).toBe(true);
    const body = await second.body();
    await eventually(() => slow.transcoder.cached(target('mp3', 96)) !== null);
    const cached = await bytes(await get(slow, '?format=mp3&bitrate=96'));
    expect(body.equals(cached)).toBe(true);
  }, 15_000);

  it('refuses a new transcode beyond the concurrency with 503 and Retry-After, while listeners join running ones', async () => {
    const running = await openStream(slow, '?format=opus&bitrate=64');
    const busy = await get(slow, '?format=opus&bitrate=64', {}, OTHER_KEY);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(await busy.json()).toEqual({ error: { code: ErrorCodes.serverBusy, message: TranscodeMessages.busy } });
    const joined = await openStream(slow, '?format=opus&bitrate=64');
    expect(joined.response.statusCode).toBe(200);
    joined.close();
    running.close();
    await eventually(() => slow.transcoder.activeCount === 0);
    // The original is never refused.
    expect((await get(slow, '', {}, OTHER_KEY)).status).toBe(200);
  });
});
