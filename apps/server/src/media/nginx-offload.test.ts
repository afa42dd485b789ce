import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServerMessages, type ThumbnailWidth } from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { blobKeysOf, makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../test/factories.js';
import { requireFfmpeg } from '../../test/ffmpeg.js';
import { errorOf } from '../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../test/subsonic.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL } from './blob-response.js';
import { imageKeyFor } from './blob-keys.js';
import { NginxOffload, nginxOffloadFor } from './nginx-offload.js';

/**
 * MEDIA_OFFLOAD=nginx in the app: every entrance to a stored blob (/media, the download route, Subsonic's stream,
 * download and getCoverArt) checks access exactly as before, then answers an empty 200 whose X-Accel-Redirect names
 * the file under the internal prefix; refusals and anything that is not a stored file stay Tonearm's own answers.
 * nginx itself serving those redirects is tested in nginx-offload.nginx.test.ts.
 */
const PREFIX = '/_tonearm_blobs/';
const KEY = `${'a'.repeat(64)}.mp3`;

describe('NginxOffload.uriFor', () => {
  let root: string;
  let offload: NginxOffload;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tonearm-offload-'));
    offload = new NginxOffload(PREFIX, new LocalBlobStore(root));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is the prefix and the path of the blob under the blob directory', () => {
    expect(offload.uriFor('audio', KEY)).toBe(`${PREFIX}audio/aa/${KEY}`);
    expect(offload.uriFor('image', 'b1.webp')).toBe(`${PREFIX}image/b1/b1.webp`);
  });

  it.each(['../../etc/passwd', '..', '.hidden', 'a/b', 'a%2fb', 'A.mp3', '', `x${'y'.repeat(200)}`])(
    'names nothing for the key %j, which could leave the blob directory or names no blob',
    (key) => {
      expect(offload.uriFor('audio', key)).toBeNull();
    },
  );

  it('is made only when MEDIA_OFFLOAD asks for it and the blobs are on this disk', () => {
    const store = new LocalBlobStore(root);
    expect(nginxOffloadFor({ mediaOffload: null }, store)).toBeNull();
    expect(nginxOffloadFor({ mediaOffload: { via: 'nginx', prefix: PREFIX, gate: null } }, null)).toBeNull();
    expect(
      nginxOffloadFor({ mediaOffload: { via: 'nginx', prefix: '/x/', gate: null } }, store)?.uriFor('audio', KEY),
    ).toBe(`/x/audio/aa/${KEY}`);
  });
});

function expectOffloaded(response: LightMyRequestResponse, uri: string, mime: string, cacheControl: string) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.rawPayload).toHaveLength(0);
  expect(response.headers).toMatchObject({
    'x-accel-redirect': uri,
    'content-type': mime,
    'cache-control': cacheControl,
    'content-length': '0',
  });
}

function expectNotOffloaded(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['x-accel-redirect']).toBeUndefined();
}

