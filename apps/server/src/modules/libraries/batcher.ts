export interface BatcherOptions {
  /** A batch is handed over as soon as it holds this many items. */
  size: number;
  /** …or this long after its first item arrived, whichever comes first. */
  maxWaitMs: number;
}

/**
 * Collects items and hands them to `write` in batches, one batch at a time, in arrival order. `add` resolves once the
 * item's batch is written when the item filled it, at once otherwise; so producers that await `add` wait while a full
 * batch is being written, and no more than about two batches are ever held. `write` must not throw: it reports
 * failures itself.
 */
export class Batcher<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly options: BatcherOptions,
  ) {}

  async add(item: T): Promise<void> {
    this.pending.push(item);
    if (this.pending.length >= this.options.size) {
      await this.flush();
    } else {
      this.timer ??= setTimeout(() => void this.flush(), this.options.maxWaitMs);
    }
  }

  /** Hands over what is pending now; resolves when it, and every batch before it, is written. */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }
}
