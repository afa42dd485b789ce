import type { SongSortColumn, SortDirection } from '@tonearm/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { songSeen } from '../../db/library-visibility.js';
import type { DB } from '../../db/schema.js';
import { byArtist, songListQuery, type SongListRow } from './songs.repository.js';

/** What the in-memory catalogue keeps of a song: which lists (artist, genre) hold it. */
export interface CatalogueEntry {
  id: number;
  artist_id: number | null;
  genre: string;
  /** Its library; null or absent for a song held in the blob store. */
  library_id?: number | null;
}

/** Where the in-memory catalogue comes from. */
export interface CatalogueSource {
  /** Moves with every write that changes which songs a list holds (migration 004). */
  version(): Promise<number>;
  /** Up to `limit` songs after `afterId`, in id order. */
  chunk(afterId: number, limit: number): Promise<CatalogueEntry[]>;
  /** Every credit of an artist on a song beside its main artist (song_artists, role artist). */
  featured(): Promise<{ song_id: number; artist_id: number }[]>;
}

/** The catalogue narrowed to one artist or one genre. */
export interface CatalogueFilter {
  artistId?: number | undefined;
  genre?: string | undefined;
  /** Libraries whose songs are left out (those hidden from the viewer, issue 25). */
  hidden?: readonly number[] | undefined;
}

/** Where a liked-songs page starts: after this like (most recent first). */
export interface LikedKey {
  likedAt: string;
  songId: number;
}

/** Where a playlist page starts: after this entry (playlist order). */
export interface PlaylistKey {
  position: number;
  addedAt: string;
  songId: number;
}

/** A sorted page's order: the column, its direction, and after which song (its sort key and id). */
export interface SongSort {
  /** `added` is id order, `rating` is per user (`rated`): neither is a column of the songs table. */
  column: Exclude<SongSortColumn, 'added' | 'rating'>;
  direction: SortDirection;
}
export type SortKey = string | number;
export interface SortedAfter {
  key: SortKey;
  songId: number;
}
export type SortedSongRow = SongListRow & { sort_key: SortKey };

/**
 * The expression a sorted page orders by (migrations 022 and 023 index those of the songs table): text ignores case, and a
 * song without an artist, album or duration sorts as '' or -1, so every key is comparable and never null.
 */
function sortKey(column: SongSort['column']): RawBuilder<SortKey> {
  switch (column) {
    case 'title':
      return sql<string>`lower(${sql.ref('songs.name')})`;
    case 'artist':
      return sql<string>`lower(coalesce(${sql.ref('artists.name')}, ''))`;
    case 'album':
      return sql<string>`lower(coalesce(${sql.ref('albums.name')}, ''))`;
    case 'genre':
      return sql<string>`${sql.ref('songs.genre')}`;
    case 'duration':
      return sql<number>`coalesce(${sql.ref('songs.duration_ms')}, -1)`;
    case 'plays':
      return sql<number>`${sql.ref('songs.play_count')}`;
  }
}

export type LikedSongRow = SongListRow & { liked_at: string };
export type PlaylistSongListRow = SongListRow & { position: number; added_at: string };

/** The song `songRef` names is in none of the `hidden` libraries (for counts that do not join songs). */
function notHidden(songRef: 'likes.song_id' | 'playlist_songs.song_id', hidden: readonly number[]) {
  return sql<SqlBool>`not exists (select 1 from songs where songs.id = ${sql.ref(songRef)} and ${sql.ref(
    'songs.library_id',
  )} in (${sql.join([...hidden])}))`;
}

