import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreatedApiKey, ErrorCodes, ServerMessages } from '@tonearm/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../test/factories.js';
import { FFMPEG, ffmpegTone, realTimeFfmpeg, requireFfmpeg } from '../../test/ffmpeg.js';
import { errorOf } from '../../test/harness.js';
import { toneWav } from '../../test/media.js';
import { parseExposition, samplesOf, scrape, valueOf, type Sample } from '../../test/metrics.js';
import { UNMATCHED_ROUTE } from './request-timing.js';

const LATENCY = 'tonearm_http_request_duration_seconds';
const BYTES = 'tonearm_audio_streamed_bytes_total';
const ACTIVE = 'tonearm_audio_active_streams';

/** The requests counted for one route, method and status (0 before the first). */
function requestCount(samples: readonly Sample[], route: string, method: string, status: number): number {
  const found = samplesOf(samples, `${LATENCY}_count`, { route, method, status_code: String(status) });
  return found[0]?.value ?? 0;
}

/** Scrapes until `check` holds (counters settle just after a response ends), at most about 3 s. */
async function scrapeUntil(app: Parameters<typeof scrape>[0], check: (samples: Sample[]) => boolean) {
  let samples = await scrape(app);
  for (let tries = 0; tries < 60 && !check(samples); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    samples = await scrape(app);
  }
  return samples;
}

describeEachDialect('/metrics without METRICS (%s)', (t) => {
  it('is an unknown path: 404 like any other', async () => {
    const metrics = await t.as(null).get('/metrics');
    const unknown = await t.as(null).get('/no-such-thing');
    expect(metrics.statusCode).toBe(404);
    expect(metrics.body).toBe(unknown.body);
  });
});

