import type { Kysely } from 'kysely';
import { albumInScope, artistInScope, narrowedTo, songInScope, type SongScope } from '../../db/library-visibility.js';
import { foreignKeyViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';

/** What a star is on, besides songs (a song's star is the web app's like, in the likes table). */
export type StarKind = 'album' | 'artist';

const TABLE = { album: 'album_stars', artist: 'artist_stars' } as const;

/** Ids → the ISO date the user starred (or liked) them; ids not starred are absent. */
export type StarDates = Map<number, string>;

/**
 * The SQL of Subsonic's stars (issue 13, migration 011). Albums and artists have star tables of their own; the
 * dates of song stars are the likes' `created_at`. Every read is by the (user, item) primary key or the
 * (user_id, created_at) index, and bounded.
 */
export interface SubsonicStarsRepository {
  /** Stars the items (idempotent: a second star keeps the first date). False when one was deleted meanwhile. */
  star(kind: StarKind, userId: number, ids: readonly number[], at: string): Promise<boolean>;
  unstar(kind: StarKind, userId: number, ids: readonly number[]): Promise<void>;
  /** When the user starred these albums or artists. */
  starDates(kind: StarKind, userId: number, ids: readonly number[]): Promise<StarDates>;
  /** When the user liked these songs. */
  likeDates(userId: number, songIds: readonly number[]): Promise<StarDates>;
  /**
   * The user's starred albums or artists, most recently starred first, with the dates; only those in the scope (issue
   * 25) when one is given.
   */
  starred(
    kind: StarKind,
    userId: number,
    limit: number,
    offset: number,
    scope?: SongScope,
  ): Promise<{ id: number; at: string }[]>;
  /** The ids of the albums the user starred (in the scope), most recently starred first (getAlbumList2 type=starred). */
  starredAlbumIds(userId: number, limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** The ids of the songs the user liked (in the scope), most recently liked first (getStarred's songs). */
  likedSongIds(userId: number, limit: number, scope: SongScope): Promise<number[]>;
}

export function createSubsonicStarsRepository(db: Kysely<DB>): SubsonicStarsRepository {
  const repository: SubsonicStarsRepository = {
    async star(kind, userId, ids, at) {
      if (ids.length === 0) return true;
      const rows = ids.map((id) =>
        kind === 'album'
          ? { user_id: userId, album_id: id, created_at: at }
          : { user_id: userId, artist_id: id, created_at: at },
      );
      try {
        if (kind === 'album') {
          await db
            .insertInto('album_stars')
            .values(rows as { user_id: number; album_id: number; created_at: string }[])
            .onConflict((oc) => oc.columns(['user_id', 'album_id']).doNothing())
            .execute();
        } else {
          await db
            .insertInto('artist_stars')
            .values(rows as { user_id: number; artist_id: number; created_at: string }[])
            .onConflict((oc) => oc.columns(['user_id', 'artist_id']).doNothing())
            .execute();
        }
        return true;
      } catch (error) {
        if (foreignKeyViolation(error)) return false;
        throw error;
      }
    },

    async unstar(kind, userId, ids) {
      if (ids.length === 0) return;
      if (kind === 'album') {
        await db
          .deleteFrom('album_stars')
          .where('user_id', '=', userId)
          .where('album_id', 'in', [...ids])
          .execute();
      } else {
        await db
          .deleteFrom('artist_stars')
          .where('user_id', '=', userId)
          .where('artist_id', 'in', [...ids])
          .execute();
      }
    },

    async starDates(kind, userId, ids) {
      if (ids.length === 0) return new Map();
      const rows =
        kind === 'album'
          ? await db
              .selectFrom('album_stars')
              .select(['album_id as id', 'created_at'])
              .where('user_id', '=', userId)
              .where('album_id', 'in', [...ids])
              .execute()
          : await db
              .selectFrom('artist_stars')
              .select(['artist_id as id', 'created_at'])
              .where('user_id', '=', userId)
              .where('artist_id', 'in', [...ids])
              .execute();
      return new Map(rows.map((row) => [row.id, row.created_at]));
    },

    async likeDates(userId, songIds) {
      if (songIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('likes')
        .select(['song_id', 'created_at'])
        .where('user_id', '=', userId)
        .where('song_id', 'in', [...songIds])
        .execute();
      return new Map(rows.map((row) => [row.song_id, row.created_at]));
    },

    async starred(kind, userId, limit, offset, scope = { hidden: [] }) {
      const rows =
        kind === 'album'
          ? await narrowedTo(
              db.selectFrom(TABLE.album).select(['album_id as id', 'created_at as at']).where('user_id', '=', userId),
              albumInScope(scope, 'album_stars.album_id'),
            )
              .orderBy('created_at', 'desc')
              .orderBy('album_id', 'desc')
              .limit(limit)
              .offset(offset)
              .execute()
          : await narrowedTo(
              db.selectFrom(TABLE.artist).select(['artist_id as id', 'created_at as at']).where('user_id', '=', userId),
              artistInScope(scope, 'artist_stars.artist_id'),
            )
              .orderBy('created_at', 'desc')
              .orderBy('artist_id', 'desc')
              .limit(limit)
              .offset(offset)
              .execute();
      return rows;
    },

    async starredAlbumIds(userId, limit, offset, scope) {
      return (await repository.starred('album', userId, limit, offset, scope)).map((row) => row.id);
    },

    async likedSongIds(userId, limit, scope) {
      const rows = await narrowedTo(
        db
          .selectFrom('likes')
          .innerJoin('songs', 'songs.id', 'likes.song_id')
          .select('likes.song_id')
          .where('likes.user_id', '=', userId),
        songInScope(scope),
      )
        .orderBy('likes.created_at', 'desc')
        .orderBy('likes.song_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => row.song_id);
    },
  };
  return repository;
}
