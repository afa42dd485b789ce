import { close, open } from 'node:fs';
import type { BlobStat } from '../../storage/blob-store.js';

/** One open blob file, shared by the requests reading it. */
export interface OpenFile {
  readonly fd: number;
  readonly stat: BlobStat;
  readonly openedAt: number;
  users: number;
  /** Out of the cache: closed as soon as its last reader is done. */
  retired: boolean;
}

const noop = () => undefined;

/**
 * Open file descriptors of blobs, kept for a few seconds and shared by concurrent requests: a Range request then costs
 * one read instead of open, read and close (each a round trip through libuv's thread pool). Safe because a blob key
 * names fixed bytes: a file is reused only for the very `stat` answer it was opened for, so a blob forgotten by the
 * store (deleted or committed again) is opened afresh. Entries expire `ttlMs` after opening, and a sweep closes
 * expired ones nobody reads, so a deleted blob's disk space is freed within about twice that.
 */
export class OpenFiles {
  private readonly files = new Map<string, OpenFile>();
  private readonly sweeper: NodeJS.Timeout;
  /** Opens under way, by path, with who waits for each. */
  private readonly opening = new Map<
    string,
    {
      stat: BlobStat;
      waiters: { onOpen: (file: OpenFile) => void; onError: (error: NodeJS.ErrnoException) => void }[];
    }
  >();

  constructor(
    private readonly maxFiles = 256,
    private readonly ttlMs = 10_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => {
      this.sweep();
    }, ttlMs);
    this.sweeper.unref();
  }

  /** The open file of `path` as of `stat` (a statCached answer); call release() once done with it. */
  acquire(
    path: string,
    stat: BlobStat,
    onOpen: (file: OpenFile) => void,
    onError: (error: NodeJS.ErrnoException) => void,
  ): void {
    const cached = this.files.get(path);
    if (cached?.stat === stat && this.clock() - cached.openedAt < this.ttlMs) {
      cached.users += 1;
      onOpen(cached);
      return;
    }
    // Requests that arrive while the same file (as of the same stat) is being opened wait for that one open.
    const pending = this.opening.get(path);
    if (pending?.stat === stat) {
      pending.waiters.push({ onOpen, onError });
      return;
    }
    const waiters = [{ onOpen, onError }];
    this.opening.set(path, { stat, waiters });
    open(path, 'r', (error, fd) => {
      if (this.opening.get(path)?.waiters === waiters) this.opening.delete(path);
      if (error) {
        for (const waiter of waiters) waiter.onError(error);
        return;
      }
      const file: OpenFile = { fd, stat, openedAt: this.clock(), users: waiters.length, retired: false };
      const replaced = this.files.get(path);
      if (replaced !== undefined) this.retire(replaced);
      this.files.set(path, file);
      if (this.files.size > this.maxFiles) this.evictOldest();
      for (const waiter of waiters) waiter.onOpen(file);
    });
  }

  release(file: OpenFile): void {
    file.users -= 1;
    if (file.retired && file.users === 0) close(file.fd, noop);
  }

  /** Number of files held open (for tests and diagnostics). */
  get size(): number {
    return this.files.size;
  }

  /** Closes every file once its readers are done, and stops the sweep (app shutdown). */
  closeAll(): void {
    clearInterval(this.sweeper);
    for (const file of this.files.values()) this.retire(file);
    this.files.clear();
  }

  private sweep(): void {
    const now = this.clock();
    for (const [path, file] of this.files) {
      if (now - file.openedAt >= this.ttlMs) {
        this.files.delete(path);
        this.retire(file);
      }
    }
  }

  private evictOldest(): void {
    const oldest = this.files.entries().next();
    if (oldest.done === true) return;
    this.files.delete(oldest.value[0]);
    this.retire(oldest.value[1]);
  }

  private retire(file: OpenFile): void {
    file.retired = true;
    if (file.users === 0) close(file.fd, noop);
  }
}
