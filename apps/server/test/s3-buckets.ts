/** Buckets of their own on the test S3 server, so suites that share one server never see each other's objects. */
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { loadConfig, type S3StorageConfig } from '../src/config.js';
import { s3ClientFor } from '../src/storage/s3-blob-store.js';
import type { TestS3Server } from './s3-server.js';

/** Creates an empty bucket on `server` and answers the env that points a server at it (STORAGE=s3 and the rest). */
export async function freshBucketEnv(server: TestS3Server): Promise<Record<string, string>> {
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  const client = s3ClientFor(loadConfig(server.env).storage as S3StorageConfig);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return { ...server.env, S3_BUCKET: bucket };
}
