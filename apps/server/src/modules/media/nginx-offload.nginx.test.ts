import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { connect as connectHttp2 } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../../scripts/free-port.mjs';
import { encodeAudio } from '../../../test/audio-formats.js';
import { requireFfmpeg } from '../../../test/ffmpeg.js';
import { multipartBody, picture, toneWav } from '../../../test/media.js';
import { securityHeaders } from '../../plugins/security.js';

/**
 * docs/deploy/nginx.conf in front of the built server with MEDIA_OFFLOAD=nginx and its gate (MEDIA_OFFLOAD_GATE: nginx
 * asks it about /media/, and what it does not hand over goes to @tonearm), as an operator would run them: the
 * example passes `nginx -t` and is what the nginx of this test runs (only its host-specific paths and ports are
 * swapped for temporary ones, and its library locations are what `npm run nginx-locations` prints), over TLS and
 * HTTP/2. Tonearm checks the session, nginx sends the bytes: 200, 206 and 304 with the right bytes, for a stored blob
 * and for a file of a library (MUSIC_DIR), 401 without a session, 404 for a library file whose path leads outside
 * its folder, and the internal locations cannot be asked for directly.
 */
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const EXAMPLE = path.join(ROOT, 'docs/deploy/nginx.conf');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const PASSWORD = 'offload-password-1';
const run = promisify(execFile);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let work: string;
let tonearm: ChildProcess | null = null;
let nginx: ChildProcess | null = null;
const output: string[] = [];
let cert: Buffer;
let agent: Agent | null = null;
let base: string;
let tonearmBase: string;

/** `example` with each `[from, to]` swapped; a `from` that is not there means the example changed under the test. */
function swapped(example: string, swaps: [string, string][]): string {
  return swaps.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`docs/deploy/nginx.conf no longer contains ${JSON.stringify(from)}`);
    return text.replaceAll(from, to);
  }, example);
}

async function selfSignedCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const files = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') };
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    files.key,
    '-out',
    files.cert,
  ]);
  return files;
}

/** The example as this test's nginx runs it, inside a main configuration of its own (pid, logs, temp paths). */
/** Where the gate listens, as the example's /run/tonearm/gate.sock (nginx's worker can enter `work`). */
const gateSocket = () => path.join(work, 'gate.sock');

/** The example's line standing for the libraries' locations. */
const LIBRARY_EXAMPLE = '        # location /_tonearm_library/1/ { internal; alias "/srv/music/"; }  # Music\n';

async function nginxConfiguration(
  ports: { http: number; https: number; tonearm: number },
  libraryLocations: string[],
): Promise<string> {
  const tls = await selfSignedCertificate(work);
  const site = swapped(await readFile(EXAMPLE, 'utf8'), [
    [LIBRARY_EXAMPLE, libraryLocations.map((line) => `        ${line}\n`).join('')],
    ['    listen [::]:80;\n', ''],
    ['    listen [::]:443 ssl http2;\n', ''],
    ['listen 80;', `listen 127.0.0.1:${ports.http};`],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`],
    ['server 127.0.0.1:4000;', `server 127.0.0.1:${ports.tonearm};`],
    ['server unix:/run/tonearm/gate.sock;', `server unix:${gateSocket()};`],
    ['/etc/letsencrypt/live/music.example.org/fullchain.pem', tls.cert],
    ['/etc/letsencrypt/live/music.example.org/privkey.pem', tls.key],
    ['/var/cache/nginx/tonearm', path.join(work, 'nginx/cache')],
    ['alias /var/lib/tonearm/blobs/;', `alias ${path.join(work, 'data/blobs')}/;`],
  ]);
  const prefix = path.join(work, 'nginx');
  await writeFile(path.join(prefix, 'tonearm.conf'), site);
  const main = [
    'worker_processes 1;',
    'daemon off;',
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp}_temp_path ${prefix}/${temp};`),
    `  include ${prefix}/tonearm.conf;`,
    '}',
    '',
  ].join('\n');
  const file = path.join(prefix, 'nginx.conf');
  await writeFile(file, main);
  return file;
}

function collect(child: ChildProcess): ChildProcess {
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return child;
}

async function waitUntil(what: string, child: ChildProcess, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited early:\n${output.join('')}`);
    if (await ready().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what} did not start:\n${output.join('')}`);
}

