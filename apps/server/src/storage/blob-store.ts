import type { Readable } from 'node:stream';

/** What is stored: audio files, and images (covers, artist and profile photos, their thumbnails). */
export type BlobKind = 'audio' | 'image';

export interface BlobStat {
  size: number;
  mtimeMs: number;
}

/**
 * Content-addressed blob storage (DESIGN §6, §8). Keys are chosen by the caller (content hashes plus a suffix), so a
 * stored blob never changes. Writes go to a temporary name first and become visible only by `commit`, so a crash
 * leaves no half-written blob under a real key.
 */
export interface BlobStore {
  /** Streams `source` to a temporary location; nothing is visible under `key` until the returned handle commits. */
  stage(kind: BlobKind, source: Readable | Buffer): Promise<StagedBlob>;
  /** Whether a committed blob exists, and its size. */
  stat(kind: BlobKind, key: string): Promise<BlobStat | null>;
  /** A local file path for zero-copy serving, or null when the store is remote. */
  localPath(kind: BlobKind, key: string): string | null;
  openRead(kind: BlobKind, key: string, range?: { start: number; end: number }): Readable;
  delete(kind: BlobKind, key: string): Promise<void>;
  /** Every committed key of a kind (for the start-up sweep of unreferenced blobs). */
  list(kind: BlobKind): AsyncIterable<string>;
  /** Removes temporary files older than `olderThanMs` left by a crash. */
  sweepTemp(olderThanMs: number): Promise<number>;
}

export interface StagedBlob {
  /** Bytes written. */
  readonly size: number;
  /** Temporary local path of the staged bytes (for inspection before commit). */
  readonly tempPath: string;
  /** Moves the staged bytes to `key` (atomic rename). Committing to an existing key keeps the existing blob. */
  commit(key: string): Promise<void>;
  /** Removes the staged bytes; safe to call after commit or twice. */
  discard(): Promise<void>;
}
