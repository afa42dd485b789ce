import { sql, type Kysely, type Selectable } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { DuplicateError } from '../../db/duplicate-error.js';
import { uniqueViolation } from '../../db/errors.js';
import type { NewSongByArtistName, SongsRepository } from '../songs/songs.repository.js';
import type { DB, LibraryFilesTable, LibraryImagesTable, LibraryScansTable } from '../../db/schema.js';
import type { FileLyrics } from '../../media/file-lyrics.js';

export interface LibraryRow {
  id: number;
  name: string;
  path: string;
  created_at: string;
  /** Who owns its scan and playlists from files (see scanOwner); null until known. */
  owner_id?: number | null;
}

/** A library with how many songs it has, and how many of those are missing. */
export interface LibrarySummaryRow extends LibraryRow {
  song_count: number;
  missing_count: number;
  last_scanned_at: string | null;
}

/** A file of a library as last read, with its song's missing mark. */
export interface KnownFileRow extends LibraryFilesTable {
  missing_since: string | null;
  audio_key: string;
  image_key: string | null;
}

/** A scan's row: its counts are plain numbers once read. */
export type ScanRow = Selectable<LibraryScansTable>;

/** What a scan counts as it goes (the columns of its row). */
export type ScanCounts = Pick<ScanRow, 'seen' | 'done' | 'added' | 'updated' | 'moved' | 'missing' | 'errors'>;

/** Where a library file is: its library's folder and its path in it. */
export interface FilePlace {
  libraryId: number;
  root: string;
  path: string;
}

/** A moved file: the song keeps its id and takes the new path, state, key and lyrics. */
export interface MovedFile {
  songId: number;
  file: Omit<LibraryFilesTable, 'song_id' | 'library_id'>;
  /** What the file now gives of lyrics (undefined: not known, kept as they are). */
  lyrics: FileLyrics | null | undefined;
  audioKey: string;
  audioSha256: string;
}

export type LibraryImageRow = LibraryImagesTable;

/** The songs repository over a transaction (the scan writes songs and their files together). */
export type SongsOver = (
  trx: Kysely<DB>,
) => Pick<SongsRepository, 'insertByArtistName' | 'replaceImported' | 'deleteEmptyAlbums' | 'recordFileLyrics'>;

/** A song read from a library file: its row, the file and its covers' originals. */
export interface NewLibrarySong {
  row: NewSongByArtistName;
  file: Omit<LibraryFilesTable, 'song_id'>;
  images: LibraryImageRow[];
}

/** A lyrics file state no file has: the next scan reads the song's file again (rereadLyrics). */
const REREAD = '!';

function nameOrPath(error: unknown): never {
  const violated = uniqueViolation(error);
  if (violated !== null) throw new DuplicateError(violated.includes('name') ? 'name' : 'path');
  throw error;
}

