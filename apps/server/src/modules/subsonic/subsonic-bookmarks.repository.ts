import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A user's resume point in a song. */
export interface BookmarkRow {
  song_id: number;
  position_ms: number;
  comment: string | null;
  created_at: string;
  changed_at: string;
}

/** Subsonic's bookmarks (migration 025): one resume point per user and song. */
export interface SubsonicBookmarksRepository {
  /** The user's bookmarks, the most recently changed first, at most `limit`. */
  list(userId: number, limit: number): Promise<BookmarkRow[]>;
  /** Creates the bookmark, or moves it (its position and comment; `created_at` stays) when there is one. */
  save(
    userId: number,
    songId: number,
    bookmark: { positionMs: number; comment: string | null; at: string },
  ): Promise<void>;
  /** Whether there was one to delete. */
  delete(userId: number, songId: number): Promise<boolean>;
}

export function createSubsonicBookmarksRepository(db: Kysely<DB>): SubsonicBookmarksRepository {
  return {
    list(userId, limit) {
      return db
        .selectFrom('subsonic_bookmarks')
        .select(['song_id', 'position_ms', 'comment', 'created_at', 'changed_at'])
        .where('user_id', '=', userId)
        .orderBy('changed_at', 'desc')
        .orderBy('song_id', 'desc')
        .limit(limit)
        .execute();
    },

    async save(userId, songId, { positionMs, comment, at }) {
      const changes = { position_ms: positionMs, comment, changed_at: at };
      await db
        .insertInto('subsonic_bookmarks')
        .values({ user_id: userId, song_id: songId, created_at: at, ...changes })
        .onConflict((conflict) => conflict.columns(['user_id', 'song_id']).doUpdateSet(changes))
        .execute();
    },

    async delete(userId, songId) {
      const result = await db
        .deleteFrom('subsonic_bookmarks')
        .where('user_id', '=', userId)
        .where('song_id', '=', songId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
