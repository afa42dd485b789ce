import type { Kysely } from 'kysely';
import type { DB, SessionRow, UserRow } from '../db/schema.js';
import { inTransactionWithoutWaiting, isLockBusy } from '../db/without-waiting.js';
import { sessionWritesOf } from '../db/write-watch.js';

export interface SessionsRepository {
  /**
   * A count that moves with every write of this process that may end or change a session (db/write-watch.ts);
   * undefined when the database reports none, and then nothing may be remembered past one request.
   */
  writeGeneration(): number | undefined;
  insert(session: SessionRow): Promise<void>;
  /** The session and its user, whatever the expiry (the caller decides). */
  findWithUser(id: string): Promise<{ session: SessionRow; user: UserRow } | undefined>;
  find(id: string): Promise<SessionRow | undefined>;
  delete(id: string): Promise<void>;
  /**
   * Moves a session's expiry (sliding renewal); false, without waiting, when another writer holds the database's lock
   * (an import in another process): the renewal is then left to a later request.
   */
  extend(id: string, expiresAtIso: string): Promise<boolean>;
  deleteExpiredOfUser(userId: number, nowIso: string): Promise<void>;
  deleteAllOfUser(userId: number, exceptId?: string): Promise<void>;
  /** Which of these sessions still exist and have not expired at `nowIso`. */
  liveIds(ids: readonly string[], nowIso: string): Promise<string[]>;
  /**
   * Deletes the user's sessions other than `keepId`, except the `keepOthers` newest of them; answers the deleted ids.
   */
  deleteOldestOfUser(userId: number, keepId: string, keepOthers: number): Promise<string[]>;
}

export function createSessionsRepository(db: Kysely<DB>): SessionsRepository {
  const writes = sessionWritesOf(db);
  return {
    writeGeneration: () => writes?.generation,

    async insert(session) {
      await db.insertInto('sessions').values(session).execute();
    },

    async findWithUser(id) {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select(['sessions.id as session_id', 'sessions.expires_at as session_expires_at'])
        .select('sessions.created_at as session_created_at')
        .where('sessions.id', '=', id)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { session_id, session_expires_at, session_created_at, ...user } = row;
      return {
        session: { id: session_id, user_id: user.id, expires_at: session_expires_at, created_at: session_created_at },
        user,
      };
    },

    find(id) {
      return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async extend(id, expiresAtIso) {
      try {
        await inTransactionWithoutWaiting(db, (trx) =>
          trx.updateTable('sessions').set({ expires_at: expiresAtIso }).where('id', '=', id).execute(),
        );
        return true;
      } catch (error) {
        if (isLockBusy(error)) return false;
        throw error;
      }
    },

    async delete(id) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },

    async deleteExpiredOfUser(userId, nowIso) {
      await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', nowIso).execute();
    },

    async deleteAllOfUser(userId, exceptId) {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      await query.execute();
    },

    async liveIds(ids, nowIso) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', ids)
        .where('expires_at', '>', nowIso)
        .execute();
      return rows.map((row) => row.id);
    },

    async deleteOldestOfUser(userId, keepId, keepOthers) {
      const newest = db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '!=', keepId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(keepOthers);
      const rows = await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('id', '!=', keepId)
        .where('id', 'not in', newest)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },
  };
}
