import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import {
  deleteEmptyPlaceholders,
  isPlaceholderName,
  moveToPlaceholders,
  queueCatalogueWrite,
} from '../../db/album-placeholders.js';
import { DuplicateError } from '../../db/duplicate-error.js';
import { foreignKeyViolation, uniqueViolation } from '../../db/errors.js';
import { albumInScope, songSeen } from '../../db/library-visibility.js';
import { CatalogueRows, rememberRecent } from '../../db/catalogue-rows.js';
import { CompiledStatements } from '../../db/compiled-statements.js';
import { dialectOf } from '../../db/dialect.js';
import { containsPattern } from '../../db/like-pattern.js';
import type { DB } from '../../db/schema.js';
import { songListQuery, withCredits, type SongListRow } from '../songs/songs.repository.js';

/** An album with its artist's name and what its tracks add up to. */
export interface AlbumListRow {
  id: number;
  name: string;
  artist_id: number | null;
  artist_name: string | null;
  year: number | null;
  image_key: string | null;
  song_count: number;
  duration_ms: number;
  /** When the album was made (an ISO date): Subsonic's AlbumID3 `created`. */
  created_at: string;
  /** What the tags say of the release (migration 019); null when they said nothing. */
  mb_release_id: string | null;
  release_types: string | null;
  original_date: string | null;
  is_compilation: number;
  /** 1: the artist's placeholder album, "Unknown album" (issue 25); 0: any other. */
  is_placeholder: number;
}

/**
 * One album artist's albums, and/or those whose name holds every word of `q`; `placeholders: false` leaves the
 * placeholder albums out (the lists where they would be noise, issue 25).
 */
export interface AlbumFilter {
  artistId?: number | undefined;
  q?: string | undefined;
  placeholders?: boolean | undefined;
  /** Libraries hidden from the viewer: an album whose every song is in them is left out (issue 25). */
  hidden?: readonly number[] | undefined;
  /** Only albums with a song of this library (its id) or of the blob store (null): Subsonic's `musicFolderId`. */
  library?: number | null | undefined;
}

/** Where a page of albums starts: after this album in name order. */
export interface AlbumKey {
  name: string;
  id: number;
}

/** Where a page of the newest albums starts: after this album, newest first. */
export interface RecentAlbumKey {
  createdAt: string;
  id: number;
}

/** Where a page by rating starts: after this album (its stars, 0 when unrated, its name and id). */
export interface RatedAlbumKey {
  rating: number;
  name: string;
  id: number;
}

/**
 * The SQL of albums (issue 12). Song counts and lengths are read per album of the page, from album_tracks' index; a
 * page read with a filter's `hidden` libraries counts only the songs outside them.
 */
export interface AlbumsRepository {
  page(filter: AlbumFilter, after: AlbumKey | undefined, limit: number): Promise<AlbumListRow[]>;
  /** The most recently added first, by (created_at, id) descending (albums_created_id_idx). */
  recentPage(filter: AlbumFilter, after: RecentAlbumKey | undefined, limit: number): Promise<AlbumListRow[]>;
  /**
   * Issue 28: the albums the user rated, most stars first (ties by id, descending), then the others by name; after
   * `after` (its stars, 0 for an unrated album, its name and id) when given.
   */
  ratedPage(
    filter: AlbumFilter,
    userId: number,
    after: RatedAlbumKey | undefined,
    limit: number,
  ): Promise<(AlbumListRow & { rating: number })[]>;
  count(filter: AlbumFilter): Promise<number>;
  /** The album with its songs counted as a viewer with these `hidden` libraries sees them (none: every song). */
  find(id: number, hidden?: readonly number[]): Promise<AlbumListRow | undefined>;
  /** Whether the album exists and passes the filter's `hidden` rule. */
  passes(id: number, filter: AlbumFilter): Promise<boolean>;
  /** The albums of `ids` that exist, in that order (a Subsonic page of album ids), counted as `find` counts. */
  byIds(ids: readonly number[], hidden?: readonly number[]): Promise<AlbumListRow[]>;
  /** The album's songs in disc and track order (unknown numbers after known ones, then by song). */
  tracks(id: number): Promise<SongListRow[]>;
  /** A new album; DuplicateError('name') when its artist has one of that name. Answers its id. */
  insert(album: NewAlbum): Promise<number>;
  /**
   * Changes the album's fields; false when there is no such album. DuplicateError('name') as insert. A new name is the
   * placeholder's or not: a placeholder renamed becomes an album like any other.
   */
  update(id: number, changes: Partial<NewAlbum>): Promise<boolean>;
  /**
   * Deletes the album; its songs go on their own artist's placeholder album, in the same transaction. False when there
   * was none.
   */
  remove(id: number): Promise<boolean>;
  /**
   * Puts the song on the album at these numbers (replacing its place on any other), or with null on its artist's
   * placeholder album; a placeholder it leaves empty goes. Null when the song or the album is gone (a foreign key),
   * else the cover keys of the albums that went.
   */
  placeSong(songId: number, place: TrackPlace | null): Promise<(string | null)[] | null>;
  /** Sets the album's cover; false when there is no such album. */
  setCover(id: number, imageKey: string): Promise<boolean>;
  inTransaction<T>(work: (albums: AlbumsRepository) => Promise<T>): Promise<T>;
}

