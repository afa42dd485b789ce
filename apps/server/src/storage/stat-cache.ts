import type { BlobKind, BlobStat } from './blob-store.js';

/** Entries kept (about 150 bytes each); past it the least recently added one goes. */
const STAT_CACHE_MAX_ENTRIES = 10_000;

/** The memory behind a store's `statCached`: `<kind>/<key>` → stat of a committed blob. */
export class StatCache {
  private readonly stats = new Map<string, BlobStat>();

  /** The remembered stat, else `lookup`'s answer (remembered when the blob exists). */
  async get(kind: BlobKind, key: string, lookup: () => Promise<BlobStat | null>): Promise<BlobStat | null> {
    const cached = this.stats.get(`${kind}/${key}`);
    if (cached !== undefined) return cached;
    const found = await lookup();
    if (found !== null) {
      if (this.stats.size >= STAT_CACHE_MAX_ENTRIES) {
        const oldest = this.stats.keys().next();
        if (oldest.done !== true) this.stats.delete(oldest.value);
      }
      this.stats.set(`${kind}/${key}`, found);
    }
    return found;
  }

  /** The remembered stat, or undefined: no lookup. */
  peek(kind: BlobKind, key: string): BlobStat | undefined {
    return this.stats.get(`${kind}/${key}`);
  }

  forget(kind: BlobKind, key: string): void {
    this.stats.delete(`${kind}/${key}`);
  }
}
