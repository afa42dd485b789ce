import { songSeen } from '../../db/library-visibility.js';
import { sql, type ExpressionBuilder, type Insertable, type Kysely, type SqlBool } from 'kysely';
import {
  deleteEmptyPlaceholders,
  isPlaceholderName,
  PLACEHOLDER_NAME,
  placeholderAlbumId,
} from '../../db/album-placeholders.js';
import { CatalogueRows } from '../../db/catalogue-rows.js';
import { CompiledStatements } from '../../db/compiled-statements.js';
import { DuplicateError } from '../../db/duplicate-error.js';
import { dialectOf } from '../../db/dialect.js';
import { uniqueViolation } from '../../db/errors.js';
import type { DB, SongRow, SongsTable } from '../../db/schema.js';
import type { FileLyrics } from '../../media/file-lyrics.js';
import { recordFileLyrics } from './song-lyrics.repository.js';

/** What a Song answer needs from the songs table and its artist. */
export interface SongListRow {
  id: number;
  name: string;
  genre: string;
  artist_id: number | null;
  artist_name: string | null;
  audio_key: string;
  image_key: string | null;
  duration_ms: number | null;
  /** Plays of the song by anyone (migration 023). */
  play_count: number;
  /**
   * Issue 12: the album (album_tracks) and the year. Every song is on an album (issue 25: its artist's placeholder when
   * it has none of its own); null only for a row read while it is being written.
   */
  album_id: number | null;
  album_name: string | null;
  track_number: number | null;
  disc_number: number | null;
  year: number | null;
  genre_tag: string | null;
  format: string | null;
  replay_gain_track_db: number | null;
  replay_gain_track_peak: number | null;
  /** When its library file was found missing; null while it is there (always for stored songs). */
  missing_since: string | null;
  /** The library whose file it is; null for a song held in the blob store. */
  library_id: number | null;
  /** The artist as the file displays it ("A feat. B"); null: the artist's name. */
  display_artist: string | null;
  /** MusicBrainz recording id from the tags. */
  mb_recording_id: string | null;
  /** The album's own artist (its main album artist). */
  album_artist_id: number | null;
  album_artist_name: string | null;
  /** Credits beyond the main artist, where the list read them (withCredits); absent: none read. */
  credits?: readonly CreditRow[];
}

/** A song's credit beyond its main artist, with the artist's name. */
export interface CreditRow {
  artist_id: number;
  artist_name: string;
  role: string;
  sub_role: string;
  position: number;
}

/** The rows with their credits (song_artists), read in one query. */
export async function withCredits<Row extends SongListRow>(db: Kysely<DB>, rows: Row[]): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const ids = [...new Set(rows.map((row) => row.id))];
  const credits = new Map<number, CreditRow[]>();
  for (let at = 0; at < ids.length; at += 500) {
    const found = await db
      .selectFrom('song_artists')
      .innerJoin('artists', 'artists.id', 'song_artists.artist_id')
      .select([
        'song_artists.song_id',
        'song_artists.artist_id',
        'artists.name as artist_name',
        'song_artists.role',
        'song_artists.sub_role',
        'song_artists.position',
      ])
      .where('song_artists.song_id', 'in', ids.slice(at, at + 500))
      .orderBy('song_artists.song_id')
      .orderBy('song_artists.role')
      .orderBy('song_artists.position')
      .execute();
    for (const { song_id, ...credit } of found) {
      const list = credits.get(song_id) ?? [];
      list.push(credit);
      credits.set(song_id, list);
    }
  }
  return rows.map((row) => ({ ...row, credits: credits.get(row.id) ?? [] }));
}

export interface SongFilter {
  genre?: string;
  artistId?: number;
  /** Only these songs (e.g. search hits); the caller orders them. */
  ids?: readonly number[];
  /** Libraries whose songs are left out (the viewer's hidden ones). */
  hidden?: readonly number[];
  limit?: number;
  offset?: number;
}

export interface PlaylistAccess {
  id: number;
  owner_id: number;
  is_public: number;
  /** A smart playlist (issue 28): its songs are chosen anew before they are read. */
  smart: boolean;
}

