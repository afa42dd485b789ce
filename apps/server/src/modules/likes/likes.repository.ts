import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface LikesRepository {
  /** Idempotent: liking a liked song keeps the original time. */
  like(userId: number, songId: number, at: string): Promise<void>;
  /** Idempotent: unliking a song that is not liked is not an error. */
  unlike(userId: number, songId: number): Promise<void>;
}

export function createLikesRepository(db: Kysely<DB>): LikesRepository {
  return {
    async like(userId, songId, at) {
      await db
        .insertInto('likes')
        .values({ user_id: userId, song_id: songId, created_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'song_id']).doNothing())
        .execute();
    },

    async unlike(userId, songId) {
      await db.deleteFrom('likes').where('user_id', '=', userId).where('song_id', '=', songId).execute();
    },
  };
}
