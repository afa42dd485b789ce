import { sql, type Kysely } from 'kysely';
import type { DB, UserRow } from '../../db/schema.js';

export type AppPasswordsRepository = ReturnType<typeof createAppPasswordsRepository>;

/** The app password of Subsonic apps, sealed, in users.subsonic_secret (null: none). */
export function createAppPasswordsRepository(db: Kysely<DB>) {
  return {
    /** The user's sealed app password: undefined when there is no such user, null when they have none. */
    async secretOf(userId: number): Promise<string | null | undefined> {
      const row = await db.selectFrom('users').select('subsonic_secret').where('id', '=', userId).executeTakeFirst();
      return row?.subsonic_secret;
    },

    /** Sets (or, with null, clears) the sealed app password; whether the user exists. */
    async setSecret(userId: number, sealed: string | null): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ subsonic_secret: sealed })
        .where('id', '=', userId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Clears the app password when there is one; whether there was. */
    async clearSecret(userId: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ subsonic_secret: null })
        .where('id', '=', userId)
        .where('subsonic_secret', 'is not', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A user by username, case-insensitively as the web login (the unique index on lower(username)). */
    async findByUsername(username: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },
  };
}