/** The SQL of libraries: the folders, the files their songs are, their cover originals and their scans. */
export function createLibrariesRepository(db: Kysely<DB>, songsOver: SongsOver) {
  return {
    async list(): Promise<LibrarySummaryRow[]> {
      const rows = await db
        .selectFrom('libraries')
        .leftJoin('songs', 'songs.library_id', 'libraries.id')
        .select(['libraries.id', 'libraries.name', 'libraries.path', 'libraries.created_at'])
        .select((eb) => [
          // Counts and bigints are strings from PostgreSQL's driver.
          eb.fn.count<number | string>('songs.id').as('song_count'),
          eb.fn.count<number | string>('songs.missing_since').as('missing_count'),
          eb
            .selectFrom('library_scans')
            .select((inner) => inner.fn.max('library_scans.finished_at').as('at'))
            .whereRef('library_scans.library_id', '=', 'libraries.id')
            .where('library_scans.state', '=', 'done')
            .as('last_scanned_at'),
        ])
        .groupBy(['libraries.id', 'libraries.name', 'libraries.path', 'libraries.created_at'])
        .orderBy('libraries.id')
        .execute();
      return rows.map((row) => ({
        ...row,
        song_count: Number(row.song_count),
        missing_count: Number(row.missing_count),
      }));
    },

    find(id: number): Promise<LibraryRow | undefined> {
      return db.selectFrom('libraries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insert(row: Omit<LibraryRow, 'id'> & { everyone: number }): Promise<number> {
      const inserted = await db
        .insertInto('libraries')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch(nameOrPath);
      return inserted.id;
    },

    async rename(id: number, name: string): Promise<void> {
      await db.updateTable('libraries').set({ name }).where('id', '=', id).execute().catch(nameOrPath);
    },

    /** Deletes the library's songs (their likes, plays and playlist entries go with them), then the library. */
    delete(id: number): Promise<RemovedSongs> {
      return db.transaction().execute(async (trx) => {
        const removed = await removeSongs(trx, id, false);
        await trx.deleteFrom('libraries').where('id', '=', id).execute();
        return removed;
      });
    },

    /** Deletes the library's songs whose file is missing. */
    deleteMissing(id: number): Promise<RemovedSongs> {
      return db.transaction().execute((trx) => removeSongs(trx, id, true));
    },

    /** Every file of a library as last read. */
    knownFiles(libraryId: number): Promise<KnownFileRow[]> {
      return db
        .selectFrom('library_files')
        .innerJoin('songs', 'songs.id', 'library_files.song_id')
        .select([
          'library_files.song_id',
          'library_files.library_id',
          'library_files.path',
          'library_files.size_bytes',
          'library_files.modified_ms',
          'library_files.fingerprint',
          'library_files.lyrics_file',
          'songs.missing_since',
          'songs.audio_key',
          'songs.image_key',
        ])
        .where('library_files.library_id', '=', libraryId)
        .execute()
        .then((rows) =>
          rows.map((row) => ({
            ...row,
            size_bytes: Number(row.size_bytes as number | string),
            modified_ms: Number(row.modified_ms as number | string),
          })),
        );
    },

    /**
     * The administrator who owns the library's scan, and so its playlists from files: the one recorded while they are
     * an administrator, else the first administrator (recorded from now on); null while there is none.
     */
    async scanOwner(libraryId: number): Promise<number | null> {
      const recorded = await db
        .selectFrom('libraries')
        .innerJoin('users', 'users.id', 'libraries.owner_id')
        .select('users.id')
        .where('libraries.id', '=', libraryId)
        .where('users.role', '=', 'ADMIN')
        .executeTakeFirst();
      if (recorded !== undefined) return recorded.id;
      const first = await db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'ADMIN')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (first === undefined) return null;
      await db.updateTable('libraries').set({ owner_id: first.id }).where('id', '=', libraryId).execute();
      return first.id;
    },

    /**
     * The libraries whose recorded scan owner is not an administrator now (none recorded, demoted, or deleted): their
     * playlists from files wait for, or belong to, someone scanOwner would replace.
     */
    async withoutAdministratorOwner(): Promise<number[]> {
      const rows = await db
        .selectFrom('libraries')
        .leftJoin('users', 'users.id', 'libraries.owner_id')
        .select('libraries.id')
        .where((eb) => eb.or([eb('users.id', 'is', null), eb('users.role', '<>', 'ADMIN')]))
        .orderBy('libraries.id')
        .execute();
      return rows.map((row) => row.id);
    },

    /** Records the playlist counts of a finished scan. */
    async reportScanPlaylists(scanId: number, playlists: number, unmatchedEntries: number): Promise<void> {
      await db
        .updateTable('library_scans')
        .set({ playlists, unmatched_entries: unmatchedEntries })
        .where('id', '=', scanId)
        .execute();
    },

    /** Where the file a library audio key names is (the key's song must be of that library). */
    locate(audioSha256: string): Promise<FilePlace | undefined> {
      return db
        .selectFrom('songs')
        .innerJoin('library_files', 'library_files.song_id', 'songs.id')
        .innerJoin('libraries', 'libraries.id', 'library_files.library_id')
        .select(['libraries.id as libraryId', 'libraries.path as root', 'library_files.path'])
        .where('songs.audio_sha256', '=', audioSha256)
        .executeTakeFirst();
    },

    /** Records the files songs just inserted are (inside the caller's transaction). */
    async recordFiles(rows: readonly LibraryFilesTable[]): Promise<void> {
      if (rows.length > 0)
        await db
          .insertInto('library_files')
          .values([...rows])
          .execute();
    },

    async updateFile(songId: number, file: Omit<LibraryFilesTable, 'song_id' | 'library_id'>): Promise<void> {
      await db.updateTable('library_files').set(file).where('song_id', '=', songId).execute();
    },

    /**
     * Asks the next scan to read the song's file again, whatever its state (issue 27: an administrator removed its
     * lyrics, and the file's own come back). Nothing for a song of no library.
     */
    async rereadLyrics(songId: number): Promise<void> {
      await db.updateTable('library_files').set({ lyrics_file: REREAD }).where('song_id', '=', songId).execute();
    },

    /** Moved files keep their songs: new path, state and key; no longer missing. */
    async moveFiles(moves: readonly MovedFile[]): Promise<void> {
      if (moves.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const move of moves) {
          await trx.updateTable('library_files').set(move.file).where('song_id', '=', move.songId).execute();
          await trx
            .updateTable('songs')
            .set({ audio_key: move.audioKey, audio_sha256: move.audioSha256, missing_since: null })
            .where('id', '=', move.songId)
            .execute();
          if (move.lyrics !== undefined) await songsOver(trx).recordFileLyrics(move.songId, move.lyrics, true);
        }
      });
    },

    /** Marks songs missing (`since`) or back (null). */
    async markMissing(songIds: readonly number[], since: string | null): Promise<void> {
      for (let at = 0; at < songIds.length; at += 500) {
        await db
          .updateTable('songs')
          .set({ missing_since: since })
          .where('id', 'in', songIds.slice(at, at + 500))
          .execute();
      }
    },

    /** The missing songs of a library. */
    async missingSongIds(libraryId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('songs')
        .select('id')
        .where('library_id', '=', libraryId)
        .where('missing_since', 'is not', null)
        .execute();
      return rows.map((row) => row.id);
    },

    /** Where the original of one of these image keys is, with its library's folder. */
    imageOriginal(imageKeys: readonly string[]): Promise<(LibraryImageRow & { root: string }) | undefined> {
      return db
        .selectFrom('library_images')
        .innerJoin('libraries', 'libraries.id', 'library_images.library_id')
        .select([
          'library_images.image_key',
          'library_images.library_id',
          'library_images.path',
          'library_images.embedded',
          'libraries.path as root',
        ])
        .where('library_images.image_key', 'in', [...imageKeys])
        .executeTakeFirst();
    },

    async startScan(libraryId: number, now: string): Promise<number> {
      const row = await db
        .insertInto('library_scans')
        .values({ library_id: libraryId, state: 'running', started_at: now, heartbeat_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async reportScan(scanId: number, counts: ScanCounts, problems: string, now: string): Promise<void> {
      await db
        .updateTable('library_scans')
        .set({ ...counts, problems, heartbeat_at: now })
        .where('id', '=', scanId)
        .execute();
    },

    async finishScan(
      scanId: number,
      state: 'done' | 'failed',
      counts: ScanCounts,
      problems: string,
      now: string,
    ): Promise<void> {
      await db
        .updateTable('library_scans')
        .set({ ...counts, problems, state, heartbeat_at: now, finished_at: now })
        .where('id', '=', scanId)
        .execute();
    },

    /** The newest scan of each library. */
    async latestScans(): Promise<ScanRow[]> {
      const newest = db
        .selectFrom('library_scans')
        .select((eb) => eb.fn.max('id').as('id'))
        .groupBy('library_id');
      return db.selectFrom('library_scans').selectAll().where('id', 'in', newest).execute();
    },

    /**
     * Marks failed the library's scans left `running`. Only under the library's scan lock, which proves their process
     * dead (LibrariesService.runScan).
     */
    async failLeftRunning(libraryId: number, now: string): Promise<void> {
      await db
        .updateTable('library_scans')
        .set({ state: 'failed', finished_at: now })
        .where('library_id', '=', libraryId)
        .where('state', '=', 'running')
        .execute();
    },

    /**
     * After a scan that wrote: SQLite's write-ahead log folded into the database and emptied (a first scan leaves it
     * larger than the database itself, and SQLite never shrinks it by itself). Nothing on PostgreSQL. When a reader
     * holds the log, SQLite folds what it can and the log stays: not an error.
     */
    async checkpoint(): Promise<void> {
      if (dialectOf(db) === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    },

    /** Libraries whose folder is `path`, or inside it, or holds it. */
    async overlapping(path: string): Promise<LibraryRow[]> {
      const all = await db.selectFrom('libraries').selectAll().execute();
      return all.filter((row) => within(row.path, path) || within(path, row.path));
    },

    /** Deletes the albums of `albumIds` no song is on any more; answers their cover keys. */
    async deleteEmptyAlbums(albumIds: readonly number[]): Promise<(string | null)[]> {
      // The songs repository's rule, a slice at a time (a library holds more albums than a statement takes ids).
      const covers: (string | null)[] = [];
      for (let at = 0; at < albumIds.length; at += 500) {
        covers.push(...(await songsOver(db).deleteEmptyAlbums(albumIds.slice(at, at + 500))));
      }
      return covers;
    },

    /**
     * Adds songs of a library in one transaction: their artists and albums found or created by name, the rows, the
     * files they are and where their covers' originals are. All or nothing.
     */
    async addSongs(songs: readonly NewLibrarySong[]): Promise<void> {
      if (songs.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const ids = await songsOver(trx).insertByArtistName(songs.map((song) => song.row));
        const files = songs.flatMap(({ row, file }) => {
          const songId = ids.get(row.audio_sha256);
          return songId === undefined ? [] : [{ ...file, song_id: songId }];
        });
        await trx.insertInto('library_files').values(files).execute();
        await recordImages(
          trx,
          songs.flatMap((song) => song.images),
        );
      });
    },

    /** A changed file's song takes what the file now says (same id), and the file its new state. */
    async replaceSong(songId: number, song: NewLibrarySong): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const { created_at: _created, ...row } = song.row;
        await songsOver(trx).replaceImported(songId, row);
        await trx.updateTable('library_files').set(song.file).where('song_id', '=', songId).execute();
        await recordImages(trx, song.images);
      });
    },
  };
}

