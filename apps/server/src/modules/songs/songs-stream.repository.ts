import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { attachSongIds, type ArtistWithSongs } from '../artists/artists.repository.js';
import { songListQuery, withCredits, type SongListRow } from './songs.repository.js';

/** Which songs a whole-catalogue read covers: all of them, or one genre's or one artist's. */
export interface CatalogueFilter {
  genre?: string;
  artistId?: number;
}

/**
 * The whole catalogue read in bounded slices (keyset reads, never OFFSET), so that no single query holds the event
 * loop for long on SQLite (better-sqlite3 runs each query synchronously) nor loads everything at once on PostgreSQL.
 */
export interface SongsStreamRepository {
  /** The newest song's id, the upper bound of one whole read (0 without songs). */
  newestSongId(): Promise<number>;
  /** At most `limit` songs with an id of at most `atMost`, newest (highest id) first. */
  songsUpTo(atMost: number, limit: number, filter: CatalogueFilter): Promise<SongListRow[]>;
  /** Which songs with an id between `low` and `high` (both included) the user liked. */
  likedIdsBetween(userId: number, low: number, high: number): Promise<Set<number>>;
  /** For each song with an id between `low` and `high`: the user's own playlists holding it, in id order. */
  ownPlaylistIdsBetween(userId: number, low: number, high: number): Promise<Map<number, number[]>>;
  /**
   * At most `limit` artists after `afterName` (all from the first when null) in name order, each with the ids of its
   * songs up to `songsUpTo`, in id order. Artist names are unique, so the name alone is the key.
   */
  artistsAfter(afterName: string | null, limit: number, songsUpTo: number): Promise<ArtistWithSongs[]>;
}

export function createSongsStreamRepository(db: Kysely<DB>): SongsStreamRepository {
  return {
    async newestSongId() {
      const row = await db
        .selectFrom('songs')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      return row?.id ?? 0;
    },

    async songsUpTo(atMost, limit, filter) {
      let query = songListQuery(db).where('songs.id', '<=', atMost).where('songs.missing_since', 'is', null);
      if (filter.genre !== undefined) query = query.where('songs.genre', '=', filter.genre);
      if (filter.artistId !== undefined) query = query.where('songs.artist_id', '=', filter.artistId);
      return withCredits(db, await query.orderBy('songs.id', 'desc').limit(limit).execute());
    },

    async likedIdsBetween(userId, low, high) {
      const rows = await db
        .selectFrom('likes')
        .select('song_id')
        .where('user_id', '=', userId)
        .where('song_id', '>=', low)
        .where('song_id', '<=', high)
        .execute();
      return new Set(rows.map((row) => row.song_id));
    },

    async ownPlaylistIdsBetween(userId, low, high) {
      const rows = await db
        .selectFrom('playlist_songs')
        .innerJoin('playlists', 'playlists.id', 'playlist_songs.playlist_id')
        .select(['playlist_songs.song_id', 'playlist_songs.playlist_id'])
        .where('playlists.owner_id', '=', userId)
        .where('playlist_songs.song_id', '>=', low)
        .where('playlist_songs.song_id', '<=', high)
        .orderBy('playlist_songs.playlist_id', 'asc')
        .execute();
      const memberships = new Map<number, number[]>();
      for (const row of rows) {
        const ids = memberships.get(row.song_id);
        if (ids) ids.push(row.playlist_id);
        else memberships.set(row.song_id, [row.playlist_id]);
      }
      return memberships;
    },

    async artistsAfter(afterName, limit, songsUpTo) {
      let query = db.selectFrom('artists').selectAll();
      if (afterName !== null) query = query.where('name', '>', afterName);
      const artists = await query.orderBy('name', 'asc').orderBy('id', 'asc').limit(limit).execute();
      if (artists.length === 0) return [];
      const songs = await db
        .selectFrom('songs')
        .select(['id', 'artist_id'])
        .where(
          'artist_id',
          'in',
          artists.map((artist) => artist.id),
        )
        .where('id', '<=', songsUpTo)
        .where('missing_since', 'is', null)
        .orderBy('id', 'asc')
        .execute();
      return attachSongIds(artists, songs);
    },
  };
}
