import { createHash, randomBytes } from 'node:crypto';
import type { SessionRow, UserRow } from '../db/schema.js';
import type { SessionsRepository } from './sessions.repository.js';

/** A 32-byte token in base64url is 43 characters; anything else cannot be ours and costs no query. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const CACHE_MAX_ENTRIES = 10_000;
/** How long resolveUserId trusts a database check, on SQLite (one process: revocations clear the cache at once). */
export const SESSION_CACHE_MS = 5000;
/**
 * The same on PostgreSQL, where other instances may revoke a session: a logout or password change anywhere must stop
 * /media everywhere within 1 s (issue 14), and this bounds how long another instance's cache can still say yes.
 */
export const SHARED_SESSION_CACHE_MS = 500;

/** The session cache lifetime for a database: short where several instances may share it. */
export function sessionCacheMsFor(dialect: 'sqlite' | 'postgres'): number {
  return dialect === 'postgres' ? SHARED_SESSION_CACHE_MS : SESSION_CACHE_MS;
}

interface CachedSession {
  userId: number;
  expiresAtMs: number;
  cachedUntilMs: number;
}

/** What resolve() found, kept while no write of this process could have changed it (see resolve). */
interface CachedUser {
  user: UserRow;
  expiresAtMs: number;
  cachedUntilMs: number;
  /** The repository's writeGeneration before the lookup. */
  generation: number;
}

/** Sets `key` in a map bounded to CACHE_MAX_ENTRIES (the oldest entry out first). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= CACHE_MAX_ENTRIES && !map.has(key)) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  map.set(key, value);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SessionStoreOptions {
  /** The longest a session lives after sign-in, however active (SESSION_TTL). */
  ttlSeconds: number;
  /** A session unused this long ends; each use slides it forward, up to the ttl (SESSION_IDLE). Default: the ttl. */
  idleSeconds?: number;
  /** How long resolveUserId trusts a database check. */
  cacheMs?: number;
  clock?: () => number;
  /** Live sessions one user may have (SESSIONS_PER_USER); a new one ends the oldest beyond it. */
  maxPerUser?: number;
}

/** Session ids per query of stillLive (bound parameters stay well under either database's limit). */
const LIVE_CHECK_BATCH = 500;

/** A session's expiry moves forward at most once a minute (a tenth of the idle time when that is shorter). */
const RENEW_STEP_MS = 60_000;

/**
 * Opaque session tokens (DESIGN §7). The browser holds a random token; the database holds only its sha256, so a
 * leaked database cannot be replayed as cookies.
 */
export class SessionStore {
  /** token hash → user id, for the audio hot path (see resolveUserId). */
  private readonly cache = new Map<string, CachedSession>();
  /** token hash → the session's user, for every other request (see resolve). */
  private readonly users = new Map<string, CachedUser>();
  /** token → hashToken(token), see memoHash. */
  private readonly hashes = new Map<string, string>();
  private readonly endedListeners: (() => void)[] = [];

  private readonly ttlMs: number;
  private readonly idleMs: number;
  private readonly cacheMs: number;
  private readonly clock: () => number;
  private readonly maxPerUser: number;

  constructor(
    private readonly repository: SessionsRepository,
    options: SessionStoreOptions,
  ) {
    this.ttlMs = options.ttlSeconds * 1000;
    this.idleMs = Math.min(options.idleSeconds ?? options.ttlSeconds, options.ttlSeconds) * 1000;
    this.cacheMs = options.cacheMs ?? SESSION_CACHE_MS;
    this.clock = options.clock ?? Date.now;
    this.maxPerUser = options.maxPerUser ?? Number.POSITIVE_INFINITY;
  }

