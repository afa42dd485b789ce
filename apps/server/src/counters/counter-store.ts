import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import {
  createRateCountersRepository,
  type CounterHit,
  type RateCountersRepository,
} from './rate-counters.repository.js';

export type { CounterHit } from './rate-counters.repository.js';

/**
 * Fixed-window counters: a key's window starts with its first hit and lasts `windowMs`; the next hit after it starts a
 * new one. What the rate limits and the sign-in failure counts are kept in: in this process's memory, or in the
 * database so that every instance on it counts together (DatabaseCounterStore).
 */
export interface CounterStore {
  /** Counts a hit; answers the key's count in its window, this hit included. */
  hit(key: string, windowMs: number): Promise<CounterHit>;
  /** Counts a hit only while the key's window holds fewer than `max`; null, counting nothing, when it holds `max`. */
  hitBelow(key: string, max: number, windowMs: number): Promise<CounterHit | null>;
  /** Takes back one hit counted in the window `hit` answered, unless that window has ended meanwhile. */
  takeBack(key: string, hit: CounterHit): Promise<void>;
  /** The key's count and when its window ends; count 0 when no window runs. */
  read(key: string): Promise<CounterHit>;
  /** Forgets the key's count. */
  clear(key: string): Promise<void>;
}

/** Keys kept in memory before the least recently counted goes (about 100 bytes each). */
const MEMORY_MAX_KEYS = 100_000;

/** The counters of one process: for SQLite, whose server is one process by design. */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, CounterHit>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly maxKeys = MEMORY_MAX_KEYS,
  ) {}

  hit(key: string, windowMs: number): Promise<CounterHit> {
    return Promise.resolve(this.count(key, windowMs));
  }

  hitBelow(key: string, max: number, windowMs: number): Promise<CounterHit | null> {
    return Promise.resolve((this.running(key)?.count ?? 0) < max ? this.count(key, windowMs) : null);
  }

  takeBack(key: string, hit: CounterHit): Promise<void> {
    const entry = this.counts.get(key);
    if (entry?.resetsAtMs === hit.resetsAtMs && entry.count > 0) entry.count -= 1;
    return Promise.resolve();
  }

  read(key: string): Promise<CounterHit> {
    const entry = this.running(key);
    return Promise.resolve(entry === undefined ? { count: 0, resetsAtMs: this.clock() } : { ...entry });
  }

  clear(key: string): Promise<void> {
    this.counts.delete(key);
    return Promise.resolve();
  }

  /** The key's entry while its window runs. */
  private running(key: string): CounterHit | undefined {
    const entry = this.counts.get(key);
    return entry !== undefined && entry.resetsAtMs > this.clock() ? entry : undefined;
  }

  private count(key: string, windowMs: number): CounterHit {
    const entry = this.running(key) ?? { count: 0, resetsAtMs: this.clock() + windowMs };
    entry.count += 1;
    // Re-inserted, so the Map's order is the order of last hits and the first key is the one to forget.
    this.counts.delete(key);
    if (this.counts.size >= this.maxKeys) {
      const oldest = this.counts.keys().next();
      if (oldest.done !== true) this.counts.delete(oldest.value);
    }
    this.counts.set(key, entry);
    return { ...entry };
  }
}

/** Ended windows are deleted at most this often, by whichever call comes first after it. */
const PRUNE_EVERY_MS = 60_000;

/** The counters in the database (migration 013): instances sharing it count together. */
export class DatabaseCounterStore implements CounterStore {
  private readonly rows: RateCountersRepository;
  private prunedAtMs: number;

  constructor(
    db: Kysely<DB>,
    private readonly clock: () => number = Date.now,
  ) {
    this.rows = createRateCountersRepository(db);
    this.prunedAtMs = clock();
  }

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    await this.pruneWhenDue();
    return this.rows.hit(key, windowMs, this.clock());
  }

  async hitBelow(key: string, max: number, windowMs: number): Promise<CounterHit | null> {
    await this.pruneWhenDue();
    return (await this.rows.hitBelow(key, max, windowMs, this.clock())) ?? null;
  }

  takeBack(key: string, hit: CounterHit): Promise<void> {
    return this.rows.takeBack(key, hit.resetsAtMs);
  }

  async read(key: string): Promise<CounterHit> {
    const now = this.clock();
    const row = await this.rows.find(key);
    return row !== undefined && row.resetsAtMs > now ? row : { count: 0, resetsAtMs: now };
  }

  clear(key: string): Promise<void> {
    return this.rows.delete(key);
  }

  /** Keeps the table to the keys of running windows (a spray of addresses or names leaves rows behind). */
  private async pruneWhenDue(): Promise<void> {
    const now = this.clock();
    if (now - this.prunedAtMs < PRUNE_EVERY_MS) return;
    this.prunedAtMs = now;
    await this.rows.deleteEnded(now);
  }
}