export type NewSong = Omit<Insertable<SongsTable>, 'id'>;
/**
 * A new song whose artist is named rather than referenced (the import): found or created with the song, as is the
 * album it names, under its album artist. Without an album (or with the placeholder's name), it goes on its artist's
 * placeholder album.
 */
export type NewSongByArtistName = Omit<NewSong, 'artist_id'> & {
  artist_name: string | null;
  album?: ImportedAlbumPlace | null;
  source?: ImportSourceRow | null;
  /** Credits beyond the main artist (song_artists): other artists, album artists, contributors, by name. */
  credits?: readonly SongCredit[] | null;
  /** MusicBrainz ids of artists by name: recorded on artists that have none yet. */
  artist_mb_ids?: readonly { name: string; mb_artist_id: string }[] | null;
  /**
   * The lyrics the file carries (issue 27): null, none (a replace removes those an earlier read left); undefined, leave
   * the song's lyrics as they are. Lyrics an administrator uploaded are never replaced.
   */
  lyrics?: FileLyrics | null;
};

/** A credit of a song by the artist's name (found or created with the song). */
export interface SongCredit {
  name: string;
  /** `artist`, `albumartist` or a contributor's role. */
  role: string;
  /** '' when none. */
  sub_role: string;
  position: number;
}

/** The album an imported song is on (found by album artist and name, or created), and where on it. */
export interface ImportedAlbumPlace {
  name: string;
  /** The album artist; null: "Unknown artist". */
  artist_name: string | null;
  year: number | null;
  /** A cover for the album when it has none yet. */
  image_key: string | null;
  disc_number: number | null;
  track_number: number | null;
  /** What the tags say of the release (kept when the album has none yet). */
  release?: AlbumRelease | null;
}

/** An album's release facts from the tags (migration 019). */
export interface AlbumRelease {
  mb_release_id: string | null;
  mb_release_group_id: string | null;
  /** JSON array of lower-case types, or null. */
  release_types: string | null;
  original_date: string | null;
  is_compilation: number;
}

/** The file an imported song came from, as it was (the import_sources table). */
export interface ImportSourceRow {
  path: string;
  size_bytes: number;
  modified_ms: number;
  sha256: string;
}
export type SongChanges = Partial<Omit<SongRow, 'id' | 'created_at'>>;