describeEachDialect(
  '/metrics with METRICS_TOKEN (%s)',
  { env: { METRICS_TOKEN: 'scrape-me-0123456789abcdef' } },
  (t) => {
    it.each([
      ['no Authorization', undefined],
      ['a wrong token', 'Bearer scrape-me-0123456789abcdeX'],
      ['the token in another scheme', 'Basic scrape-me-0123456789abcdef'],
      ['a prefix of the token', 'Bearer scrape-me'],
    ])('refuses %s with 401', async (_what, authorization) => {
      const response = await t.app.inject({
        url: '/metrics',
        ...(authorization === undefined ? {} : { headers: { authorization } }),
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(errorOf(response.body)).toEqual({
        code: ErrorCodes.unauthorized,
        message: ServerMessages.metricsTokenRequired,
      });
    });

    it('answers the exposition with the token', async () => {
      const samples = await scrape(t.app, 'Bearer scrape-me-0123456789abcdef');
      expect(samplesOf(samples, BYTES)).toHaveLength(1);
    });
  },
);

describeEachDialect('/metrics with METRICS=1 (%s)', { env: { METRICS: '1', FFMPEG_PATH: FFMPEG } }, (t) => {
  let user: TestUser;
  let baseUrl = '';

  beforeAll(async () => {
    await requireFfmpeg();
    user = await makeUser(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  /** Stores `bytes` as an audio blob and answers its key. */
  async function storeAudio(bytes: Buffer): Promise<string> {
    const key = `${randomBytes(32).toString('hex')}.wav`;
    await (await t.blobs?.stage('audio', bytes))?.commit(key);
    return key;
  }

  /** A GET over a real connection (the /media front handler, not app.inject), answered in full. */
  async function fetchAudio(key: string, headers: Record<string, string> = {}): Promise<Buffer> {
    const response = await fetch(`${baseUrl}/media/audio/${key}`, { headers: { cookie: user.cookie, ...headers } });
    expect(response.status).toBe(headers.range === undefined ? 200 : 206);
    return Buffer.from(await response.arrayBuffer());
  }

  it('times each request under its route pattern, method and status, never its URL', async () => {
    const before = await scrape(t.app);
    await t.as(null).get('/healthz');
    await t.as(null).get('/healthz');
    expect((await t.as(user).get('/api/songs/987654')).statusCode).toBe(404);
    expect((await t.as(null).get('/api/no-such-route/123456')).statusCode).toBe(404);
    const after = await scrape(t.app);

    const delta = (route: string, method: string, status: number) =>
      requestCount(after, route, method, status) - requestCount(before, route, method, status);
    expect(delta('/healthz', 'GET', 200)).toBe(2);
    expect(delta('/api/songs/:id', 'GET', 404)).toBe(1);
    expect(delta(UNMATCHED_ROUTE, 'GET', 404)).toBe(1);
    const routes = samplesOf(after, `${LATENCY}_count`).map((sample) => sample.labels.route ?? '');
    expect(routes.filter((route) => route.includes('987654') || route.includes('no-such-route'))).toEqual([]);

    // A histogram: cumulative buckets ending in +Inf, which is the count.
    const labels = { route: '/healthz', method: 'GET', status_code: '200' };
    const buckets = samplesOf(after, `${LATENCY}_bucket`, labels);
    const counts = buckets.map((sample) => sample.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(buckets.at(-1)?.labels.le).toBe('+Inf');
    expect(buckets.at(-1)?.value).toBe(valueOf(after, `${LATENCY}_count`, labels));
    expect(valueOf(after, `${LATENCY}_sum`, labels)).toBeGreaterThan(0);
  });

  it('counts the bytes of audio streamed, whole and in ranges, through the server and app.inject', async () => {
    // More than one 256 KiB pump chunk.
    const audio = randomBytes(700_000);
    const key = await storeAudio(audio);
    const before = await scrape(t.app);

    expect((await fetchAudio(key)).equals(audio)).toBe(true);
    expect((await fetchAudio(key, { range: 'bytes=1000-300999' })).length).toBe(300_000);
    const injected = await t.as(user).get(`/media/audio/${key}`, { headers: { range: 'bytes=-1234' } });
    expect(injected.statusCode).toBe(206);
    // A 304 and a HEAD send no body.
    expect(
      (await fetch(`${baseUrl}/media/audio/${key}`, { method: 'HEAD', headers: { cookie: user.cookie } })).status,
    ).toBe(200);
    const after = await scrapeUntil(t.app, (samples) => valueOf(samples, ACTIVE) === 0);

    expect(valueOf(after, BYTES) - valueOf(before, BYTES)).toBe(audio.length + 300_000 + 1234);
    expect(valueOf(after, ACTIVE)).toBe(0);
    // The front handler's answers are timed under the same pattern as its Fastify twin's.
    const route = '/media/audio/:key';
    expect(requestCount(after, route, 'GET', 200) - requestCount(before, route, 'GET', 200)).toBe(1);
    expect(requestCount(after, route, 'GET', 206) - requestCount(before, route, 'GET', 206)).toBe(2);
    expect(requestCount(after, route, 'HEAD', 200) - requestCount(before, route, 'HEAD', 200)).toBe(1);
  });

  it('shows a stream as active while it runs, and no more once the client went away', async () => {
    const audio = randomBytes(32 * 1024 * 1024);
    const key = await storeAudio(audio);
    const before = await scrape(t.app);

    const { response, cut } = await startStream(`${baseUrl}/media/audio/${key}`, user.cookie);
    expect(response.statusCode).toBe(200);
    // One chunk, then no more reading: the server waits on the full socket with the stream open.
    await new Promise<void>((resolve) => {
      response.once('data', () => {
        response.pause();
        resolve();
      });
    });
    expect(valueOf(await scrape(t.app), ACTIVE)).toBe(1);
    cut();

    const after = await scrapeUntil(t.app, (samples) => valueOf(samples, ACTIVE) === 0);
    expect(valueOf(after, ACTIVE)).toBe(0);
    const sent = valueOf(after, BYTES) - valueOf(before, BYTES);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(audio.length);
  });

  it('counts the Subsonic stream and download, and the web download, like /media', async () => {
    const admin = await makeAdmin(t);
    const audio = toneWav(611, 2);
    const songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, `Metered ${Date.now()}`), audio });
    const created = await t.as(admin).post(`/api/users/${admin.id}/api-keys`, { name: 'Metrics' });
    const apiKey = CreatedApiKey.parse(created.json()).key;
    const before = await scrape(t.app);

    const query = `id=${songId}&apiKey=${encodeURIComponent(apiKey)}`;
    const streamed = await fetch(`${baseUrl}/rest/stream?${query}`);
    expect(streamed.status).toBe(200);
    expect(Buffer.from(await streamed.arrayBuffer()).equals(audio)).toBe(true);
    const downloaded = await fetch(`${baseUrl}/rest/download?${query}`);
    expect(downloaded.status).toBe(200);
    expect((await downloaded.arrayBuffer()).byteLength).toBe(audio.length);
    const web = await t.as(admin).get(`/api/songs/${songId}/download`);
    expect(web.statusCode).toBe(200);
    expect(web.rawPayload.length).toBe(audio.length);

    const after = await scrapeUntil(t.app, (samples) => valueOf(samples, ACTIVE) === 0);
    expect(valueOf(after, BYTES) - valueOf(before, BYTES)).toBe(3 * audio.length);
    expect(valueOf(after, ACTIVE)).toBe(0);
    expect(requestCount(after, '/rest/:method', 'GET', 200) - requestCount(before, '/rest/:method', 'GET', 200)).toBe(
      2,
    );
  });

  it('counts transcodes started, finished and failed, and those in progress', async () => {
    const counts = (samples: Sample[]) => ({
      started: valueOf(samples, 'tonearm_transcodes_started_total'),
      finished: valueOf(samples, 'tonearm_transcodes_finished_total'),
      failed: valueOf(samples, 'tonearm_transcodes_failed_total'),
      inProgress: valueOf(samples, 'tonearm_transcodes_in_progress'),
    });
    const before = counts(await scrape(t.app));
    const good = await storeAudio(toneWav(587, 1));
    const transcoded = await t.as(user).get(`/media/audio/${good}?format=opus`);
    expect(transcoded.statusCode).toBe(200);
    expect(transcoded.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
    // Bytes that are no audio at all: ffmpeg fails on them before its first byte, which answers 415.
    const bad = await storeAudio(randomBytes(4096));
    expect((await t.as(user).get(`/media/audio/${bad}?format=mp3`)).statusCode).toBe(415);

    const settled = (samples: Sample[]) => counts(samples).inProgress === before.inProgress;
    const after = counts(await scrapeUntil(t.app, settled));
    expect(after).toEqual({
      started: before.started + 2,
      finished: before.finished + 1,
      failed: before.failed + 1,
      inProgress: 0,
    });
    // Again from the cache: no new transcode.
    expect((await t.as(user).get(`/media/audio/${good}?format=opus`)).statusCode).toBe(200);
    expect(counts(await scrape(t.app)).started).toBe(after.started);
  });

  it('reports the event-loop lag and the other Node.js runtime metrics', async () => {
    const samples = await scrape(t.app);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports the PostgreSQL pool (and nothing for SQLite, which has none)', async () => {
    const pool = (samples: Sample[]) => samples.filter((sample) => sample.name.startsWith('tonearm_db_pool_'));
    if (t.dialect === 'sqlite') {
      expect(pool(await scrape(t.app))).toEqual([]);
      return;
    }
    const idle = await scrape(t.app);
    // The test harness opens pools of 4.
    expect(valueOf(idle, 'tonearm_db_pool_max_connections')).toBe(4);
    expect(valueOf(idle, 'tonearm_db_pool_waiting_queries')).toBe(0);
    expect(valueOf(idle, 'tonearm_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(valueOf(idle, 'tonearm_db_pool_idle_connections')).toBe(valueOf(idle, 'tonearm_db_pool_connections'));

    // Six slow queries on four connections: four busy, two waiting (for 2 s, which slow scrapes cannot outlast).
    const sleeps = Array.from({ length: 6 }, () => sql`select pg_sleep(2)`.execute(t.db));
    const busy = await scrapeUntil(t.app, (samples) => valueOf(samples, 'tonearm_db_pool_waiting_queries') === 2);
    await Promise.all(sleeps);
    expect(valueOf(busy, 'tonearm_db_pool_waiting_queries')).toBe(2);
    expect(valueOf(busy, 'tonearm_db_pool_connections')).toBe(4);
    expect(valueOf(busy, 'tonearm_db_pool_idle_connections')).toBe(0);
  });
});

// ffmpeg reading at real-time speed, one transcode at a time: a transcode stays in progress while the test looks.
let slowDir = '';
const slowFfmpeg = async () => {
  slowDir = await mkdtemp(path.join(tmpdir(), 'tonearm-metrics-ffmpeg-'));
  const env = { METRICS: '1', FFMPEG_PATH: await realTimeFfmpeg(slowDir), TRANSCODE_CONCURRENCY: '1' };
  return { env };
};

describeEachDialect('/metrics of slow transcodes (%s)', { prepare: slowFfmpeg }, (t) => {
  afterAll(async () => {
    await rm(slowDir, { recursive: true, force: true });
  });

  it('counts one in progress, one refused beyond the concurrency, and one cancelled when its listener left', async () => {
    await requireFfmpeg();
    const user = await makeUser(t);
    const keys = [`${'e'.repeat(64)}.flac`, `${'f'.repeat(64)}.flac`];
    for (const [index, key] of keys.entries()) {
      await (await t.blobs?.stage('audio', await ffmpegTone(slowDir, 3, 'flac', 300 + index * 100)))?.commit(key);
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const value = (samples: Sample[], name: string) => valueOf(samples, `tonearm_transcodes_${name}`);

    const { response, cut } = await startStream(`${base}/media/audio/${keys[0]}?format=opus`, user.cookie);
    expect(response.statusCode).toBe(200);
    const running = await scrape(t.app);
    expect(value(running, 'in_progress')).toBe(1);
    expect(value(running, 'started_total')).toBe(1);
    expect(valueOf(running, ACTIVE)).toBe(1);

    const refused = await fetch(`${base}/media/audio/${keys[1]}?format=opus`, { headers: { cookie: user.cookie } });
    expect(refused.status).toBe(503);
    cut();

    // The transcode ends when ffmpeg is stopped, the stream when its response closes: two events, in either order.
    const after = await scrapeUntil(
      t.app,
      (samples) => value(samples, 'in_progress') === 0 && valueOf(samples, ACTIVE) === 0,
    );
    expect(value(after, 'refused_total')).toBe(1);
    expect(value(after, 'cancelled_total')).toBe(1);
    expect(value(after, 'started_total')).toBe(1);
    expect(value(after, 'failed_total')).toBe(0);
    expect(value(after, 'in_progress')).toBe(0);
    expect(valueOf(after, ACTIVE)).toBe(0);
  });
});

describe('the exposition parser of the tests', () => {
  it('reads labels with escaped quotes and the +Inf bucket', () => {
    const samples = parseExposition('# HELP x y\nx_bucket{le="+Inf",route="/a\\"b"} 3\nplain 1.5\n');
    expect(samples).toEqual([
      { name: 'x_bucket', labels: { le: '+Inf', route: '/a"b' }, value: 3 },
      { name: 'plain', labels: {}, value: 1.5 },
    ]);
  });
});

/** A GET over a real connection that the test cuts off when it likes. */
function startStream(url: string, cookie: string): Promise<{ response: IncomingMessage; cut: () => void }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { cookie } }, (response) => {
      resolve({ response, cut: () => request.destroy() });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end();
  });
}
