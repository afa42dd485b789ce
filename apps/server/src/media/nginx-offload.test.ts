import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Library, ServerMessages, Song, type ThumbnailWidth } from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio } from '../../test/audio-formats.js';
import { describeEachDialect } from '../../test/dialects.js';
import { blobKeysOf, makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../test/factories.js';
import { requireFfmpeg } from '../../test/ffmpeg.js';
import { errorOf } from '../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../test/subsonic.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL } from './blob-response.js';
import { imageKeyFor } from './blob-keys.js';
import { libraryUri, NginxOffload, nginxLibraryLocations, nginxOffloadFor } from './nginx-offload.js';

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

describe('library offload URIs and locations', () => {
  it('names a library file by its library and each part of its path percent-encoded', () => {
    expect(libraryUri({ libraryId: 3, relative: 'A b/Sœur #1 (50%)?.mp3' })).toBe(
      '/_tonearm_library/3/A%20b/S%C5%93ur%20%231%20(50%25)%3F.mp3',
    );
    expect(libraryUri({ libraryId: 12, relative: 'a%2Fb/..x.flac' })).toBe('/_tonearm_library/12/a%252Fb/..x.flac');
  });

  it('prints one nested location per library, quoted for nginx, and refuses a folder nginx cannot name', () => {
    const lines = nginxLibraryLocations([
      { id: 1, name: 'Music', path: '/srv/music' },
      { id: 2, name: 'Odd\nname', path: '/mnt/my "best" \\ music/' },
      { id: 3, name: 'Cash', path: '/srv/$HOME' },
    ]);
    expect(lines).toEqual([
      'location /_tonearm_library/1/ { internal; alias "/srv/music/"; }  # Music',
      'location /_tonearm_library/2/ { internal; alias "/mnt/my \\"best\\" \\\\ music/"; }  # Odd name',
      `# /_tonearm_library/3/: the folder of "Cash" cannot be written in nginx's configuration`,
    ]);
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

describeEachDialect(
  'MEDIA_OFFLOAD=nginx with a library (%s)',
  { env: { MEDIA_OFFLOAD: 'nginx', SCAN_WATCH: '0' } },
  (t) => {
    let base: string;
    let music: string;
    let library: Library;
    let premium: TestUser;
    const songs = async () => z.array(Song).parse((await t.as(premium).get('/api/songs')).json());

    beforeAll(async () => {
      await requireFfmpeg();
      base = await mkdtemp(path.join(tmpdir(), 'tonearm-offload-library-'));
      music = path.join(base, 'Music');
      await mkdir(path.join(music, 'Odd #1'), { recursive: true });
      await encodeAudio(path.join(music, 'Odd #1', 'Song?.mp3'), 'mp3', { tags: { title: 'Odd', artist: 'A' } });
      await encodeAudio(path.join(music, 'Victim.mp3'), 'mp3', {
        tags: { title: 'Victim', artist: 'A' },
        frequency: 660,
      });
      await encodeAudio(path.join(base, 'outside.mp3'), 'mp3', { frequency: 880 });
      const admin = await makeAdmin(t);
      premium = await makeUser(t, { premium: true });
      const added = await t.as(admin).post('/api/libraries', { path: music });
      expect(added.statusCode, added.body).toBe(201);
      library = Library.parse(added.json());
      await t.composition.services.libraries.settled();
    });

    afterAll(async () => {
      await rm(base, { recursive: true, force: true });
    });

    it('hands a library file to its location after the checks, from /media, the gate, downloads and Subsonic', async () => {
      const odd = (await songs()).find((song) => song.name === 'Odd');
      const uri = `/_tonearm_library/${library.id}/Odd%20%231/Song%3F.mp3`;
      for (const headers of [{}, { range: 'bytes=10-99' }]) {
        expectOffloaded(await t.as(premium).get(odd?.link ?? '', { headers }), uri, 'audio/mpeg', AUDIO_CACHE_CONTROL);
      }
      expectOffloaded(
        await t.as(premium).inject({ method: 'HEAD', url: odd?.link ?? '' }),
        uri,
        'audio/mpeg',
        AUDIO_CACHE_CONTROL,
      );
      const handOver = t.composition.services.media?.handOver;
      expect(await handOver?.('GET', odd?.link ?? '', premium.cookie)).toEqual({
        uri,
        mime: 'audio/mpeg',
        cacheControl: AUDIO_CACHE_CONTROL,
      });
      expect(await handOver?.('GET', odd?.link ?? '', undefined)).toBeNull();
      expectNotOffloaded(await t.as(null).get(odd?.link ?? ''), 401);

      const download = await t.as(premium).get(`/api/songs/${odd?.id ?? 0}/download`);
      expectOffloaded(download, uri, 'audio/mpeg', 'private, no-cache');
      const api = subsonicApi(t, { apiKey: await apiKeyOf(t, premium) });
      expectOffloaded(await api.raw('stream', { id: odd?.id ?? 0 }), uri, 'audio/mpeg', AUDIO_CACHE_CONTROL);
      // A transcode is still Tonearm's.
      expectNotOffloaded(await t.as(premium).inject({ method: 'HEAD', url: `${odd?.link ?? ''}?format=opus` }), 200);
    });

    it('answers 404 itself, never a hand-over, for a file whose path now leads outside the library or is gone', async () => {
      const victim = (await songs()).find((song) => song.name === 'Victim');
      const link = victim?.link ?? '';
      expect((await t.as(premium).get(link)).headers['x-accel-redirect']).toBe(
        `/_tonearm_library/${library.id}/Victim.mp3`,
      );
      await unlink(path.join(music, 'Victim.mp3'));
      await symlink(path.join(base, 'outside.mp3'), path.join(music, 'Victim.mp3'));
      const outside = await readFile(path.join(base, 'outside.mp3'));
      const refused = await t.as(premium).get(link);
      expectNotOffloaded(refused, 404);
      expect(refused.rawPayload.includes(outside.subarray(0, 64))).toBe(false);
      expect(await t.composition.services.media?.handOver('GET', link, premium.cookie)).toBeNull();
      expectNotOffloaded(await t.as(premium).get(`/api/songs/${victim?.id ?? 0}/download`), 404);

      await unlink(path.join(music, 'Victim.mp3'));
      expectNotOffloaded(await t.as(premium).get(link), 404);
      expect(await t.composition.services.media?.handOver('GET', link, premium.cookie)).toBeNull();
    });
  },
);
