import type { CounterHit, CounterStore } from '../../counters/counter-store.js';

/** The window of the per-account count (the 429 carries Retry-After). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** A place taken by `begin`: the attempt may go ahead, and counts as a failure unless given back. */
export interface AttemptPlace {
  readonly key: string;
  readonly hit: CounterHit;
}

export type AttemptStart = { allowed: true; place: AttemptPlace } | { allowed: false; retryAfterSeconds: number };

/**
 * Failed sign-ins per key (issue 9): the per-address rate limit stops one machine from guessing, a per-account count
 * stops many machines from guessing one account's password. After `maxFailures` failures within a window (which starts
 * with the first failure and lasts `windowMs`) the key refuses further attempts until the window ends; a successful
 * sign-in clears its count.
 *
 * An attempt takes its place in the count when it begins (`begin`), before the password is checked, and keeps it when
 * it fails: attempts sent all at once cannot all pass before the first failure is recorded, on one instance or on
 * several. One that turns out not to be a failure gives its place back (`giveBack`) or clears the count (`succeeded`).
 * The counts live in a CounterStore: the database's when several instances share it, so they count together.
 */
export class LoginAttempts {
  constructor(
    private readonly counters: CounterStore,
    /** Keeps this count apart from others in the same store (`login`, `subsonic-account`, ...). */
    private readonly name: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Takes a place for an attempt at `key`, or says how long to wait when the key has used up its failures. */
  async begin(key: string): Promise<AttemptStart> {
    const stored = this.stored(key);
    const hit = await this.counters.hitBelow(stored, this.maxFailures, this.windowMs);
    if (hit !== null) return { allowed: true, place: { key: stored, hit } };
    const { resetsAtMs } = await this.counters.read(stored);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetsAtMs - this.clock()) / 1000)) };
  }

  /** The attempt was no failure (the right credentials, or a refusal for another reason): its place is freed. */
  giveBack(place: AttemptPlace): Promise<void> {
    return this.counters.takeBack(place.key, place.hit);
  }

  /** The right credentials: the key's failures are forgotten. */
  succeeded(place: AttemptPlace): Promise<void> {
    return this.counters.clear(place.key);
  }

  private stored(key: string): string {
    return `${this.name}:${key}`;
  }
}
