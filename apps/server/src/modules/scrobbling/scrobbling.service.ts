import { ErrorCodes, ScrobbleMessages, type ScrobbleAccount, type ScrobbleService } from '@tonearm/contract';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import type { SecretBox } from '../subsonic/secret-box.js';
import type { Provider, ScrobbleItem, Secrets, SendOutcome } from './providers.js';
import type { AccountRow, ClaimedRow, NewQueueRow, ScrobblingRepository } from './scrobbling.repository.js';

/** A listen that counted (a `listens` row). */
export interface Listen {
  id: number;
  userId: number;
  songId: number;
  playedAt: string;
  listenedMs: number;
}

export interface ScrobblingOptions {
  now?: () => number;
  /** Rows claimed per pass (a Last.fm batch is at most 50). */
  claimRows?: number;
  /** How long a claim holds before another sender may take the rows (a sender that died mid-send). */
  claimMs?: number;
  /** First wait after a failure; doubles per attempt, with jitter, up to maxBackoffMs. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** Looks for due rows at least this often (rows queued by another instance, retries coming due). */
  idlePollMs?: number;
  log?: { warn: (message: string) => void };
}

/** A now-playing older than this (or than its song's length) is dropped rather than sent late. */
const NOW_PLAYING_STALE_MS = 10 * 60 * 1000;

/**
 * Scrobbling out (issue 28): each listener's ListenBrainz and Last.fm accounts, and a sender that empties the durable
 * queue (scrobble_queue) into them. A row is written in the database before anything is sent, claimed while it is sent,
 * and deleted once the service took it: a restart sends what waited, exactly once in the normal path. (A crash between
 * the service's answer and the delete sends those rows once more after the claim expires; ListenBrainz keeps one listen
 * per user and time.)
 */
