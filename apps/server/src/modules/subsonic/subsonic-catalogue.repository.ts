import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import {
  albumInScope,
  artistInScope,
  narrowedTo,
  songInScope,
  songSeen,
  type SongScope,
} from '../../db/library-visibility.js';
import type { ArtistRow, DB } from '../../db/schema.js';
import { albumListQuery, albumListRow, type AlbumListRow } from '../albums/albums.repository.js';
import { songListQuery, type SongListRow } from '../songs/songs.repository.js';

/** What a playlist adds up to: its songs, their length, and when a song was last put on it. */
export interface PlaylistSummary {
  songCount: number;
  durationMs: number;
  lastAddedAt: string | null;
}

/** Whose top songs: an artist's id (OpenSubsonic's topSongsByArtistId), or a name as Subsonic's getTopSongs gives it. */
export type TopSongsArtist = { id: number } | { name: string };

/**
 * The SQL only Subsonic needs (issue 13): the whole catalogue paged in a stable order (search3 with an empty query,
 * how apps such as Symfonium sync a library), rows by ids, which ids exist, and what a playlist list shows. Every
 * query is bounded and walks a primary key or an index. Reads take the caller's SongScope (issue 25: what they see,
 * and `musicFolderId`'s folder), or their hidden libraries.
 */
export interface SubsonicCatalogueRepository {
  /** Songs, artists, albums by id ascending: new items land at the end, so paging with offsets stays stable. */
  songPage(limit: number, offset: number, scope: SongScope): Promise<SongListRow[]>;
  artistPage(limit: number, offset: number, scope: SongScope): Promise<ArtistRow[]>;
  albumPage(limit: number, offset: number, scope: SongScope): Promise<AlbumListRow[]>;
  /** Rows of these ids, in no particular order; unknown ids are skipped. */
  artistsByIds(ids: readonly number[]): Promise<ArtistRow[]>;
  /**
   * getTopSongs (issue 28): the songs of the artist (by id, or by name in any case; main or credited) the server's
   * listeners heard most (counted listens), then the most played, outside the `hidden` libraries and not missing.
   */
  topSongIds(artist: TopSongsArtist, count: number, hidden: readonly number[]): Promise<number[]>;
  /** Those of the artist or album ids that are in the scope (all of them when it narrows nothing). */
  inScope(kind: 'album' | 'artist', ids: readonly number[], scope: SongScope): Promise<Set<number>>;
  /** How many albums each artist has, of those not only in `hidden` libraries (artists with none are absent). */
  albumCounts(artistIds: readonly number[], hidden: readonly number[]): Promise<Map<number, number>>;
  /** Those of the ids that exist and are not only in `hidden` libraries (issue 25: the same as not existing). */
  existing(kind: 'song' | 'album' | 'artist', ids: readonly number[], hidden: readonly number[]): Promise<Set<number>>;
  /** Each playlist's songs, length and last addition, counting only the songs not in `hidden` libraries. */
  playlistSummaries(playlistIds: readonly number[], hidden: readonly number[]): Promise<Map<number, PlaylistSummary>>;
  usernames(userIds: readonly number[]): Promise<Map<number, string>>;
  /** The id of the user of this name (any case, as sign-in takes it). */
  userIdByName(username: string): Promise<number | undefined>;
}

const TABLE = { song: 'songs', album: 'albums', artist: 'artists' } as const;