describeEachDialect('MEDIA_OFFLOAD=nginx (%s)', { env: { MEDIA_OFFLOAD: 'nginx' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let premium: TestUser;
  let songId: number;
  let audioKey: string;
  let imageKey: string;
  const audioUri = () => `${PREFIX}audio/${audioKey.slice(0, 2)}/${audioKey}`;
  const thumbnailUri = (width: ThumbnailWidth) => {
    const key = imageKeyFor(imageKey, width) ?? '';
    return `${PREFIX}image/${key.slice(0, 2)}/${key}`;
  };

  beforeAll(async () => {
    await requireFfmpeg();
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    premium = await makeUser(t, { premium: true });
    songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Offloaded') });
    const keys = await blobKeysOf(t, songId);
    audioKey = keys.audioKey;
    imageKey = keys.imageKey ?? '';
  });

  it('names a file that exists under DATA_DIR/blobs, where the internal location is aliased', () => {
    const relative = audioUri().slice(PREFIX.length);
    expect(existsSync(path.join(t.dataDir, 'blobs', relative))).toBe(true);
  });

  it('hands audio to nginx after the session check, whatever the method, Range or validators', async () => {
    const url = `/media/audio/${audioKey}`;
    for (const headers of [{}, { range: 'bytes=10-99' }, { 'if-none-match': `"${audioKey}"` }]) {
      expectOffloaded(await t.as(listener).get(url, { headers }), audioUri(), 'audio/wav', AUDIO_CACHE_CONTROL);
    }
    const head = await t.as(listener).inject({ method: 'HEAD', url });
    expectOffloaded(head, audioUri(), 'audio/wav', AUDIO_CACHE_CONTROL);
  });

  it("leaves the security headers off /media's hand-over, which nginx adds as constants", async () => {
    const response = await t.as(listener).get(`/media/audio/${audioKey}`, { headers: { range: 'bytes=0-99' } });
    expect(response.headers['x-accel-redirect']).toBe(audioUri());
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBeUndefined();
  });

  it('refuses audio without a session, with no redirect', async () => {
    const response = await t.as(null).get(`/media/audio/${audioKey}`);
    expectNotOffloaded(response, 401);
    expect(errorOf(response.body).message).toBe(ServerMessages.notAuthenticated);
  });

  it('answers 404 itself for unknown keys and keys that try to leave the blob directory', async () => {
    for (const key of [KEY, '..%2F..%2Fetc%2Fpasswd', '%2e%2e', `..%2F${audioKey}`]) {
      expectNotOffloaded(await t.as(listener).get(`/media/audio/${key}`), 404);
    }
  });

  it('hands the public thumbnails to nginx, and still refuses a bad width itself', async () => {
    const key = imageKey;
    expectOffloaded(
      await t.as(null).get(`/media/images/${key}?w=300`),
      thumbnailUri(300),
      'image/webp',
      IMAGE_CACHE_CONTROL,
    );
    expectNotOffloaded(await t.as(null).get(`/media/images/${key}?w=301`), 400);
  });

  it('keeps sending transcodes itself', async () => {
    const response = await t.as(listener).inject({ method: 'HEAD', url: `/media/audio/${audioKey}?format=mp3` });
    expectNotOffloaded(response, 200);
    expect(response.headers['content-type']).toBe('audio/mpeg');
  });

  it('hands downloads to nginx as attachments after the premium check', async () => {
    const response = await t.as(premium).get(`/api/songs/${songId}/download`, { headers: { range: 'bytes=0-3' } });
    expectOffloaded(response, audioUri(), 'audio/wav', 'private, no-cache');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="Offloaded - /);
    expectNotOffloaded(await t.as(listener).get(`/api/songs/${songId}/download`), 403);
    expectNotOffloaded(await t.as(null).get(`/api/songs/${songId}/download`), 401);
  });

  it("hands Subsonic's stream, download and getCoverArt to nginx after its sign-in", async () => {
    const api = subsonicApi(t, { apiKey: await apiKeyOf(t, premium) });
    expectOffloaded(await api.raw('stream', { id: songId }), audioUri(), 'audio/wav', AUDIO_CACHE_CONTROL);
    const download = await api.raw('download', { id: songId });
    expectOffloaded(download, audioUri(), 'audio/wav', 'private, no-cache');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    const cover = await api.raw('getCoverArt', { id: songId, size: 64 });
    expectOffloaded(cover, thumbnailUri(64), 'image/webp', IMAGE_CACHE_CONTROL);

    const stranger = subsonicApi(t, { apiKey: 'not-a-key' });
    for (const method of ['stream', 'download', 'getCoverArt']) {
      const refused = await stranger.raw(method, { id: songId });
      expect(refused.headers['x-accel-redirect']).toBeUndefined();
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
    }
    const listenerApi = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    expect((await listenerApi.raw('download', { id: songId })).headers['x-accel-redirect']).toBeUndefined();
  });
});

describeEachDialect('MEDIA_OFFLOAD off (%s)', (t) => {
  it('sends the bytes itself, with no redirect header', async () => {
    const admin = await makeAdmin(t);
    const songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Direct') });
    const row = await t.db.selectFrom('songs').select('audio_key').where('id', '=', songId).executeTakeFirstOrThrow();
    const response = await t.as(admin).get(`/media/audio/${row.audio_key}`, { headers: { range: 'bytes=0-3' } });
    expectNotOffloaded(response, 206);
    expect(response.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
  });
});