export class ScrobblingService {
  private readonly providers: Map<ScrobbleService, Provider>;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly repository: ScrobblingRepository,
    private readonly box: SecretBox,
    providers: readonly Provider[],
    private readonly options: ScrobblingOptions = {},
  ) {
    this.providers = new Map(providers.map((provider) => [provider.service, provider]));
    this.now = options.now ?? Date.now;
  }

  async accounts(userId: number): Promise<ScrobbleAccount[]> {
    return (await this.repository.accountsOf(userId)).map((row) => toAccount(row, row.queued));
  }

  /** Connects (or reconnects) a service once it accepted the credentials; 400 when it refused them. */
  async connect(userId: number, service: ScrobbleService, secrets: Secrets): Promise<ScrobbleAccount> {
    const provider = this.provider(service);
    const checked = await provider.validate(secrets);
    if (checked.kind === 'refused') throw badRequest(ScrobbleMessages.invalidCredentials(provider.label));
    if (checked.kind === 'retry') {
      const down = new HttpError(503, ErrorCodes.serverBusy, ScrobbleMessages.unreachable(provider.label));
      down.retryAfterSeconds = 30;
      throw down;
    }
    const sealed = await this.box.seal(JSON.stringify(secrets), contextOf(userId, service));
    const row = await this.repository.saveAccount({
      user_id: userId,
      service,
      secrets: sealed,
      remote_name: checked.remoteName,
      connected_at: new Date(this.now()).toISOString(),
    });
    void this.wake();
    // Read again for its queued count: rows that waited while it needed attention are still there.
    return (await this.accounts(userId)).find((one) => one.service === service) ?? toAccount(row, 0);
  }

  async disconnect(userId: number, service: ScrobbleService): Promise<void> {
    if (!(await this.repository.deleteAccount(userId, service))) throw notFound(ScrobbleMessages.notConnected);
  }

  /** A listen counted: queued for each of the listener's accounts connected before it began. */
  async listened(listen: Listen): Promise<void> {
    const accounts = (await this.repository.sendingAccounts(listen.userId)).filter(
      (account) => account.connected_at <= listen.playedAt,
    );
    await this.queue(accounts, listen.songId, 'listen', listen.playedAt, listen.id);
  }

  /** A song started: "now playing" for each of the listener's accounts. */
  async nowPlaying(userId: number, songId: number): Promise<void> {
    const accounts = await this.repository.sendingAccounts(userId);
    await this.queue(accounts, songId, 'now_playing', new Date(this.now()).toISOString(), null);
  }

  start(): void {
    this.stopped = false;
    void this.wake();
  }

  /** Stops sending; waits for a send under way (its rows are deleted or put back first). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Sends what is due now; resolves once no pass is asked for any more (a wake during a pass asks for one more after
   * it), so a caller that awaits it sees everything queued before the call settled.
   */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.again = true;
    clearTimeout(this.timer);
    this.running ??= this.passes().finally(() => {
      this.running = undefined;
      void this.schedule();
    });
    return this.running;
  }

  private async passes(): Promise<void> {
    while (this.again && !this.stopped) {
      this.again = false;
      await this.drain().catch((error: unknown) => {
        this.options.log?.warn(`Scrobbling: a send pass failed: ${String(error)}`);
      });
    }
  }

  private async queue(
    accounts: readonly Pick<AccountRow, 'id'>[],
    songId: number,
    kind: NewQueueRow['kind'],
    playedAt: string,
    listenId: number | null,
  ): Promise<void> {
    if (accounts.length === 0) return;
    const song = await this.repository.song(songId);
    if (song === undefined) return;
    const at = new Date(this.now()).toISOString();
    await this.repository.enqueue(
      accounts.map((account) => ({
        account_id: account.id,
        kind,
        listen_id: listenId,
        ...song,
        played_at: playedAt,
        next_attempt_at: at,
        created_at: at,
      })),
    );
    void this.wake();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = this.now();
      const claimed = await this.repository.claim(
        new Date(now).toISOString(),
        new Date(now + (this.options.claimMs ?? 60_000)).toISOString(),
        this.options.claimRows ?? 50,
      );
      if (claimed.length === 0) return;
      for (const rows of groupByAccount(claimed)) await this.sendAccount(rows);
    }
  }

  /** One account's claimed rows: its now-playing alone, its listens in batches. */
  private async sendAccount(rows: ClaimedRow[]): Promise<void> {
    const first = rows[0];
    if (first === undefined) return;
    const provider = this.provider(first.service);
    const opened = await this.box.open(first.secrets, contextOf(first.user_id, first.service));
    if (opened === null) {
      // Sealed under another key (SECRET_KEY changed): only the listener can give them again.
      await this.settle(rows, { kind: 'refused', reason: 'The stored credentials cannot be read: connect again' });
      return;
    }
    const secrets = JSON.parse(opened) as Secrets;
    for (const row of rows.filter((one) => one.kind === 'now_playing')) {
      if (this.isStale(row))
        await this.repository.done(row.account_id, [row.id], new Date(this.now()).toISOString(), null);
      else if (!(await this.settle([row], await provider.nowPlaying(secrets, itemOf(row))))) return;
    }
    const listens = rows.filter((one) => one.kind === 'listen');
    for (let start = 0; start < listens.length; start += provider.batchMax) {
      const batch = listens.slice(start, start + provider.batchMax);
      if (!(await this.settle(batch, await provider.scrobble(secrets, batch.map(itemOf))))) {
        // The account stopped, or the service asked to wait: the rest of its rows go back as they are.
        await this.repository.retry(
          listens.slice(start + provider.batchMax).map((row) => row.id),
          new Date(this.now()).toISOString(),
          'waiting behind an earlier listen',
        );
        return;
      }
    }
  }

  /** Applies a send's outcome to its rows; false when the account's other rows should wait. */
  private async settle(rows: readonly ClaimedRow[], outcome: SendOutcome): Promise<boolean> {
    const first = rows[0];
    if (first === undefined) return true;
    const ids = rows.map((row) => row.id);
    const at = new Date(this.now()).toISOString();
    switch (outcome.kind) {
      case 'sent': {
        const refused = outcome.rejected.map(
          (rejection) => `Not sent: ${rows[rejection.index]?.title ?? 'a listen'}: ${rejection.reason}`,
        );
        await this.repository.done(first.account_id, ids, at, refused.at(-1) ?? null);
        return true;
      }
      case 'retry': {
        const attempts = Math.max(...rows.map((row) => row.attempts));
        const wait = Math.max(outcome.afterMs ?? 0, this.backoff(attempts));
        await this.repository.retry(ids, new Date(this.now() + wait).toISOString(), outcome.reason);
        return false;
      }
      case 'refused':
        await this.repository.needsAttention(first.account_id, outcome.reason, ids);
        return false;
    }
  }

  /** Exponential backoff with jitter: first, twice that, … up to the maximum, each between half and all of it. */
  private backoff(attempts: number): number {
    const first = this.options.firstBackoffMs ?? 30_000;
    const max = this.options.maxBackoffMs ?? 6 * 60 * 60 * 1000;
    const full = Math.min(max, first * 2 ** Math.min(attempts, 30));
    return Math.round(full / 2 + (Math.random() * full) / 2);
  }

  private isStale(row: ClaimedRow): boolean {
    const age = this.now() - Date.parse(row.played_at);
    return age > Math.min(NOW_PLAYING_STALE_MS, Math.max(row.duration_ms ?? 0, 60_000));
  }

  /** Wakes again when the next row comes due, or after idlePollMs at most. */
  private async schedule(): Promise<void> {
    if (this.stopped) return;
    const idle = this.options.idlePollMs ?? 60_000;
    const due = await this.repository.nextDue().catch(() => null);
    const wait = due === null ? idle : Math.min(idle, Math.max(0, Date.parse(due) - this.now()));
    // Set even when stop() came meanwhile: its wake() then does nothing.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.wake(), wait);
    this.timer.unref();
  }

  private provider(service: ScrobbleService): Provider {
    const provider = this.providers.get(service);
    if (provider === undefined) throw new Error(`No provider for ${service}`);
    return provider;
  }
}

const contextOf = (userId: number, service: ScrobbleService) => `scrobble:${String(userId)}:${service}`;

function toAccount(row: AccountRow, queued: number): ScrobbleAccount {
  return {
    service: row.service,
    remoteName: row.remote_name,
    state: row.state,
    lastError: row.last_error,
    lastSentAt: row.last_sent_at,
    connectedAt: row.connected_at,
    queued,
  };
}

function itemOf(row: ClaimedRow): ScrobbleItem {
  return {
    artist: row.artist,
    title: row.title,
    album: row.album,
    durationMs: row.duration_ms,
    playedAt: row.played_at,
  };
}

function groupByAccount(rows: readonly ClaimedRow[]): ClaimedRow[][] {
  const groups = new Map<number, ClaimedRow[]>();
  for (const row of rows) {
    const group = groups.get(row.account_id);
    if (group === undefined) groups.set(row.account_id, [row]);
    else group.push(row);
  }
  return [...groups.values()];
}
