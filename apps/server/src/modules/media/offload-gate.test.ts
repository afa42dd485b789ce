import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../../scripts/free-port.mjs';
import { describeEachDialect } from '../../../test/dialects.js';
import { accelOf, GateClient, gateRequest } from '../../../test/gate-client.js';
import { createTestApp } from '../../../test/harness.js';
import { samplesOf, scrape } from '../../../test/metrics.js';
import { blobKeysOf, makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { requireFfmpeg } from '../../../test/ffmpeg.js';
import { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL } from '../../media/blob-response.js';
import { imageKeyFor } from '../../media/blob-keys.js';
import {
  APP_LOCATION,
  gateAnswer,
  MAX_HEAD_BYTES,
  parseRequestHead,
  startOffloadGate,
  type OffloadGate,
  type OffloadGateOptions,
} from './offload-gate.js';

/**
 * MEDIA_OFFLOAD_GATE: the lean listener nginx asks about /media requests. It hands a blob over only when the media
 * handler's checks pass, sends everything else back to Tonearm's HTTP server (@tonearm), answers the heads of one
 * connection in order, and refuses (and closes on) what nginx never sends.
 */
const PREFIX = '/_tonearm_blobs/';
const GATE_ANSWERS = 'tonearm_offload_gate_answers_total';
const head = (text: string) => Buffer.from(text, 'latin1');

describe('parseRequestHead', () => {
  it('waits for a whole head, then reads the method, target, cookies and keep-alive', () => {
    expect(parseRequestHead(head('GET /media/audio/a.wav HTTP/1.1\r\nHost: x\r\n'))).toBeNull();
    const text = 'GET /media/audio/a.wav?x=1 HTTP/1.1\r\nHost: x\r\nCookie: a=1\r\ncookie: b=2\r\n\r\nGET /next';
    expect(parseRequestHead(head(text))).toEqual({
      head: { method: 'GET', target: '/media/audio/a.wav?x=1', cookie: 'a=1; b=2', keepAlive: true },
      length: text.indexOf('GET /next'),
    });
  });

  it('keeps HTTP/1.1 connections open unless told to close, and HTTP/1.0 ones only when asked', () => {
    const keepAlive = (text: string) => {
      const parsed = parseRequestHead(head(text));
      return parsed !== null && 'head' in parsed ? parsed.head.keepAlive : null;
    };
    expect(keepAlive('HEAD / HTTP/1.1\r\n\r\n')).toBe(true);
    expect(keepAlive('HEAD / HTTP/1.1\r\nConnection: Close\r\n\r\n')).toBe(false);
    expect(keepAlive('HEAD / HTTP/1.0\r\n\r\n')).toBe(false);
    expect(keepAlive('HEAD / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n')).toBe(true);
  });

  it('refuses bodies, malformed lines and headers, and heads over the limit', () => {
    for (const text of [
      'GET /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello',
      'GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n',
      'GET /a HTTP/2\r\n\r\n',
      'get /a HTTP/1.1\r\n\r\n',
      'GET a HTTP/1.1\r\n\r\n',
      'GET /a b HTTP/1.1\r\n\r\n',
      'GET /a HTTP/1.1\r\nNo colon\r\n\r\n',
      'GET /a HTTP/1.1\r\nHost: x\r\n folded: value\r\n\r\n',
      'GET /a HTTP/1.1\r\n: empty name\r\n\r\n',
    ]) {
      expect(parseRequestHead(head(text)), text).toEqual({ refuse: 400 });
    }
    expect(parseRequestHead(head('GET /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n'))).not.toEqual({ refuse: 400 });
    const cookie = `Cookie: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n`;
    expect(parseRequestHead(head(`GET /a HTTP/1.1\r\n${cookie}`))).toEqual({ refuse: 431 });
    expect(parseRequestHead(head(`GET /a HTTP/1.1\r\n${cookie}\r\n`))).toEqual({ refuse: 431 });
  });

  it('refuses a head without a request line, or with a line that ends in a bare LF, whole or not yet', () => {
    for (const text of [
      '\r\n\r\n',
      'Host: x\r\n\r\n',
      'GET /a HTTP/1.1\nHost: x\n\n',
      'GET /a HTTP/1.1\n',
      '\n',
      'GET /a HTTP/1.1\r\nHost: x\n\n',
      'GET /a HTTP/1.1\r\nHost: x\n\r\n',
      'GET /a HTTP/1.1\r\nHost: x\nCookie: a=1\r\n\r\n',
    ]) {
      expect(parseRequestHead(head(text)), JSON.stringify(text)).toEqual({ refuse: 400 });
    }
    expect(parseRequestHead(head('GET /a HTTP/1.1\r'))).toBeNull();
    expect(parseRequestHead(head('GET /a HTTP/1.1\r\nHost: x\r\n'))).toBeNull();
    expect(parseRequestHead(head('GET /a HTTP/1.1\r\nHost: x\r\n\r'))).toBeNull();
  });
});

describe('gateAnswer', () => {
  it('names the blob with its type, caching and a request id, or @tonearm; says when it closes', () => {
    const blob = { uri: `${PREFIX}audio/ab/ab.wav`, mime: 'audio/wav', cacheControl: AUDIO_CACHE_CONTROL };
    expect(gateAnswer(blob, true)).toMatch(
      new RegExp(
        `^HTTP/1\\.1 200 OK\\r\\nX-Accel-Redirect: ${blob.uri}\\r\\nContent-Type: audio/wav\\r\\n` +
          `Cache-Control: ${AUDIO_CACHE_CONTROL}\\r\\nX-Request-Id: [0-9a-f-]{36}\\r\\nContent-Length: 0\\r\\n\\r\\n$`,
      ),
    );
    expect(gateAnswer(null, false)).toBe(
      `HTTP/1.1 200 OK\r\nX-Accel-Redirect: ${APP_LOCATION}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
});

describe('the offload gate on a Unix socket', () => {
  let dir: string;
  const handOver = (_method: string, target: string) =>
    Promise.resolve(
      target === '/media/audio/ab.wav'
        ? { uri: `${PREFIX}audio/ab/ab.wav`, mime: 'audio/wav', cacheControl: AUDIO_CACHE_CONTROL }
        : null,
    );
  const start = (socketPath: string) =>
    startOffloadGate({ address: { path: socketPath }, handOver, log: pino({ level: 'silent' }) });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tonearm-gate-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers there, open to every local user, and removes the socket when it closes', async () => {
    const socketPath = path.join(dir, 'gate.sock');
    const gate = await start(socketPath);
    try {
      expect((await stat(socketPath)).mode & 0o777).toBe(0o666);
      const client = await GateClient.open(socketPath);
      expect(accelOf(await client.answer(gateRequest('GET', '/media/audio/ab.wav')))).toBe(`${PREFIX}audio/ab/ab.wav`);
      expect(accelOf(await client.answer(gateRequest('GET', '/media/audio/cd.wav')))).toBe(APP_LOCATION);
      client.destroy();
    } finally {
      await gate.close();
    }
    await expect(stat(socketPath)).rejects.toThrow(/ENOENT/);
  });

  it('replaces the socket of a process that died, but not one in use, nor a file that is not a socket', async () => {
    // What a kill -9 leaves: the socket file, and no process behind it.
    const stale = path.join(dir, 'stale.sock');
    const child = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(stale)})`,
    ]);
    while (
      !(await stat(stale).then(
        () => true,
        () => false,
      ))
    )
      await sleep(20);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect((await stat(stale)).isSocket()).toBe(true);
    const gate = await start(stale);
    const client = await GateClient.open(stale);
    expect(accelOf(await client.answer(gateRequest('GET', '/media/audio/ab.wav')))).toBe(`${PREFIX}audio/ab/ab.wav`);
    client.destroy();
    await gate.close();

    const inUse = path.join(dir, 'in-use.sock');
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(inUse, resolve));
    try {
      await expect(start(inUse)).rejects.toThrow(`MEDIA_OFFLOAD_GATE: cannot listen on ${inUse}: another process`);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }

    const file = path.join(dir, 'file.sock');
    await writeFile(file, 'not a socket');
    await expect(start(file)).rejects.toThrow('a file that is not a socket is in the way');
  });
});