/** What an admin sets on an album. */
export interface NewAlbum {
  name: string;
  artist_id: number | null;
  year: number | null;
}

/** Where a song is on an album. */
export interface TrackPlace {
  albumId: number;
  discNumber: number | null;
  trackNumber: number | null;
}

/** A unique violation on albums is the one of its name under its artist. */
function duplicateName(error: unknown): never {
  if (uniqueViolation(error) !== null) throw new DuplicateError('name');
  throw error;
}

/** Words of a name filter: each must appear in the album's name. */
function words(q: string | undefined): string[] {
  return (q ?? '').split(/\s+/).filter((word) => word.length > 0);
}

/**
 * Albums joined with their artist, with song_count and duration_ms per album (run rows through albumListRow): its songs
 * that are there (not missing) and, when `hidden` lists libraries, not in them (issue 25: a song of a library hidden
 * from the viewer does not exist for them, nor counts).
 */
export function albumListQuery(db: Kysely<DB>, hidden: readonly number[] = []) {
  const counted = (eb: ExpressionBuilder<DB, 'albums'>) =>
    eb
      .selectFrom('album_tracks')
      .innerJoin('songs', 'songs.id', 'album_tracks.song_id')
      .whereRef('album_tracks.album_id', '=', 'albums.id')
      .where('songs.missing_since', 'is', null)
      .$if(hidden.length > 0, (query) => query.where(songSeen(hidden)));
  return db
    .selectFrom('albums')
    .leftJoin('artists', 'artists.id', 'albums.artist_id')
    .select((eb) => [
      'albums.id',
      'albums.name',
      'albums.artist_id',
      'artists.name as artist_name',
      'albums.year',
      'albums.image_key',
      'albums.created_at',
      'albums.mb_release_id',
      'albums.release_types',
      'albums.original_date',
      'albums.is_compilation',
      'albums.is_placeholder',
      counted(eb)
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .as('song_count'),
      counted(eb)
        .select(sql<number>`coalesce(sum(songs.duration_ms), 0)`.as('ms'))
        .as('duration_ms'),
    ]);
}

/**
 * Whether SQLite's trigram index over album names (migration 015's album_names) answers this word: three characters
 * or more, and none of LIKE's wildcards or the escape character (a LIKE with an ESCAPE clause reads the whole index).
 */
function indexedWord(word: string): boolean {
  return Array.from(word).length >= 3 && !/[\\%_]/.test(word);
}