export interface SongsRepository {
  /** Newest first; one joined query. */
  list(filter: SongFilter): Promise<SongListRow[]>;
  /** The songs of `ids` that exist, in that order (duplicates too), from memory where they are held. */
  byIds(ids: readonly number[]): Promise<SongListRow[]>;
  /** The songs a user liked, most recently liked first. */
  listLikedBy(userId: number, hidden: readonly number[], limit?: number, offset?: number): Promise<SongListRow[]>;
  /** The songs of a playlist in playlist order. */
  listInPlaylist(playlistId: number): Promise<SongListRow[]>;
  findListRow(id: number): Promise<SongListRow | undefined>;
  find(id: number): Promise<SongRow | undefined>;
  findByAudioHash(sha256: string): Promise<SongRow | undefined>;
  /** Answers the new id; DuplicateError('audio') when a song with the same audio exists. */
  insert(song: NewSong): Promise<number>;
  /**
   * Inserts the songs in one statement, each with the artist its `artist_name` names, compared as the unique index
   * compares artist names (lower()); artists that do not exist yet are inserted first, once each. Meant for
   * `inTransaction`, so that artists and songs are written together or not at all. DuplicateError('audio') when a
   * song's audio is already in the catalogue; nothing is inserted then. Answers each new song's id by its audio_sha256.
   */
  insertByArtistName(songs: readonly NewSongByArtistName[]): Promise<Map<string, number>>;
  /**
   * Changes a song to what a changed file now says (the import's `--watch`): its columns, artist and album found or
   * created by name as insertByArtistName does, and its source row. DuplicateError('audio') as update.
   */
  replaceImported(id: number, song: Omit<NewSongByArtistName, 'created_at'>): Promise<void>;
  /** The imported file at `path`, with the song it became; undefined when the folder's import never added it. */
  findSource(path: string): Promise<(ImportSourceRow & { song_id: number }) | undefined>;
  /** Records (or moves) the file a song came from. */
  recordSource(songId: number, source: ImportSourceRow): Promise<void>;
  /** Every imported file under `folder` (a path prefix), with its song. */
  listSources(folder: string): Promise<(ImportSourceRow & { song_id: number })[]>;
  /** Deletes the albums that no song is on any more (after songs were removed); answers their cover keys. */
  deleteEmptyAlbums(albumIds: readonly number[]): Promise<(string | null)[]>;
  /** Deletes those of the albums that are placeholders no song is on any more; answers their cover keys. */
  deleteEmptyPlaceholders(albumIds: readonly number[]): Promise<(string | null)[]>;
  /** The album a song is on, if any. */
  albumIdOf(songId: number): Promise<number | undefined>;
  /** DuplicateError('audio') when another song has the new audio. */
  update(id: number, changes: SongChanges): Promise<void>;
  /** Answers whether a row was deleted. */
  delete(id: number): Promise<boolean>;
  /** Which of `songIds` (all when absent) the user liked. */
  likedIds(userId: number, songIds?: readonly number[]): Promise<Set<number>>;
  /** For each song (all when absent): the ids of the user's own playlists that contain it. */
  ownPlaylistIds(userId: number, songIds?: readonly number[]): Promise<Map<number, number[]>>;
  /** Issue 28: the user's stars on these songs, unrated songs absent. */
  ratingsOf(userId: number, songIds: readonly number[]): Promise<Map<number, number>>;
  findPlaylistAccess(playlistId: number): Promise<PlaylistAccess | undefined>;
  count(): Promise<number>;
  /**
   * Issue 12 (the song form): the id of the album of this name under this album artist (null: "Unknown artist"),
   * inserted with `year` when there is none; as the albums' unique index compares them. The placeholder's name names
   * the artist's placeholder album (issue 25).
   */
  findOrCreateAlbum(album: { name: string; artist_id: number | null; year: number | null }): Promise<number>;
  /** Issue 25: the id of the artist's placeholder album (null: "Unknown artist"'s), made when it has none. */
  placeholderAlbumId(artistId: number | null): Promise<number>;
  /** Where the song is on an album, and that album's artist and kind; undefined when it is on none. */
  albumPlace(songId: number): Promise<CurrentAlbumPlace | undefined>;
  /** Puts the song at this place, replacing the one it had. */
  setAlbumPlace(songId: number, place: SongAlbumPlace): Promise<void>;
  /**
   * Records the lyrics a song's uploaded file carries (issue 27): with `replace` (a new file for the song), those of its
   * previous file go first; an administrator's lyrics stay either way.
   */
  recordFileLyrics(songId: number, lyrics: FileLyrics | null, replace: boolean): Promise<void>;
  /** Runs `work` in one transaction with a repository bound to it; a throw rolls everything back. */
  inTransaction<T>(work: (songs: SongsRepository) => Promise<T>): Promise<T>;
}

/** A song's place on an album (album_tracks). */
export interface SongAlbumPlace {
  album_id: number;
  disc_number: number | null;
  track_number: number | null;
}

/** Where a song is now: its place, and the album's artist and whether it is the artist's placeholder. */
export interface CurrentAlbumPlace extends SongAlbumPlace {
  album_artist_id: number | null;
  placeholder: boolean;
}

/** SQLite accepts an OFFSET only after a LIMIT; this one never binds. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** Above this many ids an `in (...)` list stops paying off against reading the user's rows whole. */
const IN_LIST_MAX = 500;

/** Another song holds the same audio (the unique audio_sha256): a DuplicateError('audio'). */
function duplicateAudio(error: unknown): never {
  if (uniqueViolation(error)?.includes('audio_sha256')) throw new DuplicateError('audio');
  throw error;
}

