import { sql, type Kysely } from 'kysely';
import type { ArtistRow, DB } from '../../db/schema.js';
import { albumListQuery, albumListRow, type AlbumListRow } from '../albums/albums.repository.js';
import { songListQuery, type SongListRow } from '../songs/songs.repository.js';

/** What a playlist adds up to: its songs, their length, and when a song was last put on it. */
export interface PlaylistSummary {
  songCount: number;
  durationMs: number;
  lastAddedAt: string | null;
}

/**
 * The SQL only Subsonic needs (issue 13): the whole catalogue paged in a stable order (search3 with an empty query,
 * how apps such as Symfonium sync a library), rows by ids, which ids exist, and what a playlist list shows. Every
 * query is bounded and walks a primary key or an index.
 */
export interface SubsonicCatalogueRepository {
  /** Songs, artists, albums by id ascending: new items land at the end, so paging with offsets stays stable. */
  songPage(limit: number, offset: number): Promise<SongListRow[]>;
  artistPage(limit: number, offset: number): Promise<ArtistRow[]>;
  albumPage(limit: number, offset: number): Promise<AlbumListRow[]>;
  /** Rows of these ids, in no particular order; unknown ids are skipped. */
  artistsByIds(ids: readonly number[]): Promise<ArtistRow[]>;
  /** How many albums each artist has (artists with none are absent). */
  albumCounts(artistIds: readonly number[]): Promise<Map<number, number>>;
  /** Those of the ids that exist. */
  existing(kind: 'song' | 'album' | 'artist', ids: readonly number[]): Promise<Set<number>>;
  playlistSummaries(playlistIds: readonly number[]): Promise<Map<number, PlaylistSummary>>;
  usernames(userIds: readonly number[]): Promise<Map<number, string>>;
  /** The id of the user of this name (any case, as sign-in takes it). */
  userIdByName(username: string): Promise<number | undefined>;
}

const TABLE = { song: 'songs', album: 'albums', artist: 'artists' } as const;

export function createSubsonicCatalogueRepository(db: Kysely<DB>): SubsonicCatalogueRepository {
  return {
    songPage(limit, offset) {
      // The offset is skipped on the primary key alone, then only the page's rows are joined.
      const page = db
        .selectFrom('songs')
        .select('id')
        .where('missing_since', 'is', null)
        .orderBy('id', 'asc')
        .limit(limit)
        .offset(offset);
      return songListQuery(db).where('songs.id', 'in', page).orderBy('songs.id', 'asc').execute();
    },

    artistPage(limit, offset) {
      return db.selectFrom('artists').selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute();
    },

    async albumPage(limit, offset) {
      const page = db.selectFrom('albums').select('id').orderBy('id', 'asc').limit(limit).offset(offset);
      const rows = await albumListQuery(db).where('albums.id', 'in', page).orderBy('albums.id', 'asc').execute();
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

    async albumCounts(artistIds) {
      if (artistIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('albums')
        .select((eb) => ['artist_id', eb.fn.countAll<number | string>().as('n')])
        .where('artist_id', 'in', [...artistIds])
        .groupBy('artist_id')
        .execute();
      return new Map(rows.flatMap((row) => (row.artist_id === null ? [] : [[row.artist_id, Number(row.n)]])));
    },

    async existing(kind, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom(TABLE[kind])
        .select('id')
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    async playlistSummaries(playlistIds) {
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