/** Each word anywhere in the album's name (as `lower(name) like '%word%'` matches it), on SQLite through album_names. */
function nameMatches(db: Kysely<DB>, q: string | undefined): RawBuilder<SqlBool>[] {
  const all = words(q);
  const indexed = dialectOf(db) === 'sqlite' ? all.filter(indexedWord) : [];
  const scanned = all
    .filter((word) => !indexed.includes(word))
    .map((word) => sql<SqlBool>`lower(albums.name) like ${containsPattern(word)} escape '\\'`);
  if (indexed.length === 0) return scanned;
  const likes = indexed.map((word) => sql`name like ${`%${word.toLowerCase()}%`}`);
  return [...scanned, sql<SqlBool>`albums.id in (select rowid from album_names where ${sql.join(likes, sql` and `)})`];
}

/** The album has a song outside the hidden libraries, or none in them (an empty album an administrator made). */
function notHiddenOnly(eb: ExpressionBuilder<DB, 'albums'>, hidden: readonly number[]) {
  const tracks = () =>
    eb
      .selectFrom('album_tracks')
      .innerJoin('songs', 'songs.id', 'album_tracks.song_id')
      .select('album_tracks.song_id')
      .whereRef('album_tracks.album_id', '=', 'albums.id');
  return eb.or([
    eb.exists(tracks().where(songSeen(hidden))),
    eb.not(eb.exists(tracks().where('songs.library_id', 'in', [...hidden]))),
  ]);
}

/** Album rows kept in memory (db/catalogue-rows.ts), and albums whose track lists are. */
const ALBUM_ROWS_KEPT = 10_000;
const TRACK_LISTS_KEPT = 2_000;
/**
 * Album rows as viewers with hidden libraries see them (their counts leave those libraries out), kept per set of hidden
 * libraries: for this many sets at most (the least recently asked goes), this many rows each.
 */
const HIDDEN_SETS_KEPT = 16;
const SEEN_ROWS_KEPT = 2_000;

/** What an albums repository keeps in memory between requests. */
interface AlbumCaches {
  /** The rows with every song counted (the viewers who see every library). */
  albums: CatalogueRows<AlbumListRow>;
  /** The rows for each set of hidden libraries (its ids joined by commas, ascending). */
  seenBy: Map<string, CatalogueRows<AlbumListRow>>;
  trackLists: CatalogueRows<{ id: number; tracks: SongListRow[] }>;
}

function albumCaches(db: Kysely<DB>): AlbumCaches {
  return {
    albums: new CatalogueRows(db, ALBUM_ROWS_KEPT),
    seenBy: new Map(),
    trackLists: new CatalogueRows(db, TRACK_LISTS_KEPT),
  };
}

/**
 * The rows kept for viewers with these hidden libraries: one viewer's counts are never another's, unless they hide
 * the same libraries.
 */
function rowsSeenWithout(db: Kysely<DB>, caches: AlbumCaches, hidden: readonly number[]): CatalogueRows<AlbumListRow> {
  if (hidden.length === 0) return caches.albums;
  const key = [...new Set(hidden)].sort((a, b) => a - b).join(',');
  const rows = caches.seenBy.get(key) ?? new CatalogueRows(db, SEEN_ROWS_KEPT);
  rememberRecent(caches.seenBy, key, rows, HIDDEN_SETS_KEPT);
  return rows;
}

/**
 * The albums repository; `caches` keeps album rows and track lists in memory between requests (none inside a
 * transaction, whose reads may never commit).
 */