export function createSubsonicCatalogueRepository(db: Kysely<DB>): SubsonicCatalogueRepository {
  return {
    async topSongIds(artist, count, hidden) {
      const named = (eb: ExpressionBuilder<DB, 'artists'>) =>
        'id' in artist
          ? eb('artists.id', '=', artist.id)
          : eb(sql<string>`lower(artists.name)`, '=', artist.name.trim().toLowerCase());
      const rows = await db
        .selectFrom('songs')
        .leftJoin(
          (qb) =>
            qb
              .selectFrom('listens')
              .select((eb) => ['listens.song_id', eb.fn.countAll<number>().as('heard')])
              .groupBy('listens.song_id')
              .as('heard'),
          (join) => join.onRef('heard.song_id', '=', 'songs.id'),
        )
        .select('songs.id')
        .where('songs.missing_since', 'is', null)
        .where(hidden.length > 0 ? songSeen(hidden) : sql<boolean>`1 = 1`)
        .where((eb) =>
          eb.or([
            eb.exists(
              eb.selectFrom('artists').select('artists.id').whereRef('artists.id', '=', 'songs.artist_id').where(named),
            ),
            eb.exists(
              eb
                .selectFrom('song_artists')
                .innerJoin('artists', 'artists.id', 'song_artists.artist_id')
                .select('song_artists.song_id')
                .whereRef('song_artists.song_id', '=', 'songs.id')
                .where(named),
            ),
          ]),
        )
        .orderBy(sql`coalesce(heard.heard, 0)`, 'desc')
        .orderBy('songs.play_count', 'desc')
        .orderBy('songs.id')
        .limit(count)
        .execute();
      return rows.map((row) => row.id);
    },

    songPage(limit, offset, scope) {
      // The offset is skipped on the primary key alone, then only the page's rows are joined.
      const page = db
        .selectFrom('songs')
        .select('id')
        .where('missing_since', 'is', null)
        .$call((query) => narrowedTo(query, songInScope(scope)))
        .orderBy('id', 'asc')
        .limit(limit)
        .offset(offset);
      return songListQuery(db).where('songs.id', 'in', page).orderBy('songs.id', 'asc').execute();
    },

    artistPage(limit, offset, scope) {
      return narrowedTo(db.selectFrom('artists').selectAll(), artistInScope(scope))
        .orderBy('id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async albumPage(limit, offset, scope) {
      const page = narrowedTo(db.selectFrom('albums').select('id'), albumInScope(scope))
        .orderBy('id', 'asc')
        .limit(limit)
        .offset(offset);
      const rows = await albumListQuery(db, scope.hidden)
        .where('albums.id', 'in', page)
        .orderBy('albums.id', 'asc')
        .execute();
      return rows.map(albumListRow);
    },

    async artistsByIds(ids) {
      if (ids.length === 0) return [];
      return db
        .selectFrom('artists')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
    },

    async inScope(kind, ids, scope) {
      if (ids.length === 0) return new Set();
      const condition = kind === 'album' ? albumInScope(scope) : artistInScope(scope);
      if (condition === null) return new Set(ids);
      const rows = await db
        .selectFrom(TABLE[kind])
        .select(`${TABLE[kind]}.id as id`)
        .where(`${TABLE[kind]}.id`, 'in', [...ids])
        .where(condition)
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    async albumCounts(artistIds, hidden) {
      if (artistIds.length === 0) return new Map();
      const rows = await narrowedTo(db.selectFrom('albums'), albumInScope({ hidden }))
        .select((eb) => ['artist_id', eb.fn.countAll<number | string>().as('n')])
        .where('artist_id', 'in', [...artistIds])
        .groupBy('artist_id')
        .execute();
      return new Map(rows.flatMap((row) => (row.artist_id === null ? [] : [[row.artist_id, Number(row.n)]])));
    },

    async existing(kind, ids, hidden) {
      if (ids.length === 0) return new Set();
      const scope = { hidden };
      const condition =
        kind === 'song' ? songInScope(scope) : kind === 'album' ? albumInScope(scope) : artistInScope(scope);
      const rows = await narrowedTo(
        db
          .selectFrom(TABLE[kind])
          .select(`${TABLE[kind]}.id as id`)
          .where(`${TABLE[kind]}.id`, 'in', [...ids]),
        condition,
      ).execute();
      return new Set(rows.map((row) => row.id));
    },

    async playlistSummaries(playlistIds, hidden) {
      if (playlistIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('playlist_songs')
        .innerJoin('songs', 'songs.id', 'playlist_songs.song_id')
        .select((eb) => [
          'playlist_songs.playlist_id',
          eb.fn.countAll<number | string>().as('n'),
          sql<number | string>`coalesce(sum(songs.duration_ms), 0)`.as('ms'),
          eb.fn.max('playlist_songs.added_at').as('last_added_at'),
        ])
        .where('playlist_songs.playlist_id', 'in', [...playlistIds])
        .$if(hidden.length > 0, (query) => query.where(songSeen(hidden)))
        .groupBy('playlist_songs.playlist_id')
        .execute();
      return new Map(
        rows.map((row) => [
          row.playlist_id,
          { songCount: Number(row.n), durationMs: Number(row.ms), lastAddedAt: row.last_added_at },
        ]),
      );
    },

    async usernames(userIds) {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('id', 'in', [...new Set(userIds)])
        .execute();
      return new Map(rows.map((row) => [row.id, row.username]));
    },

    async userIdByName(username) {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
      return row?.id;
    },
  };
}
