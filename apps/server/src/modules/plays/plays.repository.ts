import type { Insertable, Kysely } from 'kysely';
import { songSeen } from '../../db/library-visibility.js';
import type { DB, ListensTable } from '../../db/schema.js';

export interface RecentPlayRow {
  songId: number;
  playedAt: string;
}

export interface PlaysRepository {
  /** The song's length (null when unknown), or undefined when it does not exist outside the `hidden` libraries. */
  songLength(songId: number, hidden: readonly number[]): Promise<{ duration_ms: number | null } | undefined>;
  /** Whether the song exists outside the `hidden` libraries. */
  songExists(songId: number, hidden?: readonly number[]): Promise<boolean>;
  /**
   * Appends a play, counts it in the song's play_count, and trims the user's history to its newest `keep` plays, in one
   * transaction.
   */
  record(userId: number, songId: number, playedAt: string, keep: number): Promise<void>;
  /**
   * Appends a listen that counted (issue 28's `listens`); answers its id, or null when it was already there (the same
   * user, song and start), whose `listened_ms` is then raised to this one's when higher (the web player reports a play
   * at the mark, then again at its end).
   */
  recordListen(listen: Insertable<ListensTable>): Promise<number | null>;
  /** The user's distinct songs by their latest play, most recent first. */
  recent(userId: number, limit: number): Promise<RecentPlayRow[]>;
}

export function createPlaysRepository(db: Kysely<DB>): PlaysRepository {
  return {
    async recordListen(listen) {
      const row = await db
        .insertInto('listens')
        .values(listen)
        .onConflict((conflict) => conflict.columns(['user_id', 'song_id', 'played_at']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row !== undefined) return row.id;
      if (listen.song_id !== null && listen.song_id !== undefined) {
        await db
          .updateTable('listens')
          .set({ listened_ms: listen.listened_ms })
          .where('user_id', '=', listen.user_id)
          .where('song_id', '=', listen.song_id)
          .where('played_at', '=', listen.played_at)
          .where('listened_ms', '<', listen.listened_ms)
          .execute();
      }
      return null;
    },

    songLength(songId, hidden) {
      return db
        .selectFrom('songs')
        .select('duration_ms')
        .where('id', '=', songId)
        .$if(hidden.length > 0, (query) => query.where(songSeen(hidden)))
        .executeTakeFirst();
    },

    async songExists(songId, hidden = []) {
      const row = await db
        .selectFrom('songs')
        .select('id')
        .where('id', '=', songId)
        .$if(hidden.length > 0, (query) => query.where(songSeen(hidden)))
        .executeTakeFirst();
      return row !== undefined;
    },

    async record(userId, songId, playedAt, keep) {
      await db.transaction().execute(async (trx) => {
        // The song's count of plays by anyone (migration 023), which the history's trimming below never lowers.
        await trx
          .updateTable('songs')
          .set((eb) => ({ play_count: eb('play_count', '+', 1) }))
          .where('id', '=', songId)
          .execute();
        await trx.insertInto('plays').values({ user_id: userId, song_id: songId, played_at: playedAt }).execute();
        // The oldest play still kept; everything older goes. Walks at most `keep` entries of (user_id, played_at).
        const cutoff = await trx
          .selectFrom('plays')
          .select('played_at')
          .where('user_id', '=', userId)
          .orderBy('played_at', 'desc')
          .limit(1)
          .offset(keep - 1)
          .executeTakeFirst();
        if (cutoff !== undefined) {
          await trx
            .deleteFrom('plays')
            .where('user_id', '=', userId)
            .where('played_at', '<', cutoff.played_at)
            .execute();
        }
      });
    },

    async recent(userId, limit) {
      // Latest play per song; id breaks ties between plays recorded in the same millisecond (ids only grow).
      const rows = await db
        .selectFrom('plays')
        .select((eb) => ['song_id', eb.fn.max('played_at').as('played_at'), eb.fn.max('id').as('last_id')])
        .where('user_id', '=', userId)
        .groupBy('song_id')
        .orderBy('played_at', 'desc')
        .orderBy('last_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ songId: row.song_id, playedAt: row.played_at }));
    },
  };
}
