import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStat } from '../../storage/blob-store.js';

/** A finished transcode on disk. `stat` is one object per entry: OpenFiles reuses an open file only for it. */
export interface CachedTranscode {
  readonly path: string;
  readonly stat: BlobStat;
}

const TEMP_SUFFIX = '.tmp';

/**
 * Finished transcodes on disk, at most `maxBytes` of them, evicted least recently used. A transcode is written under
 * a temporary name (tempPathFor) and only `add` renames it to its name, so a half transcode (killed, failed, or cut
 * by a crash) is never found here; `open` removes such leftovers. Recency lives in memory (a Map in use order); after
 * a restart it starts from the files' modification times.
 */
export class TranscodeCache {
  private readonly entries = new Map<string, CachedTranscode>();
  private bytes = 0;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** Creates the directory, removes temporary leftovers, and indexes what is there, oldest first. */
  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const found: { name: string; stat: BlobStat }[] = [];
    for (const name of await readdir(this.dir)) {
      const file = path.join(this.dir, name);
      if (name.endsWith(TEMP_SUFFIX)) await unlink(file).catch(() => undefined);
      else found.push({ name, stat: await statOf(file) });
    }
    found.sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs);
    for (const entry of found) this.remember(entry.name, entry.stat);
    this.evict();
  }

  /** The cached transcode called `name`, now the most recently used; null when there is none. */
  lookup(name: string): CachedTranscode | null {
    const entry = this.entries.get(name);
    if (entry === undefined) return null;
    this.entries.delete(name);
    this.entries.set(name, entry);
    return entry;
  }

  /** A fresh temporary path for a transcode that will be called `name`. */
  tempPathFor(name: string): string {
    return path.join(this.dir, `${name}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  }

  /** Renames a complete transcode into the cache under `name`, then evicts the least recently used past the limit. */
  async add(name: string, tempPath: string): Promise<void> {
    const file = path.join(this.dir, name);
    await rename(tempPath, file);
    this.forget(name);
    this.remember(name, await statOf(file));
    this.evict(name);
  }

  /** Drops an entry whose file is gone (removed by hand, say). */
  forget(name: string): void {
    const entry = this.entries.get(name);
    if (entry === undefined) return;
    this.entries.delete(name);
    this.bytes -= entry.stat.size;
  }

  /** Bytes of the cached transcodes. */
  get size(): number {
    return this.bytes;
  }

  private remember(name: string, fileStat: BlobStat): void {
    this.entries.set(name, { path: path.join(this.dir, name), stat: fileStat });
    this.bytes += fileStat.size;
  }

  /**
   * Removes the least recently used until the cache fits, but never `keep` (the transcode just added, which its
   * listeners are about to read even when it alone is larger than the limit; the next add evicts it). Readers that
   * have a file open keep reading it: unlinking only frees the space once they are done.
   */
  private evict(keep?: string): void {
    for (const [name, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || name === keep) return;
      this.forget(name);
      unlink(entry.path).catch(() => undefined);
    }
  }
}

async function statOf(file: string): Promise<BlobStat> {
  const { size, mtimeMs } = await stat(file);
  return { size, mtimeMs };
}
