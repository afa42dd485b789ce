import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export type AppKeysRepository = ReturnType<typeof createAppKeysRepository>;

/** What was revoked. */
export interface RevokedAppKeys {
  apiKeys: number;
  appPassword: boolean;
}

/**
 * What Subsonic apps sign in with besides sessions: the API keys (subsonic_api_keys) and the app password
 * (users.subsonic_secret), managed one by one by the subsonic module. Revoked all at once here for "log out everywhere
 * and revoke app keys": the subsonic module depends on auth (login attempts), so auth cannot call it back.
 */
export function createAppKeysRepository(db: Kysely<DB>) {
  return {
    /** Deletes every API key of the user and clears their app password, in one transaction. */
    async revokeAllOfUser(userId: number): Promise<RevokedAppKeys> {
      return db.transaction().execute(async (trx) => {
        const keys = await trx.deleteFrom('subsonic_api_keys').where('user_id', '=', userId).executeTakeFirst();
        const password = await trx
          .updateTable('users')
          .set({ subsonic_secret: null })
          .where('id', '=', userId)
          .where('subsonic_secret', 'is not', null)
          .executeTakeFirst();
        return { apiKeys: Number(keys.numDeletedRows), appPassword: password.numUpdatedRows > 0n };
      });
    },
  };
}
