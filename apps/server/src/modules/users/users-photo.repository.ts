import type { Kysely } from 'kysely';
import type { DB, UserRow } from '../../db/schema.js';

/** The profile photo column of users (the rest of the users table belongs to users.repository). */
export interface UsersPhotoRepository {
  find(id: number): Promise<UserRow | undefined>;
  /** Sets the photo key inside a transaction, runs `beforeCommit` last in it, and answers the updated row. */
  setImage(id: number, imageKey: string | null, beforeCommit: () => Promise<void>): Promise<UserRow | undefined>;
}

export function createUsersPhotoRepository(db: Kysely<DB>): UsersPhotoRepository {
  return {
    find(id) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    setImage(id, imageKey, beforeCommit) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('users')
          .set({ image_key: imageKey })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (row !== undefined) await beforeCommit();
        return row;
      });
    },
  };
}
