import { createReadStream } from 'node:fs';
import { mkdir, open, opendir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertValidBlobKey, isValidBlobKey } from './blob-key.js';
import type { BlobKind, BlobStat, BlobStore, ByteRange, StagedBlob } from './blob-store.js';
import { StatCache } from './stat-cache.js';
import { isMissing, READ_HIGH_WATER_MARK, sweepTempDir, writeTempFile } from './temp-files.js';

export { READ_HIGH_WATER_MARK } from './temp-files.js';

/**
 * Blobs on the local disk:
 * `<root>/audio/<first two chars of key>/<key>`, `<root>/image/<..>/<key>`, and staged bytes in `<root>/tmp/`. The
 * temp directory sits under the same root, hence on the same filesystem, so a commit is an atomic rename.
 */
export class LocalBlobStore implements BlobStore {
  readonly rootDir: string;
  private readonly tmpDir: string;
  private readonly stats = new StatCache();

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir);
    this.tmpDir = path.join(this.rootDir, 'tmp');
  }

  async stage(kind: BlobKind, source: Readable | Buffer): Promise<StagedBlob> {
    // flush: the bytes reach the disk (fsync) before a rename can make them visible under a real key.
    const { tempPath, size } = await writeTempFile(this.tmpDir, kind, source, true);
    return new LocalStagedBlob(this, kind, tempPath, size);
  }

  async stat(kind: BlobKind, key: string): Promise<BlobStat | null> {
    if (!isValidBlobKey(key)) return null;
    try {
      const info = await stat(this.pathOf(kind, key));
      return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
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

  localPath(kind: BlobKind, key: string): string {
    return this.pathOf(kind, key);
  }

  openRead(kind: BlobKind, key: string, range?: ByteRange): Readable {
    return createReadStream(this.pathOf(kind, key), {
      highWaterMark: READ_HIGH_WATER_MARK,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  async delete(kind: BlobKind, key: string): Promise<void> {
    const file = this.pathOf(kind, key);
    await rm(file, { force: true });
    // After the removal: a statCached racing with it may have refilled the entry from the file about to go.
    this.forget(kind, key);
  }

  async *list(kind: BlobKind): AsyncIterable<string> {
    const kindDir = path.join(this.rootDir, kind);
    const shards = await openDirOrNull(kindDir);
    if (!shards) return;
    for await (const shard of shards) {
      if (!shard.isDirectory()) continue;
      const files = await openDirOrNull(path.join(kindDir, shard.name));
      if (!files) continue;
      for await (const file of files) {
        if (file.isFile() && isValidBlobKey(file.name)) yield file.name;
      }
    }
  }

  /** Removes staged files older than `olderThanMs` (see sweepTempDir). */
  async sweepTemp(olderThanMs: number): Promise<number> {
    return sweepTempDir(this.tmpDir, olderThanMs);
  }

  pathOf(kind: BlobKind, key: string): string {
    return path.join(this.rootDir, this.relativePath(kind, key));
  }

  /** A blob's path under the root, with `/` separators: `<kind>/<first two chars of key>/<key>`. */
  relativePath(kind: BlobKind, key: string): string {
    assertValidBlobKey(key);
    return `${kind}/${key.slice(0, 2)}/${key}`;
  }
}

class LocalStagedBlob implements StagedBlob {
  private state: 'staged' | 'committed' | 'discarded' = 'staged';

  constructor(
    private readonly store: LocalBlobStore,
    readonly kind: BlobKind,
    readonly tempPath: string,
    readonly size: number,
  ) {}

  async commit(key: string): Promise<boolean> {
    if (this.state !== 'staged') throw new Error(`This staged blob was already ${this.state}`);
    const target = this.store.pathOf(this.kind, key);
    const dir = path.dirname(target);
    await mkdir(dir, { recursive: true });
    // Same key means same content: keep the blob readers may be streaming right now. Touching it makes a sweep of
    // unreferenced blobs (which spares recent ones) leave it alone until the caller's row references it again.
    if (await touchIfExists(target)) {
      this.state = 'committed';
      // The blob's time changed: what statCached remembered is stale.
      this.store.forget(this.kind, key);
      await rm(this.tempPath, { force: true });
      return false;
    }
    // Two uploads of the same content racing here both rename; the second replaces identical bytes, which is harmless.
    await rename(this.tempPath, target);
    this.store.forget(this.kind, key);
    this.state = 'committed';
    await syncDirectory(dir);
    return true;
  }

  async discard(): Promise<void> {
    if (this.state !== 'staged') return;
    this.state = 'discarded';
    await rm(this.tempPath, { force: true });
  }
}

async function touchIfExists(file: string): Promise<boolean> {
  const now = new Date();
  try {
    await utimes(file, now, now);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

async function openDirOrNull(dir: string) {
  try {
    return await opendir(dir);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** Makes the rename itself durable, so a committed DB row never outlives its blob after a power loss. */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}