export function createAlbumsRepository(db: Kysely<DB>, caches: AlbumCaches | null = albumCaches(db)): AlbumsRepository {
  const compiled = CompiledStatements.of(db);
  // The hidden ids come first in the SQL (in each of the two counts), then the album ids.
  const loadAlbums = (hidden: readonly number[]) => async (ids: number[]) =>
    (
      await compiled.rows(`albums.byIds:${hidden.length}:${ids.length}`, [...hidden, ...hidden, ...ids], () =>
        albumListQuery(db, hidden).where('albums.id', 'in', ids),
      )
    ).map(albumListRow);
  const byIds = async (ids: readonly number[], hidden: readonly number[] = []): Promise<AlbumListRow[]> => {
    if (ids.length === 0) return [];
    if (caches === null) {
      const byId = new Map((await loadAlbums(hidden)([...new Set(ids)])).map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    }
    return rowsSeenWithout(db, caches, hidden).get(ids, loadAlbums(hidden), (row) => row.id);
  };
  const loadTracks = async (id: number) =>
    withCredits(
      db,
      await compiled.rows('albums.tracks', [id], () =>
        songListQuery(db)
          .where('album_tracks.album_id', '=', id)
          .where('songs.missing_since', 'is', null)
          .orderBy(sql`album_tracks.disc_number is null`)
          .orderBy('album_tracks.disc_number')
          .orderBy(sql`album_tracks.track_number is null`)
          .orderBy('album_tracks.track_number')
          .orderBy('songs.id'),
      ),
    );

  const pageIds = () => db.selectFrom('albums').select('albums.id');
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

  const matches =
    ({ artistId, q, placeholders, hidden = [], library }: AlbumFilter) =>
    (eb: ExpressionBuilder<DB, 'albums'>) =>
      eb.and([
        ...(artistId === undefined ? [] : [eb('albums.artist_id', '=', artistId)]),
        ...(placeholders === false ? [eb('albums.is_placeholder', '=', 0)] : []),
        ...nameMatches(db, q),
        ...(library !== undefined ? [albumInScope({ hidden, library }) ?? eb.lit(true)] : []),
        ...(library === undefined && hidden.length > 0 ? [notHiddenOnly(eb, hidden)] : []),
      ]);

  return {
    // A page is its ids first (albums alone, through their indexes), then their rows (held in memory, or read with their
    // counts): PostgreSQL spent 4.6 ms planning the whole query with its two counts for a 0.7 ms search.
    async page(filter, after, limit) {
      let query = pageIds().where(matches(filter));
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple('albums.name', 'albums.id'), '>', eb.tuple(after.name, after.id)));
      }
      return byIds(ids(await query.orderBy('albums.name').orderBy('albums.id').limit(limit).execute()), filter.hidden);
    },

    async ratedPage(filter, userId, after, limit) {
      // The user's rated albums (album_ratings' primary key, few) by stars, then the unrated ones by name (the name
      // index, each checked against that key): two keyset reads rather than a sort of every album by a per-user key.
      const rated = async (count: number) => {
        let query = pageIds()
          .innerJoin('album_ratings', (join) =>
            join.onRef('album_ratings.album_id', '=', 'albums.id').on('album_ratings.user_id', '=', userId),
          )
          .select('album_ratings.rating')
          .where(matches(filter));
        if (after !== undefined) {
          query = query.where((eb) =>
            eb(eb.refTuple('album_ratings.rating', 'albums.id'), '<', eb.tuple(after.rating, after.id)),
          );
        }
        return query.orderBy('album_ratings.rating', 'desc').orderBy('albums.id', 'desc').limit(count).execute();
      };
      const unrated = async (from: RatedAlbumKey | undefined, count: number) => {
        let query = pageIds()
          .where(matches(filter))
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('album_ratings')
                  .select('album_ratings.album_id')
                  .whereRef('album_ratings.album_id', '=', 'albums.id')
                  .where('album_ratings.user_id', '=', userId),
              ),
            ),
          );
        if (from !== undefined) {
          query = query.where((eb) => eb(eb.refTuple('albums.name', 'albums.id'), '>', eb.tuple(from.name, from.id)));
        }
        const rows = await query.orderBy('albums.name').orderBy('albums.id').limit(count).execute();
        return rows.map((row) => ({ id: row.id, rating: 0 }));
      };
      let keys: { id: number; rating: number }[];
      if (after?.rating === 0) keys = await unrated(after, limit);
      else {
        keys = await rated(limit);
        if (keys.length < limit) keys = [...keys, ...(await unrated(undefined, limit - keys.length))];
      }
      const rows = await byIds(ids(keys), filter.hidden);
      const stars = new Map(keys.map((key) => [key.id, key.rating]));
      return rows.map((row) => ({ ...row, rating: stars.get(row.id) ?? 0 }));
    },

    async recentPage(filter, after, limit) {
      let query = pageIds().where(matches(filter));
      if (after !== undefined) {
        query = query.where((eb) =>
          eb(eb.refTuple('albums.created_at', 'albums.id'), '<', eb.tuple(after.createdAt, after.id)),
        );
      }
      const page = await query.orderBy('albums.created_at', 'desc').orderBy('albums.id', 'desc').limit(limit).execute();
      return byIds(ids(page), filter.hidden);
    },

    async count(filter) {
      const row = await db
        .selectFrom('albums')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where(matches(filter))
        .executeTakeFirstOrThrow();
      return row.count;
    },

    async find(id, hidden = []) {
      const [row] = await byIds([id], hidden);
      return row;
    },

    async passes(id, filter) {
      const row = await pageIds().where('albums.id', '=', id).where(matches(filter)).executeTakeFirst();
      return row !== undefined;
    },

    byIds,

    async tracks(id) {
      if (caches === null) return loadTracks(id);
      const load = async ([albumId = id]: number[]) => [{ id: albumId, tracks: await loadTracks(albumId) }];
      const [list] = await caches.trackLists.get([id], load, (entry) => entry.id);
      // A copy: the list held is every caller's.
      return [...(list?.tracks ?? [])];
    },

    async insert(album) {
      const row = await db
        .insertInto('albums')
        .values({ ...album, image_key: null, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch(duplicateName);
      return row.id;
    },

    async update(id, changes) {
      if (Object.keys(changes).length === 0) {
        return (await db.selectFrom('albums').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
      }
      const kind = changes.name === undefined ? {} : { is_placeholder: isPlaceholderName(changes.name) ? 1 : 0 };
      const result = await db
        .updateTable('albums')
        .set({ ...changes, ...kind })
        .where('id', '=', id)
        .executeTakeFirst()
        .catch(duplicateName);
      return result.numUpdatedRows > 0n;
    },

    remove(id) {
      return db.transaction().execute(async (trx) => {
        // No song may be put on the album between reading its tracks and deleting it (the cascade would leave it on
        // none).
        await queueCatalogueWrite(trx);
        const tracks = await trx.selectFrom('album_tracks').select('song_id').where('album_id', '=', id).execute();
        await moveToPlaceholders(
          trx,
          tracks.map((track) => track.song_id),
        );
        const result = await trx.deleteFrom('albums').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },

    async setCover(id, imageKey) {
      const result = await db
        .updateTable('albums')
        .set({ image_key: imageKey })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    inTransaction(work) {
      return db.transaction().execute((trx) => work(createAlbumsRepository(trx, null)));
    },

    async placeSong(songId, place) {
      try {
        return await db.transaction().execute(async (trx) => {
          const before = await trx
            .selectFrom('album_tracks')
            .select('album_id')
            .where('song_id', '=', songId)
            .executeTakeFirst();
          if (place === null) {
            await moveToPlaceholders(trx, [songId]);
          } else {
            await trx.deleteFrom('album_tracks').where('song_id', '=', songId).execute();
            await trx
              .insertInto('album_tracks')
              .values({
                song_id: songId,
                album_id: place.albumId,
                disc_number: place.discNumber,
                track_number: place.trackNumber,
              })
              .execute();
          }
          const now = await trx
            .selectFrom('album_tracks')
            .select('album_id')
            .where('song_id', '=', songId)
            .executeTakeFirst();
          // A song that is gone (moveToPlaceholders skips it) is the same answer as the foreign key's.
          if (now === undefined) return null;
          return before === undefined || before.album_id === now.album_id
            ? []
            : deleteEmptyPlaceholders(trx, [before.album_id]);
        });
      } catch (error) {
        if (foreignKeyViolation(error)) return null;
        throw error;
      }
    },
  };
}

/** Counts and sums arrive as strings from some drivers (PostgreSQL's bigint and numeric). */
export function albumListRow<Row extends { song_count: unknown; duration_ms: unknown }>(
  row: Row,
): Omit<Row, 'song_count' | 'duration_ms'> & { song_count: number; duration_ms: number } {
  return { ...row, song_count: Number(row.song_count ?? 0), duration_ms: Number(row.duration_ms ?? 0) };
}
