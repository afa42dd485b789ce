import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Song } from '@tonearm/contract';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { picture, toneWav } from '../../../test/media.js';

/**
 * Streaming through the real app over real HTTP (a listening server and fetch), with a song uploaded through the API:
 * the Range edge cases, conditional requests, HEAD and the caching headers of DESIGN §4. /media is answered by the
 * lean handler in front of Fastify (modules/media/media-handler.ts): real HTTP is the path real clients take.
 */
describeEachDialect('audio and image streaming over HTTP (%s)', (t) => {
  let listener: TestUser;
  let base: string;
  let song: Song;
  let audio: Buffer;
  let size: number;

  const fetchAudio = (headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${base}${song.link}`, { method, headers: { cookie: listener.cookie, ...headers } });
  const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

  beforeAll(async () => {
    const admin = await makeAdmin(t);
    listener = await makeUser(t);
    const artistId = await makeArtist(t, admin, 'Stream Band');
    audio = toneWav(523, 2);
    size = audio.length;
    const id = await makeSong(t, admin, { name: 'Range Rover', artistId, audio, cover: await picture(3, 'jpeg', 800) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const response = await fetch(`${base}/api/songs/${id}`, { headers: { cookie: listener.cookie } });
    song = Song.parse(await response.json());
  });

  it('serves the whole file with the right type, length, validators and immutable private caching', async () => {
    const response = await fetchAudio();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('content-length')).toBe(String(size));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{64}\.wav"$/);
    expect(response.headers.get('content-encoding')).toBeNull();
    const body = await bytes(response);
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(audio).digest('hex'));
  });

  it('requires a session for audio', async () => {
    expect((await fetch(`${base}${song.link}`)).status).toBe(401);
    expect((await fetch(`${base}${song.link}`, { method: 'HEAD' })).status).toBe(401);
    expect((await fetch(`${base}${song.link}`, { headers: { cookie: 'tonearm_session=forged' } })).status).toBe(401);
  });

  it('answers audio with the same security headers as the rest of the app, and a request id', async () => {
    const api = await fetch(`${base}/api/songs`, { headers: { cookie: listener.cookie } });
    const media = await fetchAudio({ range: 'bytes=0-0' });
    await Promise.all([api.arrayBuffer(), media.arrayBuffer()]);
    const names = [
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ];
    expect(api.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    for (const name of names) expect(media.headers.get(name), name).toBe(api.headers.get(name));
    expect(media.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('stops serving audio to a session at once when it logs out (the cached check follows the logout)', async () => {
    const user = await makeUser(t);
    const before = await fetch(`${base}${song.link}`, { method: 'HEAD', headers: { cookie: user.cookie } });
    expect(before.status).toBe(200);
    const logout = await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { cookie: user.cookie } });
    expect(logout.status).toBe(204);
    const after = await fetch(`${base}${song.link}`, { headers: { cookie: user.cookie } });
    expect(after.status).toBe(401);
    await after.arrayBuffer();
  });

  it('answers 404 for an unknown key', async () => {
    const response = await fetch(`${base}/media/audio/${'0'.repeat(64)}.wav`, { headers: { cookie: listener.cookie } });
    expect(response.status).toBe(404);
  });

  it('Range: the first byte', async () => {
    const response = await fetchAudio({ range: 'bytes=0-0' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 0-0/${size}`);
    expect(response.headers.get('content-length')).toBe('1');
    expect(await bytes(response)).toEqual(audio.subarray(0, 1));
  });

  it('Range: the last byte', async () => {
    const response = await fetchAudio({ range: `bytes=${size - 1}-${size - 1}` });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${size - 1}-${size - 1}/${size}`);
    expect(await bytes(response)).toEqual(audio.subarray(size - 1));
  });

  it('Range: a suffix, bytes=-500', async () => {
    const response = await fetchAudio({ range: 'bytes=-500' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(response.headers.get('content-length')).toBe('500');
    expect(await bytes(response)).toEqual(audio.subarray(size - 500));
  });

  it('Range: an open range, bytes=1000-', async () => {
    const response = await fetchAudio({ range: 'bytes=1000-' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 1000-${size - 1}/${size}`);
    expect(await bytes(response)).toEqual(audio.subarray(1000));
  });

  it('Range: an end past the file is clipped to the last byte', async () => {
    const response = await fetchAudio({ range: `bytes=${size - 10}-${size + 5000}` });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect(await bytes(response)).toEqual(audio.subarray(size - 10));
  });

  it('Range: a start at or past the end is 416 with bytes */size', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`]) {
      const response = await fetchAudio({ range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${size}`);
      await response.arrayBuffer();
    }
  });

  it('HEAD answers the headers without a body, for ranges too', async () => {
    const whole = await fetchAudio({}, 'HEAD');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect((await bytes(whole)).length).toBe(0);
    const part = await fetchAudio({ range: 'bytes=0-99' }, 'HEAD');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-length')).toBe('100');
  });

  it('If-None-Match with the ETag answers 304 without a body', async () => {
    const etag = (await fetchAudio({}, 'HEAD')).headers.get('etag') ?? '';
    const response = await fetchAudio({ 'if-none-match': etag });
    expect(response.status).toBe(304);
    expect((await bytes(response)).length).toBe(0);
    expect((await fetchAudio({ 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('If-Range: the range when the validator matches, the whole file when it does not', async () => {
    const etag = (await fetchAudio({}, 'HEAD')).headers.get('etag') ?? '';
    const matching = await fetchAudio({ range: 'bytes=0-9', 'if-range': etag });
    expect(matching.status).toBe(206);
    expect((await bytes(matching)).length).toBe(10);
    const stale = await fetchAudio({ range: 'bytes=0-9', 'if-range': '"an-older-version"' });
    expect(stale.status).toBe(200);
    expect((await bytes(stale)).length).toBe(size);
  });

  it('serves covers publicly as WebP thumbnails at 64, 300 and 640 px, with 304 on revalidation', async () => {
    const path = song.imgLink.split('?')[0] ?? '';
    for (const width of [64, 300, 640]) {
      const response = await fetch(`${base}${path}?w=${width}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(await bytes(response)).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
      const etag = response.headers.get('etag') ?? '';
      expect((await fetch(`${base}${path}?w=${width}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
    expect((await fetch(`${base}${path}?w=123`)).status).toBe(400);
  });
});