/** The SQL of the keyset song pages: each reads an index in page order from the cursor on, `limit` rows at most. */
export interface SongPagesRepository extends CatalogueSource {
  /** Newest first (id descending), before `beforeId` when given. */
  newest(filter: CatalogueFilter, beforeId: number | undefined, limit: number): Promise<SongListRow[]>;
  /** First added first (id ascending), after `afterId` when given. */
  oldest(filter: CatalogueFilter, afterId: number | undefined, limit: number): Promise<SongListRow[]>;
  /** Sorted by a column (`sortKey`), then by id in the same direction, after `after` when given. */
  sorted(
    filter: CatalogueFilter,
    sort: SongSort,
    after: SortedAfter | undefined,
    limit: number,
  ): Promise<SortedSongRow[]>;
  /**
   * Issue 28: by the user's own stars (`sort_key`, 0 for unrated), then by id in the same direction: descending puts
   * the highest rated first and the unrated last, ascending the other way round.
   */
  rated(
    filter: CatalogueFilter,
    userId: number,
    direction: SortDirection,
    after: SortedAfter | undefined,
    limit: number,
  ): Promise<SortedSongRow[]>;
  liked(viewer: SongsOf, after: LikedKey | undefined, limit: number): Promise<LikedSongRow[]>;
  countLiked(viewer: SongsOf): Promise<number>;
  inPlaylist(
    playlistId: number,
    hidden: readonly number[],
    after: PlaylistKey | undefined,
    limit: number,
  ): Promise<PlaylistSongListRow[]>;
  /** Where the song is in the playlist now (undefined when it is not there any more). */
  playlistKey(playlistId: number, songId: number): Promise<PlaylistKey | undefined>;
  countInPlaylist(playlistId: number, hidden: readonly number[]): Promise<number>;
}

/** A user, and the libraries whose songs they do not see. */
export interface SongsOf {
  userId: number;
  hidden: readonly number[];
}

