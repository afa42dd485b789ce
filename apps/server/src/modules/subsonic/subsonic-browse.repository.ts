import { sql, type Kysely } from 'kysely';
import { albumInScope, artistInScope, narrowedTo, songInScope, type SongScope } from '../../db/library-visibility.js';
import type { ArtistRow, DB } from '../../db/schema.js';
import { albumListQuery, albumListRow, type AlbumListRow } from '../albums/albums.repository.js';
import type { FolderReader } from './music-folders.js';

/**
 * The SQL of the Subsonic browsing methods that the web API's services have no efficient form of (issue 13): album
 * lists by every getAlbumList type, artists with their album counts, genres with their counts, random picks. Every
 * list is one or two indexed queries bounded by its LIMIT: album lists select the page's ids first (an index walk or
 * a bounded aggregate), then the page's rows with their counts (the albums repository's `byIds`, kept in memory), so counts are only ever made for the
 * albums answered, never for the ones an OFFSET skips.
 *
 * Every read takes a SongScope (issue 25): the songs the caller sees, and `musicFolderId`'s folder when one is given.
 * Songs out of it are left out; an album or artist is listed when it has a song in it (with hidden libraries alone, an
 * album or artist with no song at all stays, as in the web's lists). Without a scope nothing is narrowed.
 */

/** An artist with the number of albums it is the album artist of. */
export interface ArtistWithAlbumCount extends ArtistRow {
  album_count: number;
}

/** What getRandomSongs narrows its pick to. */
export interface SongPickFilter {
  genre?: string | undefined;
  fromYear?: number | undefined;
  toYear?: number | undefined;
}

export interface GenreCounts {
  genre: string;
  song_count: number;
  album_count: number;
}