/** The songs table joined with its artist and album, selecting what a Song answer needs (SongListRow). */
export function songListQuery(db: Kysely<DB>) {
  return db
    .selectFrom('songs')
    .leftJoin('artists', 'artists.id', 'songs.artist_id')
    .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
    .leftJoin('albums', 'albums.id', 'album_tracks.album_id')
    .leftJoin('artists as album_artists', 'album_artists.id', 'albums.artist_id')
    .select([
      'songs.id',
      'songs.name',
      'songs.genre',
      'songs.artist_id',
      'artists.name as artist_name',
      'songs.audio_key',
      'songs.image_key',
      'songs.duration_ms',
      'songs.play_count',
      'album_tracks.album_id',
      'albums.name as album_name',
      'album_tracks.track_number',
      'album_tracks.disc_number',
      'songs.year',
      'songs.genre_tag',
      'songs.format',
      'songs.replay_gain_track_db',
      'songs.replay_gain_track_peak',
      'songs.missing_since',
      'songs.library_id',
      'songs.display_artist',
      'songs.mb_recording_id',
      'albums.artist_id as album_artist_id',
      'album_artists.name as album_artist_name',
    ]);
}

/** The artist's songs: those of which they are the main artist, and those that credit them as one of the artists. */
export function byArtist(artistId: number) {
  return (eb: ExpressionBuilder<DB, 'songs'>) =>
    eb.or([
      eb('songs.artist_id', '=', artistId),
      eb.exists(
        eb
          .selectFrom('song_artists')
          .select('song_artists.song_id')
          .whereRef('song_artists.song_id', '=', 'songs.id')
          .where('song_artists.artist_id', '=', artistId)
          .where('song_artists.role', '=', 'artist'),
      ),
    ]);
}

/** Song rows kept in memory (db/catalogue-rows.ts): about 0.5 KB each, so at most about 10 MB. */
const SONG_ROWS_KEPT = 20_000;

/**
 * The songs repository; `rows` keeps song rows in memory between requests (none inside a transaction, whose reads may
 * never commit).
 */
