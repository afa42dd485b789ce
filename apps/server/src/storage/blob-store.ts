import type { Readable } from 'node:stream';

export { InvalidBlobKeyError, isValidBlobKey } from './blob-key.js';

/** What is stored: audio files, and images (covers, artist and profile photos, their thumbnails). */
export const BLOB_KINDS = ['audio', 'image'] as const;
export type BlobKind = (typeof BLOB_KINDS)[number];

export interface BlobStat {
  size: number;
  mtimeMs: number;
}

/** An inclusive byte range, as HTTP Range uses it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Content-addressed blob storage (DESIGN §6, §8). Keys are chosen by the caller (content hashes plus a suffix), so a
 * stored blob never changes. Writes go to a temporary name first and become visible only by `commit`, so a crash
 * leaves no half-written blob under a real key.
 *
 * Keys must satisfy `isValidBlobKey` ([a-z0-9._-], starting with a letter or digit). `stat` answers null for an
 * invalid key (it names no blob, so a route answers 404); the other methods that take a key throw
 * `InvalidBlobKeyError`.
 */
export interface BlobStore {
  /**
   * Streams `source` to a temporary location with backpressure; nothing is visible under any key until the returned
   * handle commits. If `source` fails (for instance a size guard aborts it), the temporary file is removed and the
   * promise rejects with the source's error.
   */
  stage(kind: BlobKind, source: Readable | Buffer): Promise<StagedBlob>;
  /** Whether a committed blob exists, and its size; null when absent or when the key is invalid. */
  stat(kind: BlobKind, key: string): Promise<BlobStat | null>;
  /**
   * `stat` answered from memory after the first time it found the blob, for the streaming hot path. A committed
   * blob only changes by `delete` or by a commit to its key (which refreshes its time); both forget the entry. Changes
   * made by another process are not seen here: a reader that finds the blob gone calls `forget`.
   */
  statCached(kind: BlobKind, key: string): Promise<BlobStat | null>;
  /** What `statCached` remembers of a blob, without a lookup: undefined when it has nothing yet. */
  rememberedStat(kind: BlobKind, key: string): BlobStat | undefined;
  /** Drops the memory of `statCached` for one blob. */
  forget(kind: BlobKind, key: string): void;
  /** A local file path for zero-copy serving, or null when the store is remote. */
  localPath(kind: BlobKind, key: string): string | null;
  /** Reads a committed blob, or the inclusive `range` of it. */
  openRead(kind: BlobKind, key: string, range?: ByteRange): Readable;
  /** Removes a committed blob; removing an absent one is not an error. */
  delete(kind: BlobKind, key: string): Promise<void>;
  /** Every committed key of a kind (for the start-up sweep of unreferenced blobs). */
  list(kind: BlobKind): AsyncIterable<string>;
  /** Removes temporary files older than `olderThanMs` left by a crash; answers how many were removed. */
  sweepTemp(olderThanMs: number): Promise<number>;
  /**
   * A URL from which anyone may GET the committed blob for a short while (S3 presigned URLs); absent when the store
   * has no such URLs (the local disk).
   */
  presign?(kind: BlobKind, key: string, options: PresignOptions): Promise<string>;
}

export interface PresignOptions {
  expiresInSeconds: number;
  /** The Content-Type and Cache-Control the URL is answered with. */
  contentType: string;
  cacheControl: string;
}

export interface StagedBlob {
  readonly kind: BlobKind;
  /** Bytes written. */
  readonly size: number;
  /** Temporary local path of the staged bytes (for inspection before commit). */
  readonly tempPath: string;
  /**
   * Moves the staged bytes to `key` (atomic rename, after the bytes were fsynced). Committing to an existing key keeps
   * the existing blob (same key, same content), refreshes its modification time (so an age-based sweep of
   * unreferenced blobs spares it) and discards the staged bytes. Answers true when this call created the blob, false
   * when it already existed. Throws after a previous commit or discard.
   */
  commit(key: string): Promise<boolean>;
  /** Removes the staged bytes; safe to call after commit or twice. */
  discard(): Promise<void>;
}
