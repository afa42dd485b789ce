import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { lockUser } from '../../db/user-lock.js';

/** What a user uploaded since a moment. */
export interface UploadUsage {
  count: number;
  bytes: number;
}

export interface UploadQuotaRepository {
  /** The user's uploads recorded after `sinceIso`. */
  usage(userId: number, sinceIso: string): Promise<UploadUsage>;
  /**
   * In one transaction holding the user's lock: forgets the user's uploads from before `sinceIso`, hands the usage
   * since then to `check` (which throws to refuse, leaving everything as it was), and records the upload. Answers the
   * record's id. Throws `check`'s error, or answers null when the user is gone.
   */
  record(
    userId: number,
    bytes: number,
    nowIso: string,
    sinceIso: string,
    check: (usage: UploadUsage) => void,
  ): Promise<number | null>;
  /** Takes a record back (the write it paid for failed). */
  remove(id: number): Promise<void>;
}

export function createUploadQuotaRepository(db: Kysely<DB>, dialect: Dialect): UploadQuotaRepository {
  const usageOf = async (q: Kysely<DB>, userId: number, sinceIso: string): Promise<UploadUsage> => {
    const row = await q
      .selectFrom('image_uploads')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('bytes'),
      ])
      .where('user_id', '=', userId)
      .where('created_at', '>', sinceIso)
      .executeTakeFirstOrThrow();
    // count() and sum() of integers are int8 on PostgreSQL, which database.ts parses as numbers.
    return { count: row.count, bytes: row.bytes };
  };

  return {
    usage(userId, sinceIso) {
      return usageOf(db, userId, sinceIso);
    },

    record(userId, bytes, nowIso, sinceIso, check) {
      return db.transaction().execute(async (trx) => {
        if (!(await lockUser(trx, dialect, userId))) return null;
        await trx
          .deleteFrom('image_uploads')
          .where('user_id', '=', userId)
          .where('created_at', '<=', sinceIso)
          .execute();
        check(await usageOf(trx, userId, sinceIso));
        const row = await trx
          .insertInto('image_uploads')
          .values({ user_id: userId, bytes, created_at: nowIso })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
    },

    async remove(id) {
      await db.deleteFrom('image_uploads').where('id', '=', id).execute();
    },
  };
}
