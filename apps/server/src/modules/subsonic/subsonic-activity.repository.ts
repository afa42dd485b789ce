import type { Kysely } from 'kysely';
import type { DB, UserRow } from '../../db/schema.js';

/** One app's report of what its user plays (getNowPlaying). */
export interface NowPlayingRow {
  /** The entry's `playerId`. */
  id: number;
  username: string;
  client: string;
  song_id: number;
  reported_at: string;
  /** What reportPlayback said (playbackReport); null for a plain now-playing scrobble. */
  state: string | null;
  position_ms: number | null;
  position_at: string | null;
  playback_rate: number | null;
}

/** One playback as reportPlayback reports it. */
export interface PlaybackReport {
  songId: number;
  state: 'starting' | 'playing' | 'paused';
  positionMs: number;
  playbackRate: number;
  at: string;
}

/** A user's saved play queue. */
export interface PlayQueueRow {
  currentSongId: number | null;
  positionMs: number;
  changedAt: string;
  changedBy: string;
  /** In queue order. */
  songIds: number[];
}

export interface NewPlayQueue {
  currentSongId: number | null;
  positionMs: number;
  changedAt: string;
  changedBy: string;
  songIds: readonly number[];
  /** The device that saves it (migration 026); null when none. */
  deviceId?: number | null;
  /** The current song's place in `songIds` (a queue may hold a song twice); by default its first place. */
  currentIndex?: number | null;
}

/**
 * What Subsonic apps report of their listening (migration 012): now playing per user and app, and the saved play
 * queue; and users by name, for getUser.
 */
export interface SubsonicActivityRepository {
  /** Records that `client` of the user plays the song now; drops reports older than `staleBefore`. */
  setNowPlaying(userId: number, client: string, songId: number, at: string, staleBefore: string): Promise<void>;
  /**
   * Records a playback report of `client`: a new playback (its play not counted yet) when it is `starting` or names
   * another song than the last report, else the same playback moving on. Drops reports older than `staleBefore`.
   */
  reportPlayback(userId: number, client: string, report: PlaybackReport, staleBefore: string): Promise<void>;
  /** Marks the client's playback of the song as counted; true only for the one call that did (so it counts once). */
  countPlayback(userId: number, client: string, songId: number): Promise<boolean>;
  /** The client's entry goes (its playback stopped). */
  clearNowPlaying(userId: number, client: string): Promise<void>;
  /** Reports since `since`, newest first. */
  nowPlayingSince(since: string): Promise<NowPlayingRow[]>;
  playQueue(userId: number): Promise<PlayQueueRow | undefined>;
  /** Replaces the user's queue in one transaction. */
  savePlayQueue(userId: number, queue: NewPlayQueue): Promise<void>;
  clearPlayQueue(userId: number): Promise<void>;
  /** Case-insensitive, as usernames are unique. */
  findUserByName(username: string): Promise<UserRow | undefined>;
}

/** A plain now-playing report has no playback state. */
const NO_PLAYBACK = { state: null, position_ms: null, position_at: null, playback_rate: null, counted: 0 };

export function createSubsonicActivityRepository(db: Kysely<DB>): SubsonicActivityRepository {
  return {
    async setNowPlaying(userId, client, songId, at, staleBefore) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('subsonic_now_playing')
          .values({ user_id: userId, client, song_id: songId, reported_at: at })
          .onConflict((conflict) =>
            conflict.columns(['user_id', 'client']).doUpdateSet({ song_id: songId, reported_at: at, ...NO_PLAYBACK }),
          )
          .execute();
        await trx.deleteFrom('subsonic_now_playing').where('reported_at', '<', staleBefore).execute();
      });
    },

    async reportPlayback(userId, client, report, staleBefore) {
      const playback = {
        song_id: report.songId,
        reported_at: report.at,
        state: report.state,
        position_ms: report.positionMs,
        position_at: report.at,
        playback_rate: report.playbackRate,
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('subsonic_now_playing')
          .values({ user_id: userId, client, ...playback, counted: 0 })
          .onConflict((conflict) =>
            conflict.columns(['user_id', 'client']).doUpdateSet((eb) => ({
              ...playback,
              // The same playback keeps whether it counted; a new one (starting, or another song) has not yet.
              counted:
                report.state === 'starting'
                  ? 0
                  : eb
                      .case()
                      .when('subsonic_now_playing.song_id', '=', report.songId)
                      .then(eb.ref('subsonic_now_playing.counted'))
                      .else(0)
                      .end(),
            })),
          )
          .execute();
        await trx.deleteFrom('subsonic_now_playing').where('reported_at', '<', staleBefore).execute();
      });
    },

    async countPlayback(userId, client, songId) {
      const result = await db
        .updateTable('subsonic_now_playing')
        .set({ counted: 1 })
        .where('user_id', '=', userId)
        .where('client', '=', client)
        .where('song_id', '=', songId)
        .where('counted', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async clearNowPlaying(userId, client) {
      await db.deleteFrom('subsonic_now_playing').where('user_id', '=', userId).where('client', '=', client).execute();
    },

    nowPlayingSince(since) {
      return db
        .selectFrom('subsonic_now_playing as n')
        .innerJoin('users as u', 'u.id', 'n.user_id')
        .select([
          'n.id',
          'u.username',
          'n.client',
          'n.song_id',
          'n.reported_at',
          'n.state',
          'n.position_ms',
          'n.position_at',
          'n.playback_rate',
        ])
        .where('n.reported_at', '>=', since)
        .orderBy('n.reported_at', 'desc')
        .orderBy('n.id', 'desc')
        .execute();
    },

    async playQueue(userId) {
      const queue = await db.selectFrom('play_queues').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (queue === undefined) return undefined;
      const songs = await db
        .selectFrom('play_queue_songs')
        .select('song_id')
        .where('user_id', '=', userId)
        .orderBy('position')
        .execute();
      return {
        currentSongId: queue.current_song_id,
        positionMs: queue.position_ms,
        changedAt: queue.changed_at,
        changedBy: queue.changed_by,
        songIds: songs.map((row) => row.song_id),
      };
    },

    async savePlayQueue(userId, queue) {
      await db.transaction().execute(async (trx) => {
        // One statement for the queue's row, which also locks it: two saves at once (two devices) take turns.
        const row = {
          current_song_id: queue.currentSongId,
          position_ms: queue.positionMs,
          changed_at: queue.changedAt,
          changed_by: queue.changedBy,
          device_id: queue.deviceId ?? null,
          current_index:
            queue.currentIndex ?? (queue.currentSongId === null ? null : queue.songIds.indexOf(queue.currentSongId)),
        };
        await trx
          .insertInto('play_queues')
          .values({ user_id: userId, ...row })
          .onConflict((conflict) => conflict.column('user_id').doUpdateSet(row))
          .execute();
        // The row is now this transaction's (a second save waits here on PostgreSQL): its songs are replaced.
        await trx.deleteFrom('play_queue_songs').where('user_id', '=', userId).execute();
        if (queue.songIds.length > 0) {
          await trx
            .insertInto('play_queue_songs')
            .values(queue.songIds.map((songId, position) => ({ user_id: userId, position, song_id: songId })))
            .execute();
        }
      });
    },

    async clearPlayQueue(userId) {
      // play_queue_songs follow by cascade.
      await db.deleteFrom('play_queues').where('user_id', '=', userId).execute();
    },

    findUserByName(username) {
      return db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['username']), '=', eb.fn('lower', [eb.val(username)])))
        .executeTakeFirst();
    },
  };
}
