import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore, s3ClientFor } from './s3-blob-store.js';

/**
 * The blob store the configuration names (STORAGE): `${DATA_DIR}/blobs` on the local disk, or the S3 bucket with
 * uploads staged in `${DATA_DIR}/blobs/tmp`. The server and the import CLI use it, so both write to the same place.
 */
export function createBlobStore(config: Pick<Config, 'dataDir' | 'storage'>): BlobStore {
  const root = path.join(config.dataDir, 'blobs');
  if (config.storage.kind === 'local') return new LocalBlobStore(root);
  return new S3BlobStore({
    client: s3ClientFor(config.storage),
    bucket: config.storage.bucket,
    tmpDir: path.join(root, 'tmp'),
  });
}
