import type { BlobKind, BlobStore } from '../storage/blob-store.js';
import type { BlobReferencesRepository } from './blob-references.repository.js';

/**
 * Committed blobs younger than this are kept even when unreferenced: another process (a second instance, or
 * `npm run import` running beside the server) may have committed them a moment ago and be about to write its row.
 */
export const SWEEP_GRACE_MS = 10 * 60 * 1000;

export interface SweepResult {
  tempFiles: number;
  audio: number;
  images: number;
}

export interface SweepOptions {
  graceMs?: number;
  /**
   * Temp files younger than this are kept (default 0: all go, safe while no upload runs). With several instances on
   * one store another instance may be staging an upload right now: the start-up sweep then keeps young ones.
   */
  tempGraceMs?: number;
  now?: () => number;
}

/** `<sha256>.<ext>` and its thumbnails `<sha256>-<width>.webp` share the leading hash. */
const HASH_PREFIX = /^([0-9a-f]{64})[.-]/;

/**
 * The start-up sweep (DESIGN §6): removes every temp file left by a crash or a killed upload, then every committed
 * blob no row references (older than the grace period). An image counts as referenced together with its thumbnails.
 * Run before the server accepts requests, and by one instance at a time (startup.ts takes an advisory lock).
 *
 * The grace period is what keeps a blob another instance has just committed but not yet referenced: a commit sets the
 * blob's time (a new blob is written then, an existing one is touched), so such a blob is young for `graceMs`, far
 * longer than an upload takes from commit to its row. The one window left is a commit that touches an old orphan
 * between this sweep's stat and its delete (milliseconds); the upload's row then points at a missing blob.
 */
export async function sweepBlobs(
  store: BlobStore,
  references: BlobReferencesRepository,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const graceMs = options.graceMs ?? SWEEP_GRACE_MS;
  const now = options.now ?? Date.now;
  const tempFiles = await store.sweepTemp(options.tempGraceMs ?? 0);

  const audioKeys = await references.audioKeys();
  const audio = await sweepKind(store, 'audio', (key) => audioKeys.has(key), now() - graceMs);

  const imageKeys = await references.imageKeys();
  const imageHashes = new Set([...imageKeys].map((key) => HASH_PREFIX.exec(key)?.[1]).filter((h) => h !== undefined));
  const images = await sweepKind(
    store,
    'image',
    (key) => {
      if (imageKeys.has(key)) return true;
      const hash = HASH_PREFIX.exec(key)?.[1];
      return hash !== undefined && imageHashes.has(hash);
    },
    now() - graceMs,
  );
  return { tempFiles, audio, images };
}

async function sweepKind(
  store: BlobStore,
  kind: BlobKind,
  isReferenced: (key: string) => boolean,
  cutoffMs: number,
): Promise<number> {
  let removed = 0;
  for await (const key of store.list(kind)) {
    if (isReferenced(key)) continue;
    const stat = await store.stat(kind, key);
    if (stat === null || stat.mtimeMs > cutoffMs) continue;
    await store.delete(kind, key);
    removed += 1;
  }
  return removed;
}
