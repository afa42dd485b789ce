import { createHash, randomBytes } from 'node:crypto';
import { mayManageUser, ServerMessages, type ApiKey, type CreatedApiKey } from '@tonearm/contract';
import type { SubsonicApiKeyRow, UserRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { SHARED_SESSION_CACHE_MS } from '../../sessions/session-store.js';
import type { ApiKeysRepository } from './api-keys.repository.js';

type Actor = Pick<UserRow, 'id' | 'role'>;

/** 32 random bytes: a key nobody guesses, 43 characters of base64url. */
const KEY_BYTES = 32;
/** last_used_at moves at most this often, so a busy app does not write on every call. */
const TOUCH_EVERY_MS = 60_000;

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** How long a key found is trusted without asking the database, at most (another instance may revoke it). */
const KEY_CACHE_MS = SHARED_SESSION_CACHE_MS;
const KEY_CACHE_MAX = 10_000;

interface KnownKey {
  user: UserRow;
  keyId: number;
  lastUsedMs: number;
  cachedUntilMs: number;
  /** The repository's writeGeneration before the lookup. */
  generation: number | undefined;
}

const toApiKey = (row: SubsonicApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/**
 * API keys of Subsonic apps: the owner or an admin manages a user's keys (anyone else is told the user does not exist,
 * as for the account itself); only the key's sha256 is stored, so the key is answered once, at creation.
 */
export class ApiKeysService {
  /** sha256 of a key → whose it is, see userOfKey. */
  private readonly known = new Map<string, KnownKey>();

  constructor(private readonly keys: ApiKeysRepository) {}

  private async assertCanManage(actor: Actor, userId: number): Promise<void> {
    if (!mayManageUser(actor, userId) || !(await this.keys.userExists(userId))) {
      throw notFound(ServerMessages.notFound);
    }
  }

  async create(actor: Actor, userId: number, name: string): Promise<CreatedApiKey> {
    await this.assertCanManage(actor, userId);
    const key = randomBytes(KEY_BYTES).toString('base64url');
    const row = await this.keys.insert(userId, name, hashApiKey(key), new Date().toISOString());
    return { id: row.id, name: row.name, key };
  }

  async list(actor: Actor, userId: number): Promise<ApiKey[]> {
    await this.assertCanManage(actor, userId);
    return (await this.keys.listByUser(userId)).map(toApiKey);
  }

  async revoke(actor: Actor, userId: number, keyId: number): Promise<void> {
    await this.assertCanManage(actor, userId);
    if (!(await this.keys.delete(userId, keyId))) throw notFound(ServerMessages.notFound);
  }

  /**
   * The user a key belongs to, or null for a key that does not exist (never made, or revoked). A key found is
   * remembered for KEY_CACHE_MS while this process makes no write that could revoke it or change its user (the
   * repository's writeGeneration, as the session store does): a revocation here is seen by the next call, one on
   * another instance within KEY_CACHE_MS.
   */
  async userOfKey(key: string, now: Date = new Date()): Promise<UserRow | null> {
    const hash = hashApiKey(key);
    const generation = this.keys.writeGeneration();
    const cached = this.known.get(hash);
    if (cached !== undefined && cached.generation === generation && now.getTime() < cached.cachedUntilMs) {
      await this.touchIfDue(cached, now);
      return cached.user;
    }
    this.known.delete(hash);
    const found = await this.keys.findByHash(hash);
    if (found === undefined) return null;
    const entry = {
      user: found.user,
      keyId: found.keyId,
      lastUsedMs: found.lastUsedAt === null ? 0 : Date.parse(found.lastUsedAt),
      cachedUntilMs: now.getTime() + KEY_CACHE_MS,
      generation,
    };
    await this.touchIfDue(entry, now);
    if (generation !== undefined) {
      if (this.known.size >= KEY_CACHE_MAX) this.known.clear();
      this.known.set(hash, entry);
    }
    return found.user;
  }

  /** last_used_at moves at most every TOUCH_EVERY_MS. */
  private async touchIfDue(entry: KnownKey, now: Date): Promise<void> {
    if (now.getTime() - entry.lastUsedMs < TOUCH_EVERY_MS) return;
    entry.lastUsedMs = now.getTime();
    await this.keys.touch(entry.keyId, now.toISOString());
  }
}
