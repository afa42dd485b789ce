import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type HeadObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3StorageConfig } from '../config.js';
import { assertValidBlobKey, isValidBlobKey } from './blob-key.js';
import type { BlobKind, BlobStat, BlobStore, ByteRange, PresignOptions, StagedBlob } from './blob-store.js';
import { StatCache } from './stat-cache.js';
import { sweepTempDir, writeTempFile } from './temp-files.js';

/**
 * Object metadata holding the blob's time in milliseconds. S3 sets LastModified on every write, but S3-compatible
 * servers differ on whether a copy onto itself (the "touch" of a commit to an existing key) changes it; this value is
 * written by every upload and touch, so the sweep's age check reads the same thing everywhere.
 */
const MTIME_METADATA = 'tonearm-mtime';
/** Parts of a multipart upload: S3's minimum, so an upload holds at most UPLOAD_QUEUE × 5 MiB in memory. */
const UPLOAD_PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_QUEUE = 2;

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Local directory for staged uploads (inspected by ffprobe and file-type before commit). */
  tmpDir: string;
}

/** A stored blob that is not there (any more): the code matches a missing file's, so readers handle both alike. */
export class BlobNotFoundError extends Error {
  readonly code = 'ENOENT';

  constructor(kind: BlobKind, key: string) {
    super(`No ${kind} blob ${key} in the bucket`);
    this.name = 'BlobNotFoundError';
  }
}

/** The SDK client for STORAGE=s3. Checksums only when the API requires them: S3-compatible servers vary. */
export function s3ClientFor(config: S3StorageConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Blobs in an S3 bucket, as objects `<kind>/<key>` (docs/design.md, "S3 storage"). Uploads are staged in a local temp
 * file (for inspection, and so a failed upload never reaches the bucket); `commit` streams that file to the bucket in
 * parts. A commit to an existing key keeps the object and refreshes its time with a copy onto itself.
 */
export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly tmpDir: string;
  private readonly stats = new StatCache();

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.tmpDir = options.tmpDir;
  }

  async stage(kind: BlobKind, source: Readable | Buffer): Promise<StagedBlob> {
    // No fsync: the bytes become visible only once uploaded, which S3 makes durable.
    const { tempPath, size } = await writeTempFile(this.tmpDir, kind, source, false);
    return new S3StagedBlob(this, kind, tempPath, size);
  }

  async stat(kind: BlobKind, key: string): Promise<BlobStat | null> {
    if (!isValidBlobKey(key)) return null;
    const head = await this.head(kind, key);
    return head === null ? null : statOf(head);
  }

  async statCached(kind: BlobKind, key: string): Promise<BlobStat | null> {
    return this.stats.get(kind, key, () => this.stat(kind, key));
  }

  rememberedStat(kind: BlobKind, key: string): BlobStat | undefined {
    return this.stats.peek(kind, key);
  }

  forget(kind: BlobKind, key: string): void {
    this.stats.forget(kind, key);
  }

  localPath(): null {
    return null;
  }

  /**
   * The object's bytes (a GET with a Range header for `range`). The request starts at once; a missing object makes
   * the stream fail with BlobNotFoundError before any byte.
   */
  openRead(kind: BlobKind, key: string, range?: ByteRange): Readable {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: objectKey(kind, key),
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    const abort = new AbortController();
    const body = this.client.send(command, { abortSignal: abort.signal }).then(
      (output) => output.Body as Readable,
      (error: unknown) => {
        throw isNotFound(error) ? new BlobNotFoundError(kind, key) : error;
      },
    );
    // A reader that goes before the first read never awaits `body`: its failure must not become unhandled.
    body.catch(() => undefined);
    async function* bytes(): AsyncGenerator<Buffer> {
      yield* await body;
    }
    const stream = Readable.from(bytes(), { objectMode: false });
    // However the stream ends (read to the end, failed, or destroyed by a reader that went away), the request is done.
    stream.once('close', () => {
      abort.abort();
      body.then(
        (source) => source.destroy(),
        () => undefined,
      );
    });
    return stream;
  }

  async delete(kind: BlobKind, key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey(kind, key) }));
    this.forget(kind, key);
  }

  async *list(kind: BlobKind): AsyncIterable<string> {
    const prefix = `${kind}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(prefix.length);
        if (key !== undefined && isValidBlobKey(key)) yield key;
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  sweepTemp(olderThanMs: number): Promise<number> {
    return sweepTempDir(this.tmpDir, olderThanMs);
  }

  /** A GET URL of the object signed for `expiresInSeconds`, answered with the given Content-Type and Cache-Control. */
  async presign(kind: BlobKind, key: string, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: objectKey(kind, key),
      ResponseContentType: options.contentType,
      ResponseCacheControl: options.cacheControl,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  /** HeadObject, or null when the object is absent. */
  async head(kind: BlobKind, key: string): Promise<HeadObjectCommandOutput | null> {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey(kind, key) }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Streams a local file to the object in parts (one PUT when it is small), never holding the whole in memory. */
  async upload(kind: BlobKind, key: string, file: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: objectKey(kind, key),
        Body: createReadStream(file),
        Metadata: { [MTIME_METADATA]: String(Date.now()) },
      },
      partSize: UPLOAD_PART_BYTES,
      queueSize: UPLOAD_QUEUE,
    });
    await upload.done();
  }

  /**
   * Marks an existing object as just written (see MTIME_METADATA), keeping its bytes and content type. False when it
   * is gone (a sweep removed it since it was looked up).
   */
  async touch(kind: BlobKind, key: string, head: HeadObjectCommandOutput): Promise<boolean> {
    const name = objectKey(kind, key);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: name,
          CopySource: `${this.bucket}/${name}`,
          MetadataDirective: 'REPLACE',
          ...(head.ContentType === undefined ? {} : { ContentType: head.ContentType }),
          Metadata: { ...head.Metadata, [MTIME_METADATA]: String(Date.now()) },
        }),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}

class S3StagedBlob implements StagedBlob {
  private state: 'staged' | 'committed' | 'discarded' = 'staged';

  constructor(
    private readonly store: S3BlobStore,
    readonly kind: BlobKind,
    readonly tempPath: string,
    readonly size: number,
  ) {}

  async commit(key: string): Promise<boolean> {
    if (this.state !== 'staged') throw new Error(`This staged blob was already ${this.state}`);
    assertValidBlobKey(key);
    // Same key means same content: keep the object readers may be streaming, and make the sweep spare it.
    const existing = await this.store.head(this.kind, key);
    const kept = existing !== null && (await this.store.touch(this.kind, key, existing));
    // Two uploads of the same content racing here both write; the second replaces identical bytes, harmlessly.
    if (!kept) await this.store.upload(this.kind, key, this.tempPath);
    this.state = 'committed';
    this.store.forget(this.kind, key);
    await rm(this.tempPath, { force: true });
    return !kept;
  }

  async discard(): Promise<void> {
    if (this.state !== 'staged') return;
    this.state = 'discarded';
    await rm(this.tempPath, { force: true });
  }
}

function objectKey(kind: BlobKind, key: string): string {
  assertValidBlobKey(key);
  return `${kind}/${key}`;
}

function statOf(head: HeadObjectCommandOutput): BlobStat {
  const written = Number(head.Metadata?.[MTIME_METADATA]);
  return {
    size: head.ContentLength ?? 0,
    mtimeMs: Number.isFinite(written) && written > 0 ? written : (head.LastModified?.getTime() ?? 0),
  };
}

function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  const name = (error as Error | null)?.name;
  return status === 404 || name === 'NotFound' || name === 'NoSuchKey';
}
