import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { songSeen } from '../../db/library-visibility.js';
import { attachSongIds, type ArtistsRepository, type ArtistWithSongs } from '../artists/artists.repository.js';
import { byArtist, songListQuery, withCredits, type SongListRow } from './songs.repository.js';

/** Which songs a whole-catalogue read covers: all of them, or one genre's or one artist's. */
export interface CatalogueFilter {
  genre?: string;
  artistId?: number;
  /** Libraries whose songs are left out (those hidden from the viewer). */
  hidden?: readonly number[];
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
  /** Issue 28: the user's stars on the songs whose ids are in [low, high]. */
  ratingsBetween(userId: number, low: number, high: number): Promise<Map<number, number>>;
  /**
   * At most `limit` artists after `afterName` (all from the first when null) in name order, each with the ids of its
   * songs up to `songsUpTo`, in id order. Artist names are unique, so the name alone is the key.
   */
  artistsAfter(
    afterName: string | null,
    limit: number,
    songsUpTo: number,
    hidden: readonly number[],
  ): Promise<ArtistWithSongs[]>;
}

/** `artistsRepository` answers which artists are left out for hidden libraries (the artist list's rule). */
export function createSongsStreamRepository(
  db: Kysely<DB>,
  artistsRepository: Pick<ArtistsRepository, 'listByIds'>,
): SongsStreamRepository {
  /**
   * Up to `limit` artists after `afterName` in name order, less those only in hidden libraries (the artist list's
   * rule): pages left empty by that are read past, so an empty answer is the end.
   */
  async function seenArtistsAfter(afterName: string | null, limit: number, hidden: readonly number[]) {
    for (let after = afterName; ;) {
      let query = db.selectFrom('artists').selectAll();
      if (after !== null) query = query.where('name', '>', after);
      const page = await query.orderBy('name', 'asc').orderBy('id', 'asc').limit(limit).execute();
      const last = page.at(-1);
      if (hidden.length === 0 || last === undefined) return page;
      const kept = new Set(
        (
          await artistsRepository.listByIds(
            page.map((row) => row.id),
            hidden,
          )
        ).map((artist) => artist.id),
      );
      const artists = page.filter((artist) => kept.has(artist.id));
      if (artists.length > 0 || page.length < limit) return artists;
      after = last.name;
    }
  }

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
      if (filter.artistId !== undefined) query = query.where(byArtist(filter.artistId));
      if (filter.hidden !== undefined && filter.hidden.length > 0) query = query.where(songSeen(filter.hidden));
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

    async ratingsBetween(userId, low, high) {
      const rows = await db
        .selectFrom('song_ratings')
        .select(['song_id', 'rating'])
        .where('user_id', '=', userId)
        .where('song_id', '>=', low)
        .where('song_id', '<=', high)
        .execute();
      return new Map(rows.map((row) => [row.song_id, row.rating]));
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

    async artistsAfter(afterName, limit, songsUpTo, hidden) {
      const artists = await seenArtistsAfter(afterName, limit, hidden);
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
        .$if(hidden.length > 0, (seen) => seen.where(songSeen(hidden)))
        .orderBy('id', 'asc')
        .execute();
      return attachSongIds(artists, songs);
    },
  };
}
