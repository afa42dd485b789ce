import { utimes } from 'node:fs/promises';
import { CopyObjectCommand } from '@aws-sdk/client-s3';
import { ErrorCodes } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { requireFfmpeg } from '../../../test/ffmpeg.js';
import { toneWav } from '../../../test/media.js';
import { freshBucketEnv } from '../../../test/s3-buckets.js';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.js';
import { collect, filesUnder } from '../../../test/stored.js';
import type { Config } from '../../config.js';
import { SWEEP_GRACE_MS } from '../../maintenance/blob-sweep.js';
import { prepareCatalogueStorage } from '../../startup.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createBlobStore } from '../../storage/create-blob-store.js';
import { s3ClientFor } from '../../storage/s3-blob-store.js';

let s3: TestS3Server;

beforeAll(async () => {
  s3 = await startS3Server();
});

afterAll(async () => {
  await s3.stop();
});

const silent = { info: () => undefined, warn: () => undefined };

describeEachDialect(
  'STORAGE=s3: upload, /media, delete and the sweep on a real S3 server (%s)',
  { prepare: async () => ({ env: await freshBucketEnv(s3) }) },
  (t) => {
    let admin: TestUser;
    let listener: TestUser;
    let store: BlobStore;
    const wav = toneWav(330, 1);
    let key: string;
    let songId: number;

    beforeAll(async () => {
      admin = await makeAdmin(t);
      listener = await makeUser(t);
      if (t.store === null) throw new Error('the test app has no blob store');
      store = t.store;
      songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Bucket Band'), audio: wav });
      const row = await t.db.selectFrom('songs').select('audio_key').where('id', '=', songId).executeTakeFirstOrThrow();
      key = row.audio_key;
    });

    it('stores the upload in the bucket, and nothing but empty staging on the local disk', async () => {
      expect(t.blobs).toBeNull();
      expect(await store.stat('audio', key)).toMatchObject({ size: wav.length });
      expect(await collect(store.list('image'))).not.toEqual([]);
      expect(await filesUnder(`${t.dataDir}/blobs`)).toEqual([]);
    });

    it('streams 200, 206 with Range forwarded, 304 and HEAD with the right bytes and headers', async () => {
      const url = `/media/audio/${key}`;
      const whole = await t.as(listener).get(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(wav)).toBe(true);
      expect(whole.headers['content-type']).toBe('audio/wav');

      const part = await t.as(listener).get(url, { headers: { range: 'bytes=100-1099' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-1099/${wav.length}`);
      expect(part.rawPayload.equals(wav.subarray(100, 1100))).toBe(true);
      const tail = await t.as(listener).get(url, { headers: { range: 'bytes=-10' } });
      expect(tail.rawPayload.equals(wav.subarray(wav.length - 10))).toBe(true);

      const etag = String(whole.headers.etag);
      expect((await t.as(listener).get(url, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
      const lastModified = String(whole.headers['last-modified']);
      expect((await t.as(listener).get(url, { headers: { 'if-modified-since': lastModified } })).statusCode).toBe(304);
      const head = await t.as(listener).inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(wav.length);

      expect((await t.as(null).get(url)).statusCode).toBe(401);
    });

    it('serves downloads from the bucket, whole and resumed', async () => {
      const whole = await t.as(admin).get(`/api/songs/${songId}/download`);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(wav)).toBe(true);
      const resumed = await t.as(admin).get(`/api/songs/${songId}/download`, { headers: { range: 'bytes=1000-' } });
      expect(resumed.statusCode).toBe(206);
      expect(resumed.rawPayload.equals(wav.subarray(1000))).toBe(true);
    });

    it('transcodes from the bucket with ffmpeg (the object streamed in, never a local file)', async () => {
      await requireFfmpeg();
      const response = await t.as(listener).get(`/media/audio/${key}?format=opus&bitrate=64`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('audio/ogg');
      expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
    });

    it('answers 404 for a blob another process removed from the bucket since it was cached', async () => {
      const gone = 'f'.repeat(64) + '.wav';
      await (await store.stage('audio', toneWav(990))).commit(gone);
      expect((await t.as(listener).get(`/media/audio/${gone}`)).statusCode).toBe(200);
      await (await createBlobStore(t.config)).delete('audio', gone);

      const answer = await t.as(listener).get(`/media/audio/${gone}`);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ error: { code: ErrorCodes.notFound } });
      expect(await store.statCached('audio', gone)).toBeNull();
    });

    it('deletes the object from the bucket with the song', async () => {
      const id = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Short Lived'), audio: toneWav(440) });
      const row = await t.db.selectFrom('songs').select('audio_key').where('id', '=', id).executeTakeFirstOrThrow();
      expect(await store.stat('audio', row.audio_key)).not.toBeNull();

      expect((await t.as(admin).delete(`/api/songs/${id}`)).statusCode).toBe(200);

      expect(await store.stat('audio', row.audio_key)).toBeNull();
      expect(await collect(store.list('audio'))).not.toContain(row.audio_key);
    });

    it('sweeps unreferenced objects past the grace period at start-up, and keeps referenced and recent ones', async () => {
      const orphan = 'a'.repeat(64) + '.wav';
      const recent = 'b'.repeat(64) + '.wav';
      await (await store.stage('audio', toneWav(700))).commit(orphan);
      await (await store.stage('audio', toneWav(710))).commit(recent);
      // The start-up sweep keeps what was committed in the last 10 minutes: make the orphan older than that.
      const aged = await createBlobStore(t.config);
      await backdate(t.config, orphan);
      // A killed upload's staged file, as old as the orphan (on PostgreSQL a younger one may be another instance's).
      const pending = await store.stage('audio', Buffer.from('killed upload'));
      const longAgo = new Date(Date.now() - SWEEP_GRACE_MS - 60_000);
      await utimes(pending.tempPath, longAgo, longAgo);

      await prepareCatalogueStorage({
        db: t.db,
        dialect: t.dialect,
        store: aged,
        demo: false,
        log: silent,
        catalogue: t.catalogue,
      });

      expect(await aged.stat('audio', orphan)).toBeNull();
      expect(await aged.stat('audio', recent)).not.toBeNull();
      expect(await aged.stat('audio', key)).not.toBeNull();
      expect(await filesUnder(`${t.dataDir}/blobs/tmp`)).not.toContain(pending.tempPath.split('/').pop());
    });

    it('with S3_PRESIGN=1 redirects a GET to a signed URL that answers the bytes and ranges', async () => {
      await t.withApp({ env: { ...(await freshBucketEnv(s3)), S3_PRESIGN: '1' } }, async (p) => {
        const padmin = await makeAdmin(p);
        const id = await makeSong(p, padmin, { artistId: await makeArtist(p, padmin, 'Signed'), audio: wav });
        const row = await p.db.selectFrom('songs').select('audio_key').where('id', '=', id).executeTakeFirstOrThrow();
        const url = `/media/audio/${row.audio_key}`;

        expect((await p.as(null).get(url)).statusCode).toBe(401);
        expect((await p.as(padmin).get('/media/audio/' + 'c'.repeat(64) + '.wav')).statusCode).toBe(404);
        const redirect = await p.as(padmin).get(url);
        expect(redirect.statusCode).toBe(302);
        expect(redirect.headers['cache-control']).toBe('no-store');
        const location = String(redirect.headers.location);
        expect(location.startsWith(s3.endpoint)).toBe(true);

        const whole = await fetch(location);
        expect(whole.status).toBe(200);
        expect(whole.headers.get('content-type')).toBe('audio/wav');
        expect(Buffer.from(await whole.arrayBuffer()).equals(wav)).toBe(true);
        const part = await fetch(location, { headers: { range: 'bytes=44-143' } });
        expect(part.status).toBe(206);
        expect(Buffer.from(await part.arrayBuffer()).equals(wav.subarray(44, 144))).toBe(true);
        // HEAD is answered here: a presigned URL is signed for GET only. Images are served as they are.
        expect((await p.as(padmin).inject({ method: 'HEAD', url })).statusCode).toBe(200);
        const image = await p.db.selectFrom('songs').select('image_key').where('id', '=', id).executeTakeFirstOrThrow();
        expect((await p.as(null).get(`/media/images/${String(image.image_key)}?w=64`)).statusCode).toBe(200);
      });
    });
  },
);

/** Writes the store's time metadata of an audio object 20 minutes into the past (what a commit long ago leaves). */
async function backdate(config: Config, key: string): Promise<void> {
  if (config.storage.kind !== 's3') throw new Error('backdate needs STORAGE=s3');
  const client = s3ClientFor(config.storage);
  const name = `audio/${key}`;
  try {
    await client.send(
      new CopyObjectCommand({
        Bucket: config.storage.bucket,
        Key: name,
        CopySource: `${config.storage.bucket}/${name}`,
        MetadataDirective: 'REPLACE',
        Metadata: { 'tonearm-mtime': String(Date.now() - 20 * 60_000) },
      }),
    );
  } finally {
    client.destroy();
  }
}