/** What deleting songs leaves to tidy: the albums they were on, and the covers they used. */
export interface RemovedSongs {
  albumIds: number[];
  imageKeys: string[];
}

/** Deletes a library's songs (only the missing ones when `missingOnly`). */
async function removeSongs(db: Kysely<DB>, libraryId: number, missingOnly: boolean): Promise<RemovedSongs> {
  const songs = db
    .selectFrom('songs')
    .select('id')
    .where('library_id', '=', libraryId)
    .$if(missingOnly, (query) => query.where('missing_since', 'is not', null));
  const albums = await db
    .selectFrom('album_tracks')
    .select('album_id')
    .distinct()
    .where('song_id', 'in', songs)
    .execute();
  const images = await db
    .selectFrom('songs')
    .select('image_key')
    .distinct()
    .where('id', 'in', songs)
    .where('image_key', 'is not', null)
    .execute();
  await db.deleteFrom('songs').where('id', 'in', songs).execute();
  return {
    albumIds: albums.map((row) => row.album_id),
    imageKeys: images.flatMap((row) => (row.image_key === null ? [] : [row.image_key])),
  };
}

/** Records where cover originals are: the latest place read for a key. */
async function recordImages(db: Kysely<DB>, rows: readonly LibraryImageRow[]): Promise<void> {
  const byKey = new Map(rows.map((row) => [row.image_key, row]));
  if (byKey.size === 0) return;
  await db
    .insertInto('library_images')
    .values([...byKey.values()])
    .onConflict((conflict) =>
      conflict.column('image_key').doUpdateSet((eb) => ({
        library_id: eb.ref('excluded.library_id'),
        path: eb.ref('excluded.path'),
        embedded: eb.ref('excluded.embedded'),
      })),
    )
    .execute();
}

/** Whether `inner` is `outer` or inside it (absolute, normalised paths). */
export function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

export type LibrariesRepository = ReturnType<typeof createLibrariesRepository>;
