import { once } from 'node:events';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../../scripts/free-port.mjs';
import { multipartBody, picture, toneWav } from '../../../test/media.js';
import { filesUnder } from '../../../test/stored.js';

/**
 * The real server process (node + tsx, SQLite in a temp DATA_DIR) is killed with SIGKILL in the middle of a song
 * upload. After a restart on the same DATA_DIR, no row and no byte of that upload may remain: the start-up sweep
 * clears the staged temp file, and no song row was ever written.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const PASSWORD = 'kill-test-password-1';

describe('killing the server during an upload', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcess | null = null;
  const output: string[] = [];
  const base = () => `http://127.0.0.1:${port}`;

  async function start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    server = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
      const up = await fetch(`${base()}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) return;
      await sleep(100);
    }
    throw new Error(`server did not start:\n${output.join('')}`);
  }

  async function killHard(): Promise<void> {
    const child = server;
    if (child?.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    server = null;
  }

  async function login(): Promise<string> {
    const response = await fetch(`${base()}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'killadmin', password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }

  async function songCount(cookie: string): Promise<number> {
    const response = await fetch(`${base()}/api/songs`, { headers: { cookie } });
    expect(response.status).toBe(200);
    return ((await response.json()) as unknown[]).length;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-kill-'));
    port = await freePort();
  });

  afterAll(async () => {
    await killHard();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves no row and no blob of the interrupted upload after a restart', { timeout: 120_000 }, async () => {
    await start();
    const register = await fetch(`${base()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'killadmin', email: 'killadmin@example.test', password: PASSWORD }),
    });
    expect(register.status).toBe(201);
    const cookie = await login();
    const artist = multipartBody({ name: 'Crash Test Dummies' });
    const created = await fetch(`${base()}/artists`, {
      method: 'POST',
      headers: { ...artist.headers, cookie },
      body: artist.payload,
    });
    expect(created.status).toBe(201);
    const { id: artistId } = (await created.json()) as { id: number };
    expect(await songCount(cookie)).toBe(0);
    const blobsBefore = {
      audio: await filesUnder(path.join(dataDir, 'blobs', 'audio')),
      image: await filesUnder(path.join(dataDir, 'blobs', 'image')),
    };

    // A cover, then a large WAV sent slowly, so the server is mid-body when it dies.
    const boundary = '----tonearmkilltest';
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const fileHead = (name: string, filename: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n';
    const upload = request(`${base()}/api/songs`, {
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const uploadFailed = new Promise<void>((resolve) => {
      upload.on('error', () => {
        resolve();
      });
      upload.on('response', (response) => {
        response.resume();
        response.on('end', resolve);
      });
    });
    upload.write(field('name', 'Never Arrives') + field('genre', 'Rock') + field('artistId', String(artistId)));
    upload.write(fileHead('imageFile', 'cover.png'));
    upload.write(await picture(99));
    upload.write('\r\n' + fileHead('songFile', 'big.wav'));
    // 5 minutes of WAV (4.8 MB): far more than is sent before the kill, however slow the machine.
    const audio = toneWav(440, 300);
    const tmpDir = path.join(dataDir, 'blobs', 'tmp');
    let sent = 0;
    let staged: string[] = [];
    while (sent < audio.length) {
      // At the server's pace: a slow server must not make this loop run through the whole file before it stages.
      if (!upload.write(audio.subarray(sent, sent + 16 * 1024))) await once(upload, 'drain');
      sent += 16 * 1024;
      await sleep(10);
      staged = await filesUnder(tmpDir);
      // The cover and the audio are both being staged: the server is in the middle of the body.
      if (staged.length >= 2 && sent > 256 * 1024) break;
    }
    expect(sent).toBeLessThan(audio.length);
    expect(staged.length).toBeGreaterThanOrEqual(2);

    await killHard();
    upload.destroy();
    await uploadFailed;
    // The kill left the staged temp files behind: exactly the state the restart must clean up.
    expect((await filesUnder(tmpDir)).length).toBeGreaterThanOrEqual(2);

    await start();
    const cookieAfter = await login();
    expect(await songCount(cookieAfter)).toBe(0);
    expect(await filesUnder(tmpDir)).toEqual([]);
    expect(await filesUnder(path.join(dataDir, 'blobs', 'audio'))).toEqual(blobsBefore.audio);
    expect((await filesUnder(path.join(dataDir, 'blobs', 'image'))).sort()).toEqual(blobsBefore.image.sort());

    // And the same song uploads cleanly afterwards.
    const retry = multipartBody({
      name: 'Arrives Now',
      genre: 'Rock',
      artistId: String(artistId),
      songFile: { data: toneWav(440, 2), filename: 'small.wav' },
      imageFile: { data: await picture(99), filename: 'cover.png' },
    });
    const added = await fetch(`${base()}/api/songs`, {
      method: 'POST',
      headers: { ...retry.headers, cookie: cookieAfter },
      body: retry.payload,
    });
    expect(added.status).toBe(201);
    expect(await songCount(cookieAfter)).toBe(1);
  });
});