describe('the offload gate bounds its connections', () => {
  let dir: string;
  let gate: OffloadGate | null = null;
  const clients: GateClient[] = [];
  const audio = gateRequest('GET', '/media/audio/ab.wav');
  const handOver = () => ({ uri: `${PREFIX}audio/ab/ab.wav`, mime: 'audio/wav', cacheControl: AUDIO_CACHE_CONTROL });

  /** A gate on a new socket with the given options; returns a function that opens a client to it. */
  async function gateWith(extra: Partial<OffloadGateOptions>): Promise<() => Promise<GateClient>> {
    const socketPath = path.join(dir, `bounded-${Math.random().toString(36).slice(2)}.sock`);
    gate = await startOffloadGate({
      address: { path: socketPath },
      handOver,
      log: pino({ level: 'silent' }),
      ...extra,
    });
    return async () => {
      const client = await GateClient.open(socketPath);
      clients.push(client);
      return client;
    };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tonearm-gate-bounds-'));
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await gate?.close();
    gate = null;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('closes a connection idle past the timeout, counted from its last answer, and one that never asks', async () => {
    const open = await gateWith({ idleMs: 150 });
    const silent = await open();
    const client = await open();
    expect(accelOf(await client.answer(audio))).toBe(`${PREFIX}audio/ab/ab.wav`);
    const answeredAt = Date.now();
    await client.closedByGate();
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(140);
    await silent.closedByGate();
  });

  it('keeps a keep-alive connection that asks in time open across many requests, longer than the timeout', async () => {
    const open = await gateWith({ idleMs: 400 });
    const client = await open();
    const startedAt = Date.now();
    for (let i = 0; i < 12; i++) {
      expect(accelOf(await client.answer(audio)), `request ${i}`).toBe(`${PREFIX}audio/ab/ab.wav`);
      await sleep(60);
    }
    expect(Date.now() - startedAt).toBeGreaterThan(400);
    expect(client.isClosed).toBe(false);
    // Pipelined heads are answered in order too, and the connection still closes when asked.
    client.send(`${audio}${audio}`);
    expect((await client.answers(2)).map(accelOf)).toEqual([`${PREFIX}audio/ab/ab.wav`, `${PREFIX}audio/ab/ab.wav`]);
    expect(await client.answer(audio.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))).toContain(
      '\r\nConnection: close\r\n',
    );
    await client.closedByGate();
  });

  it('answers 408 to a head still incomplete at the timeout, even one that keeps trickling in', async () => {
    const open = await gateWith({ idleMs: 200 });
    const client = await open();
    const text = `GET /media/audio/ab.wav HTTP/1.1\r\nCookie: ${'a'.repeat(200)}\r\n`;
    let sent = 0;
    const trickle = setInterval(() => client.send(text.charAt(sent++ % text.length)), 20);
    try {
      const startedAt = Date.now();
      expect((await client.answers(1))[0]).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
      await client.closedByGate();
    } finally {
      clearInterval(trickle);
    }
  });

  it('answers 400 to a head whose lines end in a bare LF, and closes the connection', async () => {
    const open = await gateWith({});
    for (const text of ['GET /media/audio/ab.wav HTTP/1.1\nHost: x\n\n', 'Host: x\r\n\r\n']) {
      const client = await open();
      expect(await client.answer(text), JSON.stringify(text)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      await client.closedByGate();
    }
  });

  it('closes connections beyond its cap at once, serves those within it, and says so in the log once', async () => {
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const open = await gateWith({ maxConnections: 2, log });
    const [first, second] = [await open(), await open()];
    for (const client of [first, second]) expect(accelOf(await client.answer(audio))).toBe(`${PREFIX}audio/ab/ab.wav`);
    for (let i = 0; i < 3; i++) await (await open()).closedByGate();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the media offload gate is at its connection limit');
    expect(accelOf(await first.answer(audio))).toBe(`${PREFIX}audio/ab/ab.wav`);

    // A place freed is a place taken: once the gate has seen one go, a new connection is served.
    first.destroy();
    for (;;) {
      const next = await open();
      next.send(audio);
      const answered = await next.answers(1).then(
        ([answer]) => answer ?? null,
        () => null,
      );
      if (answered !== null) {
        expect(accelOf(answered)).toBe(`${PREFIX}audio/ab/ab.wav`);
        break;
      }
      await sleep(20);
    }
  });
});

describe('an app whose gate cannot listen', () => {
  it('does not start, and names the address and why (main.ts prints it)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const where = `127.0.0.1:${port}`;
    const t = await createTestApp('sqlite', { env: { MEDIA_OFFLOAD: 'nginx', MEDIA_OFFLOAD_GATE: where } });
    try {
      await expect(t.app.ready()).rejects.toThrow(`MEDIA_OFFLOAD_GATE: cannot listen on ${where}: listen EADDRINUSE`);
    } finally {
      await t.close().catch(() => undefined);
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

let gatePort = 0;

describeEachDialect(
  'MEDIA_OFFLOAD_GATE (%s)',
  {
    env: { MEDIA_OFFLOAD: 'nginx' },
    prepare: async () => {
      gatePort = await freePort();
      return { env: { MEDIA_OFFLOAD: 'nginx', MEDIA_OFFLOAD_GATE: `127.0.0.1:${gatePort}`, METRICS: '1' } };
    },
  },
  (t) => {
    let listener: TestUser;
    let audioKey: string;
    let imageKey: string;
    const clients: GateClient[] = [];
    const open = async () => {
      const client = await GateClient.open(gatePort);
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      await requireFfmpeg();
      await t.app.ready();
      const admin = await makeAdmin(t);
      listener = await makeUser(t);
      const keys = await blobKeysOf(t, await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Gated') }));
      audioKey = keys.audioKey;
      imageKey = keys.imageKey ?? '';
    });

    afterEach(() => {
      for (const client of clients.splice(0)) client.destroy();
    });

    it("hands a signed-in listener's audio to nginx, for GET and HEAD, with its type and caching", async () => {
      const client = await open();
      for (const method of ['GET', 'HEAD']) {
        const answer = await client.answer(gateRequest(method, `/media/audio/${audioKey}`, listener.cookie));
        expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(accelOf(answer)).toBe(`${PREFIX}audio/${audioKey.slice(0, 2)}/${audioKey}`);
        expect(answer).toContain('\r\nContent-Type: audio/wav\r\n');
        expect(answer).toContain(`\r\nCache-Control: ${AUDIO_CACHE_CONTROL}\r\n`);
      }
    });

    it('hands the public thumbnails over without a session', async () => {
      const client = await open();
      const answer = await client.answer(gateRequest('GET', `/media/images/${imageKey}?w=300`));
      const key = imageKeyFor(imageKey, 300) ?? '';
      expect(accelOf(answer)).toBe(`${PREFIX}image/${key.slice(0, 2)}/${key}`);
      expect(answer).toContain(`\r\nCache-Control: ${IMAGE_CACHE_CONTROL}\r\n`);
    });

    it("sends everything else back to Tonearm's HTTP server, which answers it as without the gate", async () => {
      const client = await open();
      const signedOut = `tonearm_session=${'x'.repeat(43)}`;
      for (const [method, target, cookie] of [
        ['GET', `/media/audio/${audioKey}`, undefined],
        ['GET', `/media/audio/${audioKey}`, signedOut],
        ['GET', `/media/audio/${'a'.repeat(64)}.wav`, listener.cookie],
        ['GET', `/media/audio/..%2F${audioKey}`, listener.cookie],
        ['GET', `/media/audio/${audioKey}?format=mp3`, listener.cookie],
        ['GET', `/media/audio/${audioKey}?format=flac`, listener.cookie],
        ['GET', `/media/images/${imageKey}?w=13`, undefined],
        ['DELETE', `/media/audio/${audioKey}`, listener.cookie],
        ['GET', '/api/songs', listener.cookie],
      ] as const) {
        expect(accelOf(await client.answer(gateRequest(method, target, cookie))), target).toBe(APP_LOCATION);
      }
    });

    it('counts its answers in /metrics, by where they send nginx', async () => {
      const answers = async () => {
        const samples = await scrape(t.app);
        const count = (to: string) => samplesOf(samples, GATE_ANSWERS, { to })[0]?.value ?? 0;
        return { file: count('file'), app: count('app') };
      };
      const before = await answers();
      const client = await open();
      await client.answer(gateRequest('GET', `/media/audio/${audioKey}`, listener.cookie));
      await client.answer(gateRequest('HEAD', `/media/images/${imageKey}`));
      await client.answer(gateRequest('GET', `/media/audio/${audioKey}`));
      expect(await answers()).toEqual({ file: before.file + 2, app: before.app + 1 });
    });

    it('stops handing over audio once the session is revoked', async () => {
      const user = await makeUser(t);
      const client = await open();
      const ask = () => client.answer(gateRequest('GET', `/media/audio/${audioKey}`, user.cookie));
      expect(accelOf(await ask())).not.toBe(APP_LOCATION);
      expect((await t.as(user).post('/api/auth/logout')).statusCode).toBe(204);
      expect(accelOf(await ask())).toBe(APP_LOCATION);
    });

    it('answers the heads of one connection in order, pipelined ones too, and closes when asked', async () => {
      const client = await open();
      const audio = gateRequest('GET', `/media/audio/${audioKey}`, listener.cookie);
      client.send(`${gateRequest('GET', '/media/audio/none.wav', listener.cookie)}${audio}${audio}`);
      const answers = await client.answers(3);
      expect(answers.map(accelOf)).toEqual([APP_LOCATION, expect.stringContaining(audioKey), expect.any(String)]);
      const last = await client.answer(audio.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
      expect(last).toContain('\r\nConnection: close\r\n');
      await client.closedByGate();
    });

    it('refuses what nginx never sends, and closes the connection', async () => {
      for (const [text, status] of [
        ['GET /media/x HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc', 400],
        ['NOT HTTP\r\n\r\n', 400],
        ['GET /media/x HTTP/1.1\nHost: x\n\n', 400],
        [`GET /media/x HTTP/1.1\r\nCookie: ${'a'.repeat(MAX_HEAD_BYTES)}`, 431],
      ] as const) {
        const client = await open();
        const answer = await client.answer(text);
        expect(answer, text.slice(0, 40)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        await client.closedByGate();
      }
    });
  },
);