async function stop(child: ChildProcess | null): Promise<void> {
  if (child?.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** One HTTPS request through nginx (HTTP/1.1, this test's certificate). */
function through(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Answer> {
  return send(httpsRequest(`${base}${url}`, { method, headers, agent: agent ?? undefined }), body);
}

/** One plain HTTP request straight to Tonearm. */
function direct(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(httpRequest(`${tonearmBase}${url}`, { headers }));
}

function send(request: ReturnType<typeof httpRequest>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    request.end(body);
  });
}

function json(body: Record<string, string>) {
  return [{ 'content-type': 'application/json' }, JSON.stringify(body)] as const;
}

function form(fields: Parameters<typeof multipartBody>[0]) {
  const { payload, headers } = multipartBody(fields);
  return [headers, payload] as const;
}

let cookie: string;
let wav: Buffer;
let audioPath: string;
let songId: number;
/** MUSIC_DIR: a file whose name needs escaping in a URI, and one that will become a link out of the folder. */
let music: string;
const ODD_NAME = path.join('Sœur & Co', '01 Dawn #1 (50%)?.mp3');
let odd: { bytes: Buffer; link: string };
let victimLink: string;

beforeAll(async () => {
  await requireFfmpeg();
  await run(NGINX, ['-v']).catch((error: unknown) => {
    throw new Error(`This test needs nginx (${NGINX}): apt-get install nginx-light, or set NGINX_PATH.`, {
      cause: error,
    });
  });
  work = await mkdtemp(path.join(tmpdir(), 'tonearm-nginx-'));
  // nginx's worker runs as an unprivileged user when the test runs as root: it must reach the blobs.
  await chmod(work, 0o755);
  await mkdir(path.join(work, 'data'), { mode: 0o755 });
  await mkdir(path.join(work, 'nginx'), { mode: 0o755 });
  const ports = { http: await freePort(), https: await freePort(), tonearm: await freePort() };
  music = path.join(work, 'music');
  await mkdir(path.join(music, path.dirname(ODD_NAME)), { recursive: true, mode: 0o755 });
  await chmod(music, 0o755);
  // ffmpeg reads `%` in an output name as a pattern: encoded under a plain name, then renamed.
  await encodeAudio(path.join(music, 'odd.mp3'), 'mp3', { tags: { title: 'Odd', artist: 'Folder' }, frequency: 330 });
  await rename(path.join(music, 'odd.mp3'), path.join(music, ODD_NAME));
  await encodeAudio(path.join(music, 'victim.mp3'), 'mp3', { tags: { title: 'Victim', artist: 'Folder' } });
  await encodeAudio(path.join(work, 'outside.mp3'), 'mp3', { tags: { title: 'Outside' }, frequency: 990 });

  await run(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT });
  tonearm = collect(
    spawn(process.execPath, ['--enable-source-maps', path.join(ROOT, 'apps/server/dist/main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(ports.tonearm),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(work, 'data'),
        DEMO: '0',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        TRUST_PROXY: 'loopback',
        MEDIA_OFFLOAD: 'nginx',
        MEDIA_OFFLOAD_GATE: gateSocket(),
        MUSIC_DIR: music,
        SCAN_WATCH: '0',
        // As the example's deployment says (https): the security headers nginx adds are the https ones.
        PUBLIC_URL: `https://127.0.0.1:${ports.https}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  tonearmBase = `http://127.0.0.1:${ports.tonearm}`;
  await waitUntil('Tonearm', tonearm, async () => (await direct('/healthz')).status === 200);

  // The library locations as the operator gets them, for the library MUSIC_DIR made.
  const printed = await run('npm', ['run', '--silent', 'nginx-locations'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: '' },
  });
  const locations = printed.stdout.trim().split('\n');
  expect(locations).toEqual([`location /_tonearm_library/1/ { internal; alias "${music}/"; }  # music`]);
  const conf = await nginxConfiguration(ports, locations);
  // Fails with nginx's own message (and this test) when the example is not valid nginx.
  await run(NGINX, ['-t', '-q', '-c', conf, '-p', path.join(work, 'nginx')]);

  nginx = collect(spawn(NGINX, ['-c', conf, '-p', path.join(work, 'nginx')], { stdio: ['ignore', 'pipe', 'pipe'] }));
  cert = await readFile(path.join(work, 'cert.pem'));
  agent = new Agent({ ca: cert });
  base = `https://127.0.0.1:${ports.https}`;
  await waitUntil('nginx', nginx, async () => (await through('GET', '/healthz')).status === 200);

  const account = { username: 'offloader', email: 'offloader@example.test', password: PASSWORD };
  expect((await through('POST', '/api/auth/register', ...json(account))).status).toBe(201);
  const login = await through('POST', '/api/auth/login', ...json({ username: 'offloader', password: PASSWORD }));
  expect(login.status).toBe(200);
  cookie = (login.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  const artist = await through('POST', '/artists', ...withCookie(form({ name: 'Through nginx' })));
  expect(artist.status, artist.body.toString()).toBe(201);
  const artistId = (JSON.parse(artist.body.toString()) as { id: number }).id;
  wav = toneWav(440, 1);
  const song = await through(
    'POST',
    '/api/songs',
    ...withCookie(
      form({
        name: 'Offloaded',
        genre: 'Pop',
        artistId: String(artistId),
        songFile: { data: wav, filename: 'song.wav', type: 'audio/wav' },
        imageFile: { data: await picture(3), filename: 'cover.png', type: 'image/png' },
      }),
    ),
  );
  expect(song.status, song.body.toString()).toBe(201);
  // The library's scan at start: its two songs, beside the upload.
  let songs: { id: number; name: string; link: string }[] = [];
  await waitUntil('the scan of MUSIC_DIR', tonearm, async () => {
    songs = JSON.parse((await through('GET', '/api/songs', { cookie })).body.toString()) as typeof songs;
    return songs.length === 3;
  });
  const first = songs.find((song) => song.name === 'Offloaded');
  audioPath = first?.link ?? '';
  songId = first?.id ?? 0;
  odd = {
    bytes: await readFile(path.join(music, ODD_NAME)),
    link: songs.find((song) => song.name === 'Odd')?.link ?? '',
  };
  victimLink = songs.find((song) => song.name === 'Victim')?.link ?? '';
  expect(odd.link).toMatch(/^\/media\/audio\/lib1-/);
}, 120_000);

function withCookie([headers, body]: readonly [Record<string, string>, Buffer | string]) {
  return [{ ...headers, cookie }, body] as const;
}

afterAll(async () => {
  // Also after a failed start, whose own error is the one to read.
  agent?.destroy();
  await stop(nginx);
  await stop(tonearm);
  await rm(work, { recursive: true, force: true });
});

describe('docs/deploy/nginx.conf in front of Tonearm with MEDIA_OFFLOAD=nginx', () => {
  it('has Tonearm hand the audio over, and nginx send the whole file', async () => {
    const handedOver = await direct(audioPath, { cookie });
    expect(handedOver.status).toBe(200);
    expect(handedOver.body).toHaveLength(0);
    expect(handedOver.headers['x-accel-redirect']).toMatch(/^\/_tonearm_blobs\/audio\/[0-9a-f]{2}\/[0-9a-f]{64}\.wav$/);

    const response = await through('GET', audioPath, { cookie });
    expect(response.status).toBe(200);
    expect(response.body.equals(wav)).toBe(true);
    expect(response.headers['x-accel-redirect']).toBeUndefined();
    expect(response.headers).toMatchObject({
      'content-type': 'audio/wav',
      'content-length': String(wav.length),
      'cache-control': 'private, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
    });
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers['last-modified']).toMatch(/GMT$/);

    const head = await through('HEAD', audioPath, { cookie });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(wav.length));
    expect(head.body).toHaveLength(0);
  });

  it("carries Tonearm's request id and security headers on the bytes nginx sends", async () => {
    const handedOver = await direct(audioPath, { cookie });
    expect(handedOver.headers['x-accel-redirect']).toBeDefined();
    // The hand-over leaves them to nginx's constants, which must be what Tonearm puts on every other response.
    const ordinary = await direct('/healthz');
    const response = await through('GET', audioPath, { cookie });
    // Every header of Tonearm's list: one Tonearm adds and the example lacks fails here.
    for (const name of Object.keys(securityHeaders({ publicUrl: base }))) {
      expect(ordinary.headers[name], name).toBeDefined();
      expect(response.headers[name], name).toBe(ordinary.headers[name]);
    }
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a Range with 206 and exactly those bytes, over HTTP/1.1 and HTTP/2', async () => {
    const response = await through('GET', audioPath, { cookie, range: 'bytes=1000-5999' });
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 1000-5999/${wav.length}`);
    expect(response.body.equals(wav.subarray(1000, 6000))).toBe(true);

    const session = connectHttp2(base, { ca: cert });
    try {
      const stream = session.request({ ':path': audioPath, cookie, range: 'bytes=-100' });
      const [status, body] = await new Promise<[number, Buffer]>((resolve, reject) => {
        let code = 0;
        const chunks: Buffer[] = [];
        stream.on('response', (headers) => (code = Number(headers[':status'])));
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => resolve([code, Buffer.concat(chunks)]));
        stream.on('error', reject);
      });
      expect(status).toBe(206);
      expect(body.equals(wav.subarray(wav.length - 100))).toBe(true);
    } finally {
      session.close();
    }
  });

  it('answers 304 to If-None-Match with the ETag nginx gave', async () => {
    const first = await through('GET', audioPath, { cookie });
    // nginx's own validator (mtime-size), not Tonearm's "<key>": nginx answered.
    expect(first.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await through('GET', audioPath, { cookie, 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toHaveLength(0);
  });

  it("refuses without a session with Tonearm's 401, and never serves the internal location to a client", async () => {
    const refused = await through('GET', audioPath);
    expect(refused.status).toBe(401);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body.includes(Buffer.from('RIFF'))).toBe(false);

    const unknown = await through('GET', `/media/audio/${'a'.repeat(64)}.wav`, { cookie });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);

    const handedOver = await direct(audioPath, { cookie });
    const internal = await through('GET', String(handedOver.headers['x-accel-redirect']), { cookie });
    expect(internal.status).toBe(404);
    expect(internal.body.includes(Buffer.from('RIFF'))).toBe(false);
  });

  it('sends downloads as attachments, and transcodes through Tonearm', async () => {
    const download = await through('GET', `/api/songs/${songId}/download`, { cookie });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="Through nginx - Offloaded.wav"/);
    expect(download.body.equals(wav)).toBe(true);

    const transcode = await through('GET', `${audioPath}?format=mp3&bitrate=64`, { cookie });
    expect(transcode.status).toBe(200);
    expect(transcode.headers['content-type']).toBe('audio/mpeg');
    expect(transcode.headers['cache-control']).toBe('no-store');
    expect(transcode.body.length).toBeGreaterThan(1000);
  });

  it("hands a library file over to its library's location, and nginx sends it with Range, 304 and HEAD", async () => {
    const handedOver = await direct(odd.link, { cookie });
    expect(handedOver.status).toBe(200);
    expect(handedOver.body).toHaveLength(0);
    expect(handedOver.headers['x-accel-redirect']).toBe(
      '/_tonearm_library/1/S%C5%93ur%20%26%20Co/01%20Dawn%20%231%20(50%25)%3F.mp3',
    );

    const response = await through('GET', odd.link, { cookie });
    expect(response.status).toBe(200);
    expect(response.body.equals(odd.bytes)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'audio/mpeg',
      'content-length': String(odd.bytes.length),
      'cache-control': 'private, max-age=31536000, immutable',
    });
    const ordinary = await direct('/healthz');
    for (const name of Object.keys(securityHeaders({ publicUrl: base }))) {
      expect(response.headers[name], name).toBe(ordinary.headers[name]);
    }
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const part = await through('GET', odd.link, { cookie, range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${odd.bytes.length}`);
    expect(part.body.equals(odd.bytes.subarray(100, 1100))).toBe(true);

    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await through('GET', odd.link, { cookie, 'if-none-match': String(response.headers.etag) });
    expect(again.status).toBe(304);

    const head = await through('HEAD', odd.link, { cookie });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(odd.bytes.length));
    expect(head.body).toHaveLength(0);

    // The location is internal: a client naming it gets nginx's 404, not the file.
    const internal = await through('GET', String(handedOver.headers['x-accel-redirect']), { cookie });
    expect(internal.status).toBe(404);
    expect(internal.body.includes(odd.bytes.subarray(0, 64))).toBe(false);
  });

  it('refuses a library file whose path now leads outside its folder with 404, never a hand-over', async () => {
    const outside = await readFile(path.join(work, 'outside.mp3'));
    expect((await through('GET', victimLink, { cookie })).status).toBe(200);
    await unlink(path.join(music, 'victim.mp3'));
    await symlink(path.join(work, 'outside.mp3'), path.join(music, 'victim.mp3'));

    const direct404 = await direct(victimLink, { cookie });
    expect(direct404.status).toBe(404);
    expect(direct404.headers['x-accel-redirect']).toBeUndefined();
    for (const range of [undefined, 'bytes=0-99']) {
      const refused = await through('GET', victimLink, { cookie, ...(range === undefined ? {} : { range }) });
      expect(refused.status).toBe(404);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.body.includes(outside.subarray(0, 64))).toBe(false);
    }
  });
});
