import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';

/**
 * The blob store the configuration names (STORAGE): `${DATA_DIR}/blobs` on the local disk, or the S3 bucket with
 * uploads staged in `${DATA_DIR}/blobs/tmp`. The server and the CLIs use it, so all write to the same place. The S3 store
 * (and the AWS SDK) is loaded only when it is the one configured.
 */
export async function createBlobStore(config: Pick<Config, 'dataDir' | 'storage'>): Promise<BlobStore> {
  const root = path.join(config.dataDir, 'blobs');
  if (config.storage.kind === 'local') return new LocalBlobStore(root);
  const { S3BlobStore, s3ClientFor } = await import('./s3-blob-store.js');
  return new S3BlobStore({
    client: s3ClientFor(config.storage),
    bucket: config.storage.bucket,
    tmpDir: path.join(root, 'tmp'),
  });
}
