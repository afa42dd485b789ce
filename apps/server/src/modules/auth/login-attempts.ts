/**
 * Failed sign-ins per account (issue 9): the per-address rate limit stops one machine from guessing, this stops many
 * machines from guessing one account's password. After `maxFailures` failures within `windowMs` the account refuses
 * further attempts until the oldest failure leaves the window; a successful sign-in clears its count.
 *
 * Counts live in this process's memory, bounded in size: behind several instances each counts on its own, which still
 * bounds guessing per instance (the per-address limit behaves the same way).
 */
/** The window of the per-account count (the 429 carries Retry-After). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

export class LoginAttempts {
  private readonly failures = new Map<string, number[]>();
  /** Attempts begun and not yet ended (begin/end): each counts as a failure until it is known not to be one. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
    private readonly maxAccounts = 100_000,
  ) {}

  /** Whether the account may try now. */
  allowed(account: string): boolean {
    return this.recent(account).length + (this.pending.get(account) ?? 0) < this.maxFailures;
  }

  /**
   * An attempt that will be decided after an await: until `end`, it takes a place in the count, so attempts sent all
   * at once cannot all pass `allowed` before the first failure is recorded.
   */
  begin(account: string): void {
    this.pending.set(account, (this.pending.get(account) ?? 0) + 1);
  }

  /** The attempt of `begin` is decided (record its failure or success as well). */
  end(account: string): void {
    const left = (this.pending.get(account) ?? 1) - 1;
    if (left > 0) this.pending.set(account, left);
    else this.pending.delete(account);
  }

  /** Seconds until the account may try again (0 when it may now). */
  retryAfterSeconds(account: string): number {
    const recent = this.recent(account);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures] ?? this.clock();
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.clock()) / 1000));
  }

  recordFailure(account: string): void {
    const recent = this.recent(account);
    recent.push(this.clock());
    this.failures.delete(account);
    if (this.failures.size >= this.maxAccounts) {
      const oldest = this.failures.keys().next();
      if (oldest.done !== true) this.failures.delete(oldest.value);
    }
    this.failures.set(account, recent.slice(-this.maxFailures));
  }

  recordSuccess(account: string): void {
    this.failures.delete(account);
  }

  private recent(account: string): number[] {
    const since = this.clock() - this.windowMs;
    return (this.failures.get(account) ?? []).filter((at) => at > since);
  }
}