export function createSongPagesRepository(db: Kysely<DB>): SongPagesRepository {
  /** The songs of the catalogue that pass the filter (a missing file's song leaves every list). */
  const catalogueQuery = ({ artistId, genre, hidden = [] }: CatalogueFilter) => {
    let query = songListQuery(db).where('songs.missing_since', 'is', null);
    if (hidden.length > 0) query = query.where(songSeen(hidden));
    if (artistId !== undefined) query = query.where(byArtist(artistId));
    if (genre !== undefined) query = query.where('songs.genre', '=', genre);
    return query;
  };

  return {
    async version() {
      const row = await db.selectFrom('catalogue_version').select('version').where('id', '=', 1).executeTakeFirst();
      return row?.version ?? 0;
    },

    chunk(afterId, limit) {
      return (
        db
          .selectFrom('songs')
          .select(['id', 'artist_id', 'genre', 'library_id'])
          .where('id', '>', afterId)
          // A song whose library file is missing leaves every list (it stays in playlists, shown unavailable).
          .where('missing_since', 'is', null)
          .orderBy('id')
          .limit(limit)
          .execute()
      );
    },

    featured() {
      return db
        .selectFrom('song_artists')
        .select(['song_id', 'artist_id'])
        .where('role', '=', 'artist')
        .orderBy('song_id')
        .execute();
    },

    newest(filter, beforeId, limit) {
      let query = catalogueQuery(filter);
      if (beforeId !== undefined) query = query.where('songs.id', '<', beforeId);
      return query.orderBy('songs.id', 'desc').limit(limit).execute();
    },

    oldest(filter, afterId, limit) {
      let query = catalogueQuery(filter);
      if (afterId !== undefined) query = query.where('songs.id', '>', afterId);
      return query.orderBy('songs.id', 'asc').limit(limit).execute();
    },

    sorted(filter, { column, direction }, after, limit) {
      const key = sortKey(column);
      let query = catalogueQuery(filter).select(key.as('sort_key'));
      if (after !== undefined) {
        // A row value comparison, which both dialects answer from an index on (key, id).
        const beyond = direction === 'asc' ? sql`>` : sql`<`;
        query = query.where(sql<SqlBool>`(${key}, ${sql.ref('songs.id')}) ${beyond} (${after.key}, ${after.songId})`);
      }
      return query.orderBy(key, direction).orderBy('songs.id', direction).limit(limit).execute();
    },

    async rated(filter, userId, direction, after, limit) {
      // Two keyset reads rather than one sort of the whole catalogue by a per-user key: the user's rated songs (few,
      // read through song_ratings' primary key) by stars, and the unrated ones in id order (the songs' primary key,
      // each checked against that key), so a page costs about what a newest-first page costs at any catalogue size.
      const ratedPart = async (from: SortedAfter | undefined, count: number): Promise<SortedSongRow[]> => {
        let query = catalogueQuery(filter)
          .innerJoin('song_ratings', (join) =>
            join.onRef('song_ratings.song_id', '=', 'songs.id').on('song_ratings.user_id', '=', userId),
          )
          .select('song_ratings.rating as sort_key');
        if (from !== undefined) {
          query = query.where((eb) =>
            eb(
              eb.refTuple('song_ratings.rating', 'songs.id'),
              direction === 'asc' ? '>' : '<',
              eb.tuple(Number(from.key), from.songId),
            ),
          );
        }
        return query.orderBy('song_ratings.rating', direction).orderBy('songs.id', direction).limit(count).execute();
      };
      const unratedPart = async (fromId: number | undefined, count: number): Promise<SortedSongRow[]> => {
        let query = catalogueQuery(filter)
          .select(sql<number>`0`.as('sort_key'))
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('song_ratings')
                  .select('song_ratings.song_id')
                  .whereRef('song_ratings.song_id', '=', 'songs.id')
                  .where('song_ratings.user_id', '=', userId),
              ),
            ),
          );
        if (fromId !== undefined) query = query.where('songs.id', direction === 'asc' ? '>' : '<', fromId);
        return query.orderBy('songs.id', direction).limit(count).execute();
      };
      const inUnrated = after !== undefined && Number(after.key) === 0;
      if (direction === 'desc') {
        if (inUnrated) return unratedPart(after.songId, limit);
        const rows = await ratedPart(after, limit);
        return rows.length < limit ? [...rows, ...(await unratedPart(undefined, limit - rows.length))] : rows;
      }
      if (after !== undefined && !inUnrated) return ratedPart(after, limit);
      const rows = await unratedPart(after?.songId, limit);
      return rows.length < limit ? [...rows, ...(await ratedPart(undefined, limit - rows.length))] : rows;
    },

    liked({ userId, hidden }, after, limit) {
      let query = songListQuery(db)
        .innerJoin('likes', 'likes.song_id', 'songs.id')
        .select('likes.created_at as liked_at')
        .where('likes.user_id', '=', userId);
      if (hidden.length > 0) query = query.where(songSeen(hidden));
      if (after !== undefined) {
        query = query.where((eb) =>
          eb(eb.refTuple('likes.created_at', 'likes.song_id'), '<', eb.tuple(after.likedAt, after.songId)),
        );
      }
      return query.orderBy('likes.created_at', 'desc').orderBy('likes.song_id', 'desc').limit(limit).execute();
    },

    async countLiked({ userId, hidden }) {
      const row = await db
        .selectFrom('likes')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .$if(hidden.length > 0, (query) => query.where(notHidden('likes.song_id', hidden)))
        .executeTakeFirstOrThrow();
      return row.count;
    },

    inPlaylist(playlistId, hidden, after, limit) {
      let query = songListQuery(db)
        .innerJoin('playlist_songs', 'playlist_songs.song_id', 'songs.id')
        .select(['playlist_songs.position', 'playlist_songs.added_at'])
        .where('playlist_songs.playlist_id', '=', playlistId);
      if (hidden.length > 0) query = query.where(songSeen(hidden));
      if (after !== undefined) {
        query = query
          .where('playlist_songs.position', '>=', after.position)
          .where((eb) =>
            eb(
              eb.refTuple('playlist_songs.position', 'playlist_songs.added_at', 'playlist_songs.song_id'),
              '>',
              eb.tuple(after.position, after.addedAt, after.songId),
            ),
          );
      }
      return query
        .orderBy('playlist_songs.position')
        .orderBy('playlist_songs.added_at')
        .orderBy('playlist_songs.song_id')
        .limit(limit)
        .execute();
    },

    async playlistKey(playlistId, songId) {
      const row = await db
        .selectFrom('playlist_songs')
        .select(['position', 'added_at', 'song_id'])
        .where('playlist_id', '=', playlistId)
        .where('song_id', '=', songId)
        .executeTakeFirst();
      return row && { position: row.position, addedAt: row.added_at, songId: row.song_id };
    },

    async countInPlaylist(playlistId, hidden) {
      const row = await db
        .selectFrom('playlist_songs')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('playlist_id', '=', playlistId)
        .$if(hidden.length > 0, (query) => query.where(notHidden('playlist_songs.song_id', hidden)))
        .executeTakeFirstOrThrow();
      return row.count;
    },
  };
}
