import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { describeBlobStoreContract } from '../../test/blob-store-contract.js';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { createBlobStore } from './create-blob-store.js';
import { S3BlobStore, s3ClientFor } from './s3-blob-store.js';

let s3: TestS3Server;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3Server();
  client = s3ClientFor(loadConfig(s3.env).storage as Parameters<typeof s3ClientFor>[0]);
});

afterAll(async () => {
  client.destroy();
  await s3.stop();
});

/** A store on a bucket of its own, so tests never see each other's objects. */
async function freshStore(): Promise<{ store: S3BlobStore; tmpDir: string; bucket: string }> {
  const bucket = `b-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const tmpDir = await mkdtemp(path.join(tmpdir(), 'tonearm-s3-staging-'));
  return { store: new S3BlobStore({ client, bucket, tmpDir }), tmpDir, bucket };
}

describeBlobStoreContract('S3BlobStore on s3rver', async () => {
  const { store, tmpDir, bucket } = await freshStore();
  return {
    store,
    async backdate(kind, key, ageMs) {
      // What a commit's touch writes, set to the past.
      const name = `${kind}/${key}`;
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: name,
          CopySource: `${bucket}/${name}`,
          MetadataDirective: 'REPLACE',
          Metadata: { 'tonearm-mtime': String(Date.now() - ageMs) },
        }),
      );
    },
    tempFiles: () => readdir(tmpDir).catch(() => []),
    cleanup: () => rm(tmpDir, { recursive: true, force: true }),
  };
});

describe('S3BlobStore', () => {
  it('keeps objects as <kind>/<key> and has no local paths', async () => {
    const { store, tmpDir, bucket } = await freshStore();
    try {
      await (await store.stage('audio', Buffer.from('layout'))).commit('ab12.wav');
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'audio/ab12.wav' }));
      expect(head.ContentLength).toBe(6);
      expect(store.localPath()).toBeNull();
    } finally {
      await rm(tmpDir, { recursive: true, force: true });
    }
  });

  it('lists past one page of ListObjectsV2', async () => {
    const { store, tmpDir, bucket } = await freshStore();
    try {
      const keys = Array.from({ length: 1003 }, (_, i) => `k${String(i).padStart(4, '0')}.wav`);
      // Straight PUTs in parallel batches: staged commits one by one would take too long for a unit test.
      for (let i = 0; i < keys.length; i += 100) {
        await Promise.all(
          keys
            .slice(i, i + 100)
            .map((key) => client.send(new PutObjectCommand({ Bucket: bucket, Key: `audio/${key}`, Body: key }))),
        );
      }
      const listed: string[] = [];
      for await (const key of store.list('audio')) listed.push(key);
      expect(listed.sort()).toEqual(keys);
    } finally {
      await rm(tmpDir, { recursive: true, force: true });
    }
  });

  it('presigns a GET URL that answers the bytes, a Range, and the given content type', async () => {
    const { store, tmpDir } = await freshStore();
    try {
      await (await store.stage('audio', Buffer.from('signed bytes'))).commit('sig.mp3');
      const url = await store.presign('audio', 'sig.mp3', {
        expiresInSeconds: 60,
        contentType: 'audio/mpeg',
        cacheControl: 'private, max-age=60',
      });
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mpeg');
      expect(await whole.text()).toBe('signed bytes');
      const part = await fetch(url, { headers: { range: 'bytes=7-11' } });
      expect(part.status).toBe(206);
      expect(await part.text()).toBe('bytes');
    } finally {
      await rm(tmpDir, { recursive: true, force: true });
    }
  });

  it('is what createBlobStore makes for STORAGE=s3, staging under DATA_DIR/blobs/tmp', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-s3-data-'));
    try {
      const store = await createBlobStore(loadConfig({ ...s3.env, DATA_DIR: dataDir }));
      expect(store).toBeInstanceOf(S3BlobStore);
      const staged = await store.stage('image', Buffer.from('factory'));
      expect(path.dirname(staged.tempPath)).toBe(path.join(dataDir, 'blobs', 'tmp'));
      await staged.commit('factory.png');
      expect(await text(store.openRead('image', 'factory.png'))).toBe('factory');
      await store.delete('image', 'factory.png');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
