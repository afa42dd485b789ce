import type { Kysely } from 'kysely';
import type { DB, SubsonicApiKeyRow, UserRow } from '../../db/schema.js';
import { sessionWritesOf } from '../../db/write-watch.js';

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;

/** The Subsonic API keys (migration 010): found by the sha256 of the key, listed by owner. */
export function createApiKeysRepository(db: Kysely<DB>) {
  const writes = sessionWritesOf(db);
  return {
    /** Moves with every write of this process that may revoke a key or change its user (db/write-watch.ts). */
    writeGeneration: (): number | undefined => writes?.generation,

    async userExists(userId: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },

    async insert(userId: number, name: string, keyHash: string, createdAt: string): Promise<SubsonicApiKeyRow> {
      return db
        .insertInto('subsonic_api_keys')
        .values({ user_id: userId, name, key_hash: keyHash, created_at: createdAt, last_used_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** A user's keys, oldest first; a user holds few, so the list is whole. */
    async listByUser(userId: number): Promise<SubsonicApiKeyRow[]> {
      return db.selectFrom('subsonic_api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    },

    /** Deletes one of the user's keys; whether it existed. */
    async delete(userId: number, keyId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('subsonic_api_keys')
        .where('id', '=', keyId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** The key with this hash and its user (the unique index on key_hash). */
    async findByHash(
      keyHash: string,
    ): Promise<{ keyId: number; lastUsedAt: string | null; user: UserRow } | undefined> {
      const row = await db
        .selectFrom('subsonic_api_keys')
        .innerJoin('users', 'users.id', 'subsonic_api_keys.user_id')
        .selectAll('users')
        .select(['subsonic_api_keys.id as key_id', 'subsonic_api_keys.last_used_at as key_last_used_at'])
        .where('subsonic_api_keys.key_hash', '=', keyHash)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { key_id, key_last_used_at, ...user } = row;
      return { keyId: key_id, lastUsedAt: key_last_used_at, user };
    },

    async touch(keyId: number, usedAt: string): Promise<void> {
      await db.updateTable('subsonic_api_keys').set({ last_used_at: usedAt }).where('id', '=', keyId).execute();
    },
  };
}