  /**
   * A new session. Past `maxPerUser` the user's oldest sessions end (the login never fails for it): a forgotten
   * browser loses its session rather than the person at the keyboard being locked out, and the table stays bounded.
   */
  async create(userId: number): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expiresAt = new Date(now + this.idleMs);
    await this.repository.deleteExpiredOfUser(userId, new Date(now).toISOString());
    await this.repository.insert({
      id: hashToken(token),
      user_id: userId,
      expires_at: expiresAt.toISOString(),
      created_at: new Date(now).toISOString(),
    });
    if (Number.isFinite(this.maxPerUser)) {
      const evicted = await this.repository.deleteOldestOfUser(userId, hashToken(token), this.maxPerUser - 1);
      for (const id of evicted) this.cache.delete(id);
    }
    return { token, expiresAt };
  }

  /**
   * The user of a live session, or null. An expired session is deleted on sight. The answer is kept for up to
   * `cacheMs` and used again only while this process has made no write that could end the session or change its user
   * (a logout, a password change, a role or premium change, a deletion: the repository's writeGeneration), so a
   * revocation here is seen by the very next request, and one by another instance (PostgreSQL) within `cacheMs`.
   */
  async resolve(token: string): Promise<UserRow | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const id = this.memoHash(token);
    const generation = this.repository.writeGeneration();
    const cached = this.users.get(id);
    const now = this.clock();
    if (
      cached !== undefined &&
      cached.generation === generation &&
      now < cached.cachedUntilMs &&
      now < cached.expiresAtMs
    ) {
      return cached.user;
    }
    this.users.delete(id);
    const found = await this.repository.findWithUser(id);
    if (found === undefined) return null;
    if (Date.parse(found.session.expires_at) <= this.clock()) {
      await this.revokeHash(id);
      return null;
    }
    const expiresAtMs = await this.slide(found.session);
    if (generation !== undefined && this.cacheMs > 0) {
      remember(this.users, id, { user: found.user, expiresAtMs, cachedUntilMs: now + this.cacheMs, generation });
    }
    return found.user;
  }

  /**
   * The user id of a live session, answered from memory for up to `cacheMs` after a database check, for requests
   * that only need "who is this" many times a second (audio range requests). revoke() and revokeAllOfUser() clear
   * the entries of this process at once; another instance may still accept a revoked token for up to `cacheMs`
   * (SHARED_SESSION_CACHE_MS on PostgreSQL, where instances share the sessions).
   */
  async resolveUserId(token: string): Promise<number | null> {
    const known = this.cachedUserId(token);
    if (known !== undefined) return known;
    const id = this.memoHash(token);
    const now = this.clock();
    this.cache.delete(id);
    const session = await this.repository.find(id);
    if (session === undefined) return null;
    if (Date.parse(session.expires_at) <= now) {
      await this.revokeHash(id);
      return null;
    }
    const expiresAtMs = await this.slide(session);
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(id, { userId: session.user_id, expiresAtMs, cachedUntilMs: now + this.cacheMs });
    return session.user_id;
  }

  /**
   * resolveUserId's answer when it needs no database: null for a token that is not ours, the user of a live cached
   * entry, else undefined (then ask resolveUserId).
   */
  cachedUserId(token: string): number | null | undefined {
    if (!TOKEN_PATTERN.test(token)) return null;
    const cached = this.cache.get(this.memoHash(token));
    const now = this.clock();
    return cached !== undefined && now < cached.cachedUntilMs && now < cached.expiresAtMs ? cached.userId : undefined;
  }

  async revoke(token: string): Promise<void> {
    if (TOKEN_PATTERN.test(token)) await this.revokeHash(hashToken(token));
    this.notifyEnded();
  }

  /** The id (token hash) a session is kept under: what stillLive answers about. */
  idOf(token: string): string {
    return this.memoHash(token);
  }

  /** Which of these sessions (ids from idOf) are still signed in: not ended, not expired. */
  async stillLive(ids: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    const live = new Set<string>();
    for (let start = 0; start < unique.length; start += LIVE_CHECK_BATCH) {
      const batch = unique.slice(start, start + LIVE_CHECK_BATCH);
      for (const id of await this.repository.liveIds(batch, new Date(this.clock()).toISOString())) live.add(id);
    }
    return live;
  }

  /** Calls `listener` after this process ends sessions (a logout, a password change, a deletion). */
  onEnded(listener: () => void): void {
    this.endedListeners.push(listener);
  }

  /** Ends every session of a user (password change, deletion), optionally keeping the caller's own. */
  async revokeAllOfUser(userId: number, exceptToken?: string): Promise<void> {
    const exceptId = exceptToken !== undefined && TOKEN_PATTERN.test(exceptToken) ? hashToken(exceptToken) : undefined;
    await this.repository.deleteAllOfUser(userId, exceptId);
    this.forgetUser(userId, exceptId);
  }

  /** Drops cached entries of a user whose sessions were removed by other means (e.g. ON DELETE CASCADE). */
  forgetUser(userId: number, exceptId?: string): void {
    this.notifyEnded();
    for (const [id, entry] of this.cache) {
      if (entry.userId === userId && id !== exceptId) this.cache.delete(id);
    }
    for (const [id, entry] of this.users) {
      if (entry.user.id === userId && id !== exceptId) this.users.delete(id);
    }
  }

  /**
   * Sliding renewal: a used session lives `idle` from now, never past `ttl` from sign-in. Answers the (new) expiry.
   * Written only when it moves by a step or more, so a busy session costs one small update a minute.
   */
  private async slide(session: SessionRow): Promise<number> {
    const now = this.clock();
    const current = Date.parse(session.expires_at);
    const target = Math.min(now + this.idleMs, Date.parse(session.created_at) + this.ttlMs);
    if (target - current < Math.min(RENEW_STEP_MS, this.idleMs / 10)) return current;
    // Locked by another writer: the session keeps its expiry until a later request renews it.
    return (await this.repository.extend(session.id, new Date(target).toISOString())) ? target : current;
  }

  /**
   * hashToken, remembered for tokens seen lately (as many as the cache holds): on a cached audio request the sha256
   * was a tenth of Tonearm's work. The memo holds nothing the cache does not already let in.
   */
  private memoHash(token: string): string {
    let id = this.hashes.get(token);
    if (id === undefined) {
      id = hashToken(token);
      if (this.hashes.size >= CACHE_MAX_ENTRIES) {
        const oldest = this.hashes.keys().next();
        if (oldest.done !== true) this.hashes.delete(oldest.value);
      }
      this.hashes.set(token, id);
    }
    return id;
  }

  private notifyEnded(): void {
    for (const listener of this.endedListeners) listener();
  }

  private async revokeHash(id: string): Promise<void> {
    this.cache.delete(id);
    this.users.delete(id);
    await this.repository.delete(id);
  }
}