export interface SubsonicBrowseRepository extends FolderReader {
  /** Every artist by name, each with its album count: one query (albums_artist_id_idx per artist). */
  artistsWithAlbumCounts(scope?: SongScope): Promise<ArtistWithAlbumCount[]>;
  artist(id: number, scope?: SongScope): Promise<ArtistRow | undefined>;
  /**
   * The artist's albums (as album artist), by year (unknown last), then name; its placeholder album (its songs without
   * an album of their own, issue 25) last.
   */
  albumsOfArtist(artistId: number, scope?: SongScope): Promise<AlbumListRow[]>;
  /** The newest albums first (albums_created_id_idx), placeholders left out. */
  newestAlbumIds(limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** By album name (albums_name_id_idx). */
  albumIdsByName(limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** By album artist's name (unknown artist last), then album name. */
  albumIdsByArtist(limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** Issue 28: the albums the user rated, most stars first, then by name; placeholders left out. */
  ratedAlbumIds(userId: number, limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /**
   * Albums the user played, most plays first (`frequent`) or most recently played first (`recent`); placeholders left
   * out; only the plays of songs in the scope count.
   */
  playedAlbumIds(
    userId: number,
    order: 'frequent' | 'recent',
    limit: number,
    offset: number,
    scope?: SongScope,
  ): Promise<number[]>;
  /** Albums of the years between `from` and `to` (both included), by year (descending when from > to), then name. */
  albumIdsByYear(from: number, to: number, limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** Albums holding a song of the catalogue genre (in the scope), by name. */
  albumIdsByGenre(genre: string, limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** Up to `size` albums picked at random, placeholders left out. */
  randomAlbumIds(size: number, scope?: SongScope): Promise<number[]>;
  /** Up to `size` songs picked at random among those the filter lets through. */
  randomSongIds(filter: SongPickFilter, size: number, scope?: SongScope): Promise<number[]>;
  /** A page of the songs of a catalogue genre (none missing), the newest first (getSongsByGenre). */
  songIdsByGenre(genre: string, limit: number, offset: number, scope?: SongScope): Promise<number[]>;
  /** Each catalogue genre that has songs (in the scope), by name, with its song and album counts. */
  genres(scope?: SongScope): Promise<GenreCounts[]>;
  /** When the newest song or album was added (ms since 1970), 0 for an empty catalogue. */
  lastAdded(): Promise<number>;
}

/** How many candidate ids a random pick draws per id wanted: enough that a dense id range rarely needs more. */
const CANDIDATES_PER_PICK = 3;

/** Numbers in [min, max], `count` of them, distinct, in random order. */
function randomIntegers(min: number, max: number, count: number): number[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(min + Math.floor(Math.random() * (max - min + 1)));
  return [...picked];
}

/**
 * Up to `size` ids picked at random without `ORDER BY random()` over the whole table on every call: ids are drawn at
 * random within the table's id range (its two ends, read from the primary key), and the rows that exist and pass the
 * filter among them are kept (one `id in (...)` lookup). Only when that leaves fewer than `size` (a sparse range, a
 * narrow filter, a small table) does one `ORDER BY random()` over the filtered rows make up the rest.
 */
export async function pickRandom(
  size: number,
  range: { min: number | null; max: number | null } | undefined,
  existing: (candidates: number[]) => Promise<number[]>,
  shuffled: (limit: number) => Promise<number[]>,
): Promise<number[]> {
  if (size <= 0 || range?.min === null || range?.max === null || range === undefined) return [];
  const { min, max } = range;
  const wanted = size * CANDIDATES_PER_PICK;
  if (max - min + 1 <= wanted) return shuffled(size);
  const candidates = randomIntegers(min, max, wanted);
  const found = new Set(await existing(candidates));
  const picked = candidates.filter((id) => found.has(id)).slice(0, size);
  if (picked.length === size) return picked;
  const seen = new Set(picked);
  for (const id of await shuffled(size)) {
    if (picked.length === size) break;
    if (!seen.has(id)) {
      seen.add(id);
      picked.push(id);
    }
  }
  return picked;
}

const ids = (rows: readonly { id: number }[]): number[] => rows.map((row) => row.id);
const knownIds = (rows: readonly { id: number | null }[]): number[] =>
  rows.flatMap((row) => (row.id === null ? [] : [row.id]));

/** No narrowing at all: a caller who sees every library and names no folder (and getIndexes, getMusicDirectory). */
const EVERYTHING: SongScope = { hidden: [] };

export function createSubsonicBrowseRepository(db: Kysely<DB>): SubsonicBrowseRepository {
  /** The placeholder albums (one per album artist at most), which the ranked, newest and random lists leave out. */
  const placeholderIds = () => db.selectFrom('albums').select('albums.id').where('albums.is_placeholder', '=', 1);
  const albumRange = () =>
    db
      .selectFrom('albums')
      .select((eb) => [eb.fn.min('id').as('min'), eb.fn.max('id').as('max')])
      .executeTakeFirst();

  /** Albums (the `albums` table), narrowed to the scope. */
  const albumsIn = (scope: SongScope) => narrowedTo(db.selectFrom('albums'), albumInScope(scope));

  return {
    async folderSources() {
      const [libraries, stored] = await Promise.all([
        db.selectFrom('libraries').select(['id', 'name']).orderBy('id').execute(),
        db.selectFrom('songs').select('id').where('library_id', 'is', null).limit(1).executeTakeFirst(),
      ]);
      return { libraries, hasStoredSongs: stored !== undefined };
    },

    async artistsWithAlbumCounts(scope = EVERYTHING) {
      const rows = await narrowedTo(
        db
          .selectFrom('artists')
          .selectAll('artists')
          .select((eb) =>
            narrowedTo(
              eb
                .selectFrom('albums')
                .select((inner) => inner.fn.countAll<number | string>().as('n'))
                .whereRef('albums.artist_id', '=', 'artists.id'),
              albumInScope(scope),
            ).as('album_count'),
          ),
        artistInScope(scope),
      )
        .orderBy('artists.name')
        .orderBy('artists.id')
        .execute();
      return rows.map((row) => ({ ...row, album_count: Number(row.album_count ?? 0) }));
    },

    artist(id, scope = EVERYTHING) {
      return narrowedTo(
        db.selectFrom('artists').selectAll().where('artists.id', '=', id),
        artistInScope(scope),
      ).executeTakeFirst();
    },

    async albumsOfArtist(artistId, scope = EVERYTHING) {
      const rows = await narrowedTo(
        albumListQuery(db, scope.hidden).where('albums.artist_id', '=', artistId),
        albumInScope(scope),
      )
        .orderBy('albums.is_placeholder')
        .orderBy(sql`albums.year is null`)
        .orderBy('albums.year')
        .orderBy('albums.name')
        .orderBy('albums.id')
        .execute();
      return rows.map(albumListRow);
    },

    async newestAlbumIds(limit, offset, scope = EVERYTHING) {
      return ids(
        await albumsIn(scope)
          .select('id')
          .where('is_placeholder', '=', 0)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
    },

    async albumIdsByName(limit, offset, scope = EVERYTHING) {
      return ids(
        await albumsIn(scope).select('id').orderBy('name').orderBy('id').limit(limit).offset(offset).execute(),
      );
    },

    async albumIdsByArtist(limit, offset, scope = EVERYTHING) {
      return ids(
        await albumsIn(scope)
          .leftJoin('artists', 'artists.id', 'albums.artist_id')
          .select('albums.id')
          .orderBy(sql`artists.name is null`)
          .orderBy('artists.name')
          .orderBy('albums.name')
          .orderBy('albums.id')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
    },

    async ratedAlbumIds(userId, limit, offset, scope = EVERYTHING) {
      // The user's album ratings (album_ratings' primary key starts with user_id): bounded by what they rated.
      return ids(
        await albumsIn(scope)
          .innerJoin('album_ratings', 'album_ratings.album_id', 'albums.id')
          .select('albums.id')
          .where('album_ratings.user_id', '=', userId)
          .where('albums.is_placeholder', '=', 0)
          .orderBy('album_ratings.rating', 'desc')
          .orderBy('albums.name')
          .orderBy('albums.id')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
    },

    async playedAlbumIds(userId, order, limit, offset, scope = EVERYTHING) {
      // A user's plays are bounded (PLAY_HISTORY_MAX), read through plays_user_played_idx; each song's album is
      // looked up by its key (a join would let the planner scan every album track instead).
      const inScope = songInScope(scope);
      const played = db
        .selectFrom('plays')
        .$if(inScope !== null, (query) => narrowedTo(query.innerJoin('songs', 'songs.id', 'plays.song_id'), inScope))
        .select((eb) => [
          'plays.id as play_id',
          eb
            .selectFrom('album_tracks')
            .select('album_tracks.album_id')
            .whereRef('album_tracks.song_id', '=', 'plays.song_id')
            .as('album_id'),
        ])
        .where('plays.user_id', '=', userId)
        .as('played');
      let query = db
        .selectFrom(played)
        .select((eb) => [
          'played.album_id as id',
          eb.fn.countAll<number>().as('n'),
          eb.fn.max('played.play_id').as('last_play'),
        ])
        .where('played.album_id', 'is not', null)
        .where('played.album_id', 'not in', placeholderIds())
        .groupBy('played.album_id');
      if (order === 'frequent') query = query.orderBy('n', 'desc');
      // Play ids only grow, so the latest play of an album is its highest id (ties of played_at are broken too).
      const rows = await query.orderBy('last_play', 'desc').limit(limit).offset(offset).execute();
      return knownIds(rows);
    },

    async albumIdsByYear(from, to, limit, offset, scope = EVERYTHING) {
      const direction = from > to ? 'desc' : 'asc';
      return ids(
        await albumsIn(scope)
          .select('id')
          .where('year', '>=', Math.min(from, to))
          .where('year', '<=', Math.max(from, to))
          .orderBy('year', direction)
          .orderBy('name')
          .orderBy('id')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
    },

    async albumIdsByGenre(genre, limit, offset, scope = EVERYTHING) {
      // From the genre's songs (songs_genre_idx) to their albums, each looked up by its key: bounded by the genre's
      // songs, however rare the genre is among the albums.
      const ofGenre = db
        .selectFrom('songs')
        .select((eb) =>
          eb
            .selectFrom('album_tracks')
            .select('album_tracks.album_id')
            .whereRef('album_tracks.song_id', '=', 'songs.id')
            .as('album_id'),
        )
        .where('songs.genre', '=', genre)
        .where('songs.missing_since', 'is', null)
        .$call((query) => narrowedTo(query, songInScope(scope)))
        .distinct()
        .as('of_genre');
      return ids(
        await db
          .selectFrom(ofGenre)
          .innerJoin('albums', 'albums.id', 'of_genre.album_id')
          .select('albums.id')
          .orderBy('albums.name')
          .orderBy('albums.id')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
    },

    async randomAlbumIds(size, scope = EVERYTHING) {
      const albums = () => albumsIn(scope).select('id').where('is_placeholder', '=', 0);
      return pickRandom(
        size,
        await albumRange(),
        async (candidates) => ids(await albums().where('id', 'in', candidates).execute()),
        async (limit) =>
          ids(
            await albums()
              .orderBy(sql`random()`)
              .limit(limit)
              .execute(),
          ),
      );
    },

    async randomSongIds(filter, size, scope = EVERYTHING) {
      const range = await db
        .selectFrom('songs')
        .select((eb) => [eb.fn.min('id').as('min'), eb.fn.max('id').as('max')])
        .executeTakeFirst();
      const filtered = () => {
        let query = narrowedTo(
          db.selectFrom('songs').select('id').where('missing_since', 'is', null),
          songInScope(scope),
        );
        if (filter.genre !== undefined) query = query.where('genre', '=', filter.genre);
        if (filter.fromYear !== undefined) query = query.where('year', '>=', filter.fromYear);
        if (filter.toYear !== undefined) query = query.where('year', '<=', filter.toYear);
        return query;
      };
      return pickRandom(
        size,
        range,
        async (candidates) => ids(await filtered().where('id', 'in', candidates).execute()),
        async (limit) =>
          ids(
            await filtered()
              .orderBy(sql`random()`)
              .limit(limit)
              .execute(),
          ),
      );
    },

    async songIdsByGenre(genre, limit, offset, scope = EVERYTHING) {
      return ids(
        await narrowedTo(
          db.selectFrom('songs').select('id').where('genre', '=', genre).where('missing_since', 'is', null),
          songInScope(scope),
        )
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
    },

    async genres(scope = EVERYTHING) {
      const rows = await db
        .selectFrom('songs')
        .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
        .select((eb) => [
          'songs.genre',
          // Counts are bigints on PostgreSQL: strings from its driver.
          eb.fn.countAll<number | string>().as('song_count'),
          eb.fn.count<number | string>('album_tracks.album_id').distinct().as('album_count'),
        ])
        .where('songs.missing_since', 'is', null)
        .$call((query) => narrowedTo(query, songInScope(scope)))
        .groupBy('songs.genre')
        .orderBy('songs.genre')
        .execute();
      return rows.map((row) => ({
        genre: row.genre,
        song_count: Number(row.song_count),
        album_count: Number(row.album_count),
      }));
    },

    async lastAdded() {
      const newest = async (table: 'songs' | 'albums') =>
        (await db.selectFrom(table).select('created_at').orderBy('created_at', 'desc').limit(1).executeTakeFirst())
          ?.created_at;
      const [song, album] = await Promise.all([newest('songs'), newest('albums')]);
      const times = [song, album].filter((time) => time !== undefined).map((time) => Date.parse(time));
      return times.length === 0 ? 0 : Math.max(...times);
    },
  };
}
