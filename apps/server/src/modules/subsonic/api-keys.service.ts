import { createHash, randomBytes } from 'node:crypto';
import { mayManageUser, ServerMessages, type ApiKey, type CreatedApiKey } from '@tonearm/contract';
import type { SubsonicApiKeyRow, UserRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { ApiKeysRepository } from './api-keys.repository.js';

type Actor = Pick<UserRow, 'id' | 'role'>;

/** 32 random bytes: a key nobody guesses, 43 characters of base64url. */
const KEY_BYTES = 32;
/** last_used_at moves at most this often, so a busy app does not write on every call. */
const TOUCH_EVERY_MS = 60_000;

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

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

  /** The user a key belongs to, or null for a key that does not exist (never made, or revoked). */
  async userOfKey(key: string, now: Date = new Date()): Promise<UserRow | null> {
    const found = await this.keys.findByHash(hashApiKey(key));
    if (found === undefined) return null;
    const last = found.lastUsedAt === null ? 0 : Date.parse(found.lastUsedAt);
    if (now.getTime() - last >= TOUCH_EVERY_MS) await this.keys.touch(found.keyId, now.toISOString());
    return found.user;
  }
}