export function createSongsRepository(
  db: Kysely<DB>,
  rows: CatalogueRows<SongListRow> | null = new CatalogueRows(db, SONG_ROWS_KEPT),
): SongsRepository {
  const base = () => songListQuery(db);
  /** The statements every song page runs (songs by id, the viewer's marks), compiled once per id count. */
  const compiled = CompiledStatements.of(db);
  const ownerColumn =
    dialectOf(db) === 'postgres'
      ? sql.ref<number>('playlists.owner_id')
      : sql<number>`+${sql.ref('playlists.owner_id')}`;

  return {
    async list(filter) {
      if (filter.ids?.length === 0) return [];
      let query = base().where('songs.missing_since', 'is', null);
      if (filter.ids !== undefined) query = query.where('songs.id', 'in', [...filter.ids]);
      if (filter.hidden !== undefined && filter.hidden.length > 0) query = query.where(songSeen(filter.hidden));
      if (filter.genre !== undefined) query = query.where('songs.genre', '=', filter.genre);
      if (filter.artistId !== undefined) query = query.where(byArtist(filter.artistId));
      query = query.orderBy('songs.id', 'desc');
      if (filter.limit !== undefined || filter.offset !== undefined) query = query.limit(filter.limit ?? NO_LIMIT);
      if (filter.offset !== undefined) query = query.offset(filter.offset);
      return query.execute();
    },

    async byIds(ids) {
      if (ids.length === 0) return [];
      const load = async (list: number[]) =>
        withCredits(
          db,
          await compiled.rows(`songs.byIds:${list.length}`, list, () => base().where('songs.id', 'in', list)),
        );
      const found = rows === null ? await load([...new Set(ids)]) : await rows.get(ids, load, (row) => row.id);
      // Duplicates kept: a play queue may hold a song twice.
      const byId = new Map(found.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    listLikedBy(userId, hidden, limit, offset) {
      let query = base()
        .innerJoin('likes', 'likes.song_id', 'songs.id')
        .where('likes.user_id', '=', userId)
        .$if(hidden.length > 0, (liked) => liked.where(songSeen(hidden)))
        .orderBy('likes.created_at', 'desc')
        .orderBy('songs.id', 'desc');
      if (limit !== undefined || offset !== undefined) query = query.limit(limit ?? NO_LIMIT);
      if (offset !== undefined) query = query.offset(offset);
      return query.execute();
    },

    listInPlaylist(playlistId) {
      return base()
        .innerJoin('playlist_songs', 'playlist_songs.song_id', 'songs.id')
        .where('playlist_songs.playlist_id', '=', playlistId)
        .orderBy('playlist_songs.position', 'asc')
        .orderBy('playlist_songs.added_at', 'asc')
        .execute();
    },

    async findListRow(id) {
      const row = await base().where('songs.id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : (await withCredits(db, [row]))[0];
    },

    find(id) {
      return db.selectFrom('songs').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByAudioHash(sha256) {
      return db.selectFrom('songs').selectAll().where('audio_sha256', '=', sha256).executeTakeFirst();
    },

    async insert(song) {
      const row = await db
        .insertInto('songs')
        .values(song)
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch(duplicateAudio);
      return row.id;
    },

    async insertByArtistName(given) {
      if (given.length === 0) return new Map<string, number>();
      const songs = given.map(withAlbum);
      await insertArtistsNamed(db, songs);
      await insertAlbumsNamed(db, songs);
      const inserted = await db
        .insertInto('songs')
        .values(
          songs.map(
            ({ artist_name, album: _album, source: _source, credits: _c, artist_mb_ids: _m, lyrics: _l, ...song }) => ({
              ...song,
              artist_id: artist_name === null ? null : artistIdOf(db, artist_name),
            }),
          ),
        )
        .returning(['id', 'audio_sha256'])
        .execute()
        .catch(duplicateAudio);
      const idOf = new Map(inserted.map((row) => [row.audio_sha256, row.id]));
      await placeOnAlbums(
        db,
        songs.map((song) => ({ ...song, id: idOf.get(song.audio_sha256) })),
      );
      await recordSources(
        db,
        songs.map((song) => ({ ...song, id: idOf.get(song.audio_sha256) })),
      );
      await recordCredits(
        db,
        songs.map((song) => ({ ...song, id: idOf.get(song.audio_sha256) })),
        false,
      );
      await recordFileLyrics(
        db,
        songs.map((song) => ({ id: idOf.get(song.audio_sha256), lyrics: song.lyrics })),
        false,
      );
      return idOf;
    },

    async replaceImported(id, given) {
      const { artist_name, album, source, credits, artist_mb_ids, lyrics, ...song } = withAlbum(given);
      const named = [{ artist_name, album, credits, artist_mb_ids }];
      await insertArtistsNamed(db, named);
      await insertAlbumsNamed(db, named);
      await db
        .updateTable('songs')
        .set({ ...song, artist_id: artist_name === null ? null : artistIdOf(db, artist_name) })
        .where('id', '=', id)
        .execute()
        .catch(duplicateAudio);
      await db.deleteFrom('album_tracks').where('song_id', '=', id).execute();
      await placeOnAlbums(db, [{ id, album }]);
      await recordSources(db, [{ id, source }]);
      await recordCredits(db, [{ id, credits, artist_mb_ids }], true);
      await recordFileLyrics(db, [{ id, lyrics }], true);
    },

    findSource(path) {
      return db.selectFrom('import_sources').selectAll().where('path', '=', path).executeTakeFirst();
    },

    recordSource(songId, source) {
      return recordSources(db, [{ id: songId, source }]);
    },

    listSources(folder) {
      const prefix = folder.endsWith('/') ? folder : `${folder}/`;
      return db
        .selectFrom('import_sources')
        .selectAll()
        .where(sql<string>`substr(path, 1, ${prefix.length})`, '=', prefix)
        .orderBy('path')
        .execute();
    },

    async deleteEmptyAlbums(albumIds) {
      if (albumIds.length === 0) return [];
      const empty = await db
        .deleteFrom('albums')
        .where('id', 'in', [...albumIds])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('album_tracks').select('song_id').whereRef('album_tracks.album_id', '=', 'albums.id'),
            ),
          ),
        )
        .returning('image_key')
        .execute();
      return empty.map((row) => row.image_key);
    },

    deleteEmptyPlaceholders(albumIds) {
      return deleteEmptyPlaceholders(db, albumIds);
    },

    async albumIdOf(songId) {
      const row = await db
        .selectFrom('album_tracks')
        .select('album_id')
        .where('song_id', '=', songId)
        .executeTakeFirst();
      return row?.album_id;
    },

    async update(id, changes) {
      if (Object.keys(changes).length === 0) return;
      await db.updateTable('songs').set(changes).where('id', '=', id).execute().catch(duplicateAudio);
    },

    async delete(id) {
      const result = await db.deleteFrom('songs').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async likedIds(userId, songIds) {
      if (songIds?.length === 0) return new Set();
      const liked = db.selectFrom('likes').select('song_id').where('user_id', '=', userId);
      let rows: { song_id: number }[];
      if (songIds !== undefined && songIds.length <= IN_LIST_MAX) {
        const list = [...songIds];
        rows = await compiled.rows(`likes.ofSongs:${list.length}`, [userId, ...list], () =>
          liked.where('song_id', 'in', list),
        );
      } else {
        rows = await liked.execute();
      }
      return new Set(rows.map((row) => row.song_id));
    },

    async ratingsOf(userId, songIds) {
      const ratings = new Map<number, number>();
      if (songIds.length === 0) return ratings;
      const query = db.selectFrom('song_ratings').select(['song_id', 'rating']).where('user_id', '=', userId);
      // A long list (more than one IN list holds) reads all the user's ratings: few beside a catalogue.
      const list = [...songIds];
      const rows =
        list.length <= IN_LIST_MAX
          ? await compiled.rows(`ratings.ofSongs:${list.length}`, [userId, ...list], () =>
              query.where('song_id', 'in', list),
            )
          : await query.execute();
      for (const row of rows) ratings.set(row.song_id, row.rating);
      return ratings;
    },

    async ownPlaylistIds(userId, songIds) {
      const memberships = new Map<number, number[]>();
      if (songIds?.length === 0) return memberships;
      const query = () =>
        db
          .selectFrom('playlist_songs')
          .innerJoin('playlists', 'playlists.id', 'playlist_songs.playlist_id')
          .select(['playlist_songs.song_id', 'playlist_songs.playlist_id'])
          .orderBy('playlist_songs.playlist_id', 'asc');
      let rows: { song_id: number; playlist_id: number }[];
      if (songIds !== undefined && songIds.length <= IN_LIST_MAX) {
        // The songs' memberships drive the join (the song_id index), each checked against its playlist's owner. On
        // SQLite the unary plus keeps the planner off the owner index, which would walk every one of the user's
        // playlists for every song (6 ms for 50 songs and 500 playlists, against 0.05 ms). PostgreSQL must see the
        // plain column: it cannot estimate `+owner_id`, takes it for rare, and then loops over the owner's playlists
        // (4.6 ms for 20 songs and 500 playlists, against 0.4 ms with a hash join).
        const list = [...songIds];
        rows = await compiled.rows(`playlists.ownOfSongs:${list.length}`, [...list, userId], () =>
          query().where('playlist_songs.song_id', 'in', list).where(ownerColumn, '=', userId),
        );
      } else {
        rows = await query().where('playlists.owner_id', '=', userId).execute();
      }
      for (const row of rows) {
        const ids = memberships.get(row.song_id);
        if (ids) ids.push(row.playlist_id);
        else memberships.set(row.song_id, [row.playlist_id]);
      }
      return memberships;
    },

    async findPlaylistAccess(playlistId) {
      const row = await db
        .selectFrom('playlists')
        .select(['id', 'owner_id', 'is_public', 'smart_rules'])
        .where('id', '=', playlistId)
        .executeTakeFirst();
      return row && { id: row.id, owner_id: row.owner_id, is_public: row.is_public, smart: row.smart_rules !== null };
    },

    async count() {
      const row = await db
        .selectFrom('songs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async findOrCreateAlbum({ name, artist_id, year }) {
      if (isPlaceholderName(name)) return placeholderAlbumId(db, artist_id);
      const find = () =>
        db
          .selectFrom('albums')
          .select('id')
          .where(sql<SqlBool>`coalesce(artist_id, 0) = ${artist_id ?? 0}`)
          .where('name', '=', name)
          .executeTakeFirst();
      const found = await find();
      if (found !== undefined) return found.id;
      // Another writer may add the same album meanwhile: its row is the one (the unique index keeps one).
      await sql`insert into albums (name, artist_id, year, image_key, created_at)
        values (${name}, ${artist_id}, ${year}, null, ${new Date().toISOString()})
        on conflict (coalesce(artist_id, 0), name) do nothing`.execute(db);
      const inserted = await find();
      if (inserted === undefined) throw new Error(`The album ${name} was neither found nor inserted`);
      return inserted.id;
    },

    placeholderAlbumId(artistId) {
      return placeholderAlbumId(db, artistId);
    },

    async albumPlace(songId) {
      const row = await db
        .selectFrom('album_tracks')
        .innerJoin('albums', 'albums.id', 'album_tracks.album_id')
        .select([
          'album_tracks.album_id',
          'album_tracks.disc_number',
          'album_tracks.track_number',
          'albums.artist_id as album_artist_id',
          'albums.is_placeholder',
        ])
        .where('album_tracks.song_id', '=', songId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { is_placeholder, ...place } = row;
      return { ...place, placeholder: is_placeholder === 1 };
    },

    recordFileLyrics(songId, lyrics, replace) {
      return recordFileLyrics(db, [{ id: songId, lyrics }], replace);
    },

    async setAlbumPlace(songId, place) {
      await db.deleteFrom('album_tracks').where('song_id', '=', songId).execute();
      await db
        .insertInto('album_tracks')
        .values({ song_id: songId, ...place })
        .execute();
    },

    inTransaction(work) {
      return db.transaction().execute((trx) => work(createSongsRepository(trx, null)));
    },
  };
}

/** The artist of this name, compared as the unique index compares artist names (lower()). */
function artistIdOf(db: Kysely<DB>, name: string) {
  return db
    .selectFrom('artists')
    .select('id')
    .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`);
}

/** The album of this name under the album artist of this name (null: unknown), as the unique index compares them. */
function albumIdOf(db: Kysely<DB>, artistName: string | null, name: string) {
  const artistId = artistName === null ? sql<number>`0` : sql<number>`coalesce((${artistIdOf(db, artistName)}), 0)`;
  return db
    .selectFrom('albums')
    .select('id')
    .where(sql<number>`coalesce(artist_id, 0)`, '=', artistId)
    .where('name', '=', name);
}

type Named = Pick<NewSongByArtistName, 'artist_name' | 'album' | 'credits' | 'artist_mb_ids'>;

/**
 * The song with the album it goes on (issue 25): the one it names, else (none, or the placeholder's name) its artist's
 * placeholder, which takes no year, cover or track numbers from a file.
 */
function withAlbum<T extends Named>(song: T): T & { album: ImportedAlbumPlace } {
  const { album } = song;
  if (album !== undefined && album !== null && !isPlaceholderName(album.name)) return { ...song, album };
  return {
    ...song,
    album: {
      name: PLACEHOLDER_NAME,
      // A file's album artist, when it named one; else the song's artist.
      artist_name: album === undefined || album === null ? song.artist_name : album.artist_name,
      year: null,
      image_key: null,
      disc_number: null,
      track_number: null,
    },
  };
}

/** Inserts the artists (of songs, their credits and albums) that do not exist yet, once each. */
async function insertArtistsNamed(db: Kysely<DB>, songs: readonly Named[]): Promise<void> {
  const all = songs.flatMap((song) => [
    song.artist_name,
    song.album?.artist_name ?? null,
    ...(song.credits ?? []).map((credit) => credit.name),
  ]);
  const names = [...new Set(all.filter((name) => name !== null))];
  if (names.length === 0) return;
  // "do nothing" also covers two spellings of one name in this batch ("ABBA", "Abba"): the first one wins.
  await db
    .insertInto('artists')
    .values(names.map((name) => ({ name, image_key: null })))
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/** Inserts the albums that do not exist yet, once each; an existing album without a year or cover takes the new one. */
async function insertAlbumsNamed(db: Kysely<DB>, songs: readonly Named[]): Promise<void> {
  const albums = new Map<string, ImportedAlbumPlace>();
  for (const { album } of songs) {
    if (album === undefined || album === null) continue;
    const key = JSON.stringify([album.artist_name?.toLowerCase() ?? null, album.name]);
    const known = albums.get(key);
    albums.set(key, { ...album, year: known?.year ?? album.year, image_key: known?.image_key ?? album.image_key });
  }
  if (albums.size === 0) return;
  const createdAt = new Date().toISOString();
  const values = [...albums.values()].map((album) => ({
    name: album.name,
    artist_id: album.artist_name === null ? null : artistIdOf(db, album.artist_name),
    year: album.year,
    image_key: album.image_key,
    created_at: createdAt,
    ...(album.release ?? {}),
    is_placeholder: isPlaceholderName(album.name) ? 1 : 0,
  }));
  await db
    .insertInto('albums')
    .values(values)
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  for (const album of albums.values()) {
    if (album.year === null && album.image_key === null) continue;
    await db
      .updateTable('albums')
      .set((eb) => ({
        year: eb.fn.coalesce('year', eb.val(album.year)),
        image_key: eb.fn.coalesce('image_key', eb.val(album.image_key)),
      }))
      .where('id', '=', albumIdOf(db, album.artist_name, album.name))
      .execute();
  }
}

/** Puts each song (by id) on the album it names, at its disc and track. */
async function placeOnAlbums(
  db: Kysely<DB>,
  songs: readonly { id: number | undefined; album?: ImportedAlbumPlace | null | undefined }[],
): Promise<void> {
  const places = songs.flatMap(({ id, album }) =>
    id === undefined || album === undefined || album === null
      ? []
      : [
          {
            song_id: id,
            album_id: albumIdOf(db, album.artist_name, album.name),
            disc_number: album.disc_number,
            track_number: album.track_number,
          },
        ],
  );
  if (places.length > 0) await db.insertInto('album_tracks').values(places).execute();
}

/** Records (or moves) the file each song came from. */
async function recordSources(
  db: Kysely<DB>,
  songs: readonly { id: number | undefined; source?: ImportSourceRow | null | undefined }[],
): Promise<void> {
  const rows = songs.flatMap(({ id, source }) =>
    id === undefined || source === undefined || source === null ? [] : [{ ...source, song_id: id }],
  );
  if (rows.length === 0) return;
  await db
    .insertInto('import_sources')
    .values(rows)
    .onConflict((conflict) =>
      conflict.column('path').doUpdateSet((eb) => ({
        song_id: eb.ref('excluded.song_id'),
        size_bytes: eb.ref('excluded.size_bytes'),
        modified_ms: eb.ref('excluded.modified_ms'),
        sha256: eb.ref('excluded.sha256'),
      })),
    )
    .execute();
}

/**
 * Records each song's credits (song_artists) by artist name, the artists already inserted; with `replace`, a song's
 * earlier credits go first. MusicBrainz artist ids are kept on artists that have none.
 */
async function recordCredits(
  db: Kysely<DB>,
  songs: readonly (Pick<Named, 'credits' | 'artist_mb_ids'> & { id: number | undefined })[],
  replace: boolean,
): Promise<void> {
  const ids = songs.flatMap((song) => (song.id === undefined ? [] : [song.id]));
  if (replace && ids.length > 0) await db.deleteFrom('song_artists').where('song_id', 'in', ids).execute();
  const rows = songs.flatMap(({ id, credits }) =>
    id === undefined
      ? []
      : (credits ?? []).map((credit) => ({
          song_id: id,
          artist_id: artistIdOf(db, credit.name),
          role: credit.role,
          sub_role: credit.sub_role,
          position: credit.position,
        })),
  );
  for (let at = 0; at < rows.length; at += 200) {
    await db
      .insertInto('song_artists')
      .values(rows.slice(at, at + 200))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
  const mbIds = new Map<string, string>();
  for (const song of songs)
    for (const { name, mb_artist_id } of song.artist_mb_ids ?? []) mbIds.set(name, mb_artist_id);
  for (const [name, mbId] of mbIds) {
    await db
      .updateTable('artists')
      .set({ mb_artist_id: mbId })
      .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`)
      .where('mb_artist_id', 'is', null)
      .execute();
  }
}
