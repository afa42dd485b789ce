import type { PlaylistVisibility } from '@tonearm/contract';
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { containsPattern } from '../../db/like-pattern.js';
import { playlistVisibleTo } from '../../db/playlist-visibility.js';
import { songSeen } from '../../db/library-visibility.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import { lockUser } from '../../db/user-lock.js';
import type { M3uEntry } from './playlist-m3u.js';

export interface NewPlaylist {
  owner_id: number;
  name: string;
  type: string;
  is_public: number;
  image_key: string | null;
  created_at: string;
  /** A smart playlist's definition as JSON (issue 28); absent or null for any other. */
  smart_rules?: string | null;
}

export interface PlaylistPatch {
  name?: string;
  type?: string;
  is_public?: number;
  image_key?: string | null;
  smart_rules?: string;
}

/** Which playlists a list covers: what the policy lets a subject see (contract `visiblePlaylists`), or one owner's. */
export type PlaylistScope = PlaylistVisibility | { kind: 'owner'; ownerId: number };

export interface Page {
  limit: number;
  offset: number;
}

/** A write that names songs: either done, or refused because some ids are not in the catalogue (nothing written). */
export type SongsWrite<T> = { ok: T } | { missingSongs: number[] };

export type AddSongResult = 'added' | 'duplicate' | 'no-song' | 'no-playlist';

/** A playlist that follows a library's playlist file. */
export interface FilePlaylistRow {
  id: number;
  source_path: string;
}

/** What a library's playlist file says: the playlist it is, in full. */
export interface FilePlaylist {
  libraryId: number;
  /** The file's path relative to the library. */
  sourcePath: string;
  ownerId: number;
  name: string;
  /** In file order, each once. */
  songIds: readonly number[];
  now: string;
}

export interface PlaylistsRepository {
  find(id: number): Promise<PlaylistRow | undefined>;
  /** Song ids of each playlist, in position order. */
  songIds(playlistIds: readonly number[]): Promise<Map<number, number[]>>;
  list(scope: PlaylistScope, page: Page): Promise<PlaylistRow[]>;
  /** Newest first (id descending), before `beforeId` when given; `nameContains` narrows by name, ignoring case. */
  page(
    scope: PlaylistScope,
    nameContains: string | undefined,
    beforeId: number | undefined,
    limit: number,
  ): Promise<PlaylistRow[]>;
  count(scope: PlaylistScope, nameContains: string | undefined): Promise<number>;
  userExists(id: number): Promise<boolean>;
  /** How many playlists the user owns. */
  countOwned(ownerId: number): Promise<number>;
  /**
   * Inserts the playlist and its songs (positions 0..n-1) in one transaction; `beforeCommit` runs last inside it (it
   * commits the cover blobs), so a failure anywhere leaves neither row nor blob. Refused (`ownedLimit`, nothing
   * written) when the owner already has `maxOwned` playlists, checked under the owner's lock.
   */
  create(
    playlist: NewPlaylist,
    songIds: readonly number[],
    beforeCommit: () => Promise<void>,
    maxOwned: number,
    hidden?: readonly number[],
  ): Promise<SongsWrite<PlaylistRow> | { ownedLimit: true }>;
  /**
   * Updates the playlist and, when `songIds` is given, replaces its songs with that list (songs already present keep
   * their added_at). One transaction; `beforeCommit` as for create. Undefined `ok` when the playlist is gone.
   */
  update(
    id: number,
    patch: PlaylistPatch,
    songIds: readonly number[] | undefined,
    addedAt: string,
    beforeCommit: () => Promise<void>,
    hidden?: readonly number[],
  ): Promise<SongsWrite<PlaylistRow | undefined>>;
  delete(id: number): Promise<boolean>;
  /** Appends a song at the end (one of a `hidden` library counts as no song). */
  addSong(playlistId: number, songId: number, addedAt: string, hidden?: readonly number[]): Promise<AddSongResult>;
  /** Removes a song and closes the gap, so positions stay 0..n-1. False when the song was not in the playlist. */
  removeSong(playlistId: number, songId: number): Promise<boolean>;
  /**
   * Rewrites the order in one transaction: `plan` receives the current song ids (position order) and answers the new
   * order (or throws to refuse, leaving everything as it was).
   */
  reorder(playlistId: number, plan: (current: number[]) => readonly number[]): Promise<boolean>;
  /** The songs of a playlist in order, as an export writes them (with their library file's path, if any). */
  /** The playlist's songs as M3U entries, less those of the `hidden` libraries. */
  exportEntries(playlistId: number, hidden?: readonly number[]): Promise<M3uEntry[]>;
  /** The playlists that follow playlist files of a library. */
  ofLibraryFiles(libraryId: number): Promise<FilePlaylistRow[]>;
  /**
   * Makes the playlist of a library's file what the file says, in one transaction: created the first time; then the
   * same playlist (same id, so what points at it stays) takes the name, owner and songs, songs already there keeping
   * when they were added. Answers what it did; nothing is written when nothing changed.
   */
  syncFromFile(playlist: FilePlaylist): Promise<'created' | 'updated' | 'unchanged'>;
  /** Deletes playlists that followed files now gone. */
  deleteFilePlaylists(ids: readonly number[]): Promise<void>;
  /**
   * A smart playlist's songs as its rules chose them now (issue 28): rewritten only when they changed, each song that
   * stays keeping when it was added. False when the playlist is gone or no longer smart (nothing written).
   */
  replaceSmartSongs(playlistId: number, songIds: readonly number[], now: string): Promise<boolean>;
}

/** Keeps IN lists and multi-row inserts well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

type Db = Kysely<DB> | Transaction<DB>;

/** The playlists a scope covers, and of those the ones whose name contains `nameContains` (ignoring case). */
function scoped<O>(
  query: SelectQueryBuilder<DB, 'playlists', O>,
  scope: PlaylistScope,
  nameContains?: string,
): SelectQueryBuilder<DB, 'playlists', O> {
  let narrowed = query;
  if (scope.kind === 'owner') narrowed = narrowed.where('owner_id', '=', scope.ownerId);
  if (scope.kind === 'public-or-own') narrowed = narrowed.where(playlistVisibleTo(scope, 'playlists'));
  if (nameContains !== undefined) {
    narrowed = narrowed.where(sql<boolean>`lower(name) like ${containsPattern(nameContains)} escape '\\'`);
  }
  return narrowed;
}

async function existingSongIds(db: Db, ids: readonly number[], hidden: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('songs')
      .select('id')
      .where('id', 'in', part)
      .$if(hidden.length > 0, (query) => query.where(songSeen(hidden)))
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/**
 * The ids that name no song; with `hidden` (the writer's hidden libraries), a song of those counts as none, unless it
 * is in `kept` (already in the playlist: a user who lost sight of a library keeps its songs in their playlists).
 */
async function missingSongs(
  db: Db,
  ids: readonly number[],
  hidden: readonly number[] = [],
  kept: ReadonlySet<number> = new Set(),
): Promise<number[]> {
  if (ids.length === 0) return [];
  const added = ids.filter((id) => !kept.has(id));
  const [found, stay] = await Promise.all([
    existingSongIds(db, added, hidden),
    existingSongIds(
      db,
      ids.filter((id) => kept.has(id)),
      [],
    ),
  ]);
  return [...new Set(ids)].filter((id) => !found.has(id) && !stay.has(id));
}

async function currentSongs(db: Db, playlistId: number): Promise<{ song_id: number; added_at: string }[]> {
  return db
    .selectFrom('playlist_songs')
    .select(['song_id', 'added_at'])
    .where('playlist_id', '=', playlistId)
    .orderBy('position')
    .orderBy('added_at')
    .orderBy('song_id')
    .execute();
}

/**
 * Makes the positions of a playlist 0..n-1 again, keeping their order, and answers n. Gaps appear when a song is
 * removed here or deleted from the catalogue (its rows cascade away); only rows whose position changes are written.
 */
async function packPositions(db: Db, playlistId: number): Promise<number> {
  const rows = await db
    .selectFrom('playlist_songs')
    .select(['song_id', 'position'])
    .where('playlist_id', '=', playlistId)
    .orderBy('position')
    .orderBy('added_at')
    .orderBy('song_id')
    .execute();
  for (const [index, row] of rows.entries()) {
    if (row.position === index) continue;
    await db
      .updateTable('playlist_songs')
      .set({ position: index })
      .where('playlist_id', '=', playlistId)
      .where('song_id', '=', row.song_id)
      .execute();
  }
  return rows.length;
}

/** Answers the number of songs, first packing the positions when they have a gap (cheap check: max + 1 = count). */
async function densePositions(db: Db, playlistId: number): Promise<number> {
  const stats = await db
    .selectFrom('playlist_songs')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<number | null>('position').as('max')])
    .where('playlist_id', '=', playlistId)
    .executeTakeFirstOrThrow();
  return (stats.max ?? -1) + 1 === stats.count ? stats.count : packPositions(db, playlistId);
}

/** Replaces the songs of a playlist by `songs`, in that order, positions 0..n-1. */
async function writeSongs(
  db: Db,
  playlistId: number,
  songs: readonly { song_id: number; added_at: string }[],
): Promise<void> {
  await db.deleteFrom('playlist_songs').where('playlist_id', '=', playlistId).execute();
  const rows = songs.map((song, position) => ({ playlist_id: playlistId, ...song, position }));
  for (const part of chunks(rows)) await db.insertInto('playlist_songs').values(part).execute();
}

export function createPlaylistsRepository(db: Kysely<DB>, dialect: Dialect): PlaylistsRepository {
  /** PostgreSQL: serialises writers of one playlist (positions are read, then written). SQLite runs one at a time. */
  const lockPlaylist = (trx: Transaction<DB>, id: number) =>
    trx
      .selectFrom('playlists')
      .select('id')
      .where('id', '=', id)
      .$if(dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();

  return {
    find(id) {
      return db.selectFrom('playlists').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async songIds(playlistIds) {
      const result = new Map<number, number[]>(playlistIds.map((id) => [id, []]));
      for (const part of chunks([...new Set(playlistIds)])) {
        const rows = await db
          .selectFrom('playlist_songs')
          .select(['playlist_id', 'song_id'])
          .where('playlist_id', 'in', part)
          .orderBy('playlist_id')
          .orderBy('position')
          .orderBy('added_at')
          .orderBy('song_id')
          .execute();
        for (const row of rows) result.get(row.playlist_id)?.push(row.song_id);
      }
      return result;
    },

    list(scope, page) {
      return scoped(db.selectFrom('playlists').selectAll(), scope)
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },

    page(scope, nameContains, beforeId, limit) {
      let query = scoped(db.selectFrom('playlists').selectAll(), scope, nameContains);
      if (beforeId !== undefined) query = query.where('id', '<', beforeId);
      return query.orderBy('id', 'desc').limit(limit).execute();
    },

    async count(scope, nameContains) {
      const query = db.selectFrom('playlists').select((eb) => eb.fn.countAll<number>().as('count'));
      const row = await scoped(query, scope, nameContains).executeTakeFirstOrThrow();
      return row.count;
    },

    async userExists(id) {
      return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    async countOwned(ownerId) {
      const row = await db
        .selectFrom('playlists')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('owner_id', '=', ownerId)
        .where('library_id', 'is', null)
        .executeTakeFirstOrThrow();
      return row.count;
    },

    create(playlist, songIds, beforeCommit, maxOwned, hidden = []) {
      return db.transaction().execute(async (trx): Promise<SongsWrite<PlaylistRow> | { ownedLimit: true }> => {
        await lockUser(trx, dialect, playlist.owner_id);
        const owned = await trx
          .selectFrom('playlists')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('owner_id', '=', playlist.owner_id)
          // Playlists that follow a library's files are the library's doing: they take nobody's room.
          .where('library_id', 'is', null)
          .executeTakeFirstOrThrow();
        if (owned.count >= maxOwned) return { ownedLimit: true };
        const missing = await missingSongs(trx, songIds, hidden);
        if (missing.length > 0) return { missingSongs: missing };
        const row = await trx.insertInto('playlists').values(playlist).returningAll().executeTakeFirstOrThrow();
        const songs = songIds.map((song_id) => ({ song_id, added_at: playlist.created_at }));
        await writeSongs(trx, row.id, songs);
        await beforeCommit();
        return { ok: row };
      });
    },

    update(id, patch, songIds, addedAt, beforeCommit, hidden = []) {
      return db.transaction().execute(async (trx): Promise<SongsWrite<PlaylistRow | undefined>> => {
        if ((await lockPlaylist(trx, id)) === undefined) return { ok: undefined };
        if (songIds !== undefined) {
          const before = new Map((await currentSongs(trx, id)).map((s) => [s.song_id, s.added_at]));
          const missing = await missingSongs(trx, songIds, hidden, new Set(before.keys()));
          if (missing.length > 0) return { missingSongs: missing };
          await writeSongs(
            trx,
            id,
            songIds.map((song_id) => ({ song_id, added_at: before.get(song_id) ?? addedAt })),
          );
        }
        const row =
          Object.keys(patch).length === 0
            ? await trx.selectFrom('playlists').selectAll().where('id', '=', id).executeTakeFirst()
            : await trx.updateTable('playlists').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
        await beforeCommit();
        return { ok: row };
      });
    },

    replaceSmartSongs(playlistId, songIds, now) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('playlists')
          .select('smart_rules')
          .where('id', '=', playlistId)
          .$if(dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        if (row === undefined || row.smart_rules === null) return false;
        const current = await currentSongs(trx, playlistId);
        if (current.length === songIds.length && current.every((song, index) => song.song_id === songIds[index]))
          return true;
        const before = new Map(current.map((song) => [song.song_id, song.added_at]));
        const songs = songIds.map((song_id) => ({ song_id, added_at: before.get(song_id) ?? now }));
        await writeSongs(trx, playlistId, songs);
        return true;
      });
    },

    async delete(id) {
      // playlist_songs rows go with it (ON DELETE CASCADE).
      const result = await db.deleteFrom('playlists').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    addSong(playlistId, songId, addedAt, hidden = []) {
      return db.transaction().execute(async (trx): Promise<AddSongResult> => {
        if ((await lockPlaylist(trx, playlistId)) === undefined) return 'no-playlist';
        if ((await missingSongs(trx, [songId], hidden)).length > 0) return 'no-song';
        const present = await trx
          .selectFrom('playlist_songs')
          .select('song_id')
          .where('playlist_id', '=', playlistId)
          .where('song_id', '=', songId)
          .executeTakeFirst();
        if (present !== undefined) return 'duplicate';
        const count = await densePositions(trx, playlistId);
        await trx
          .insertInto('playlist_songs')
          .values({ playlist_id: playlistId, song_id: songId, position: count, added_at: addedAt })
          .execute();
        return 'added';
      });
    },

    removeSong(playlistId, songId) {
      return db.transaction().execute(async (trx) => {
        if ((await lockPlaylist(trx, playlistId)) === undefined) return false;
        const removed = await trx
          .deleteFrom('playlist_songs')
          .where('playlist_id', '=', playlistId)
          .where('song_id', '=', songId)
          .returning('position')
          .executeTakeFirst();
        if (removed === undefined) return false;
        await trx
          .updateTable('playlist_songs')
          .set((eb) => ({ position: eb('position', '-', 1) }))
          .where('playlist_id', '=', playlistId)
          .where('position', '>', removed.position)
          .execute();
        await densePositions(trx, playlistId);
        return true;
      });
    },

    reorder(playlistId, plan) {
      return db.transaction().execute(async (trx) => {
        if ((await lockPlaylist(trx, playlistId)) === undefined) return false;
        const songs = await currentSongs(trx, playlistId);
        const addedAt = new Map(songs.map((s) => [s.song_id, s.added_at]));
        const order = plan(songs.map((s) => s.song_id));
        await writeSongs(
          trx,
          playlistId,
          order.map((song_id) => ({ song_id, added_at: addedAt.get(song_id) ?? '' })),
        );
        return true;
      });
    },

    async exportEntries(playlistId, hidden = []) {
      const rows = await db
        .selectFrom('playlist_songs')
        .innerJoin('songs', 'songs.id', 'playlist_songs.song_id')
        .leftJoin('artists', 'artists.id', 'songs.artist_id')
        .leftJoin('library_files', 'library_files.song_id', 'songs.id')
        .select([
          'songs.name',
          'songs.display_artist',
          'artists.name as artist_name',
          'songs.duration_ms',
          'songs.audio_key',
          'library_files.path as library_path',
        ])
        .where('playlist_songs.playlist_id', '=', playlistId)
        .$if(hidden.length > 0, (query) => query.where(songSeen(hidden)))
        .orderBy('playlist_songs.position')
        .orderBy('playlist_songs.added_at')
        .orderBy('playlist_songs.song_id')
        .execute();
      return rows.map((row) => ({
        name: row.name,
        artistName: row.display_artist ?? row.artist_name,
        durationMs: row.duration_ms,
        audioKey: row.audio_key,
        libraryPath: row.library_path,
      }));
    },

    async ofLibraryFiles(libraryId) {
      const rows = await db
        .selectFrom('playlists')
        .select(['id', 'source_path'])
        .where('library_id', '=', libraryId)
        .orderBy('id')
        .execute();
      return rows.flatMap((row) => (row.source_path === null ? [] : [{ id: row.id, source_path: row.source_path }]));
    },

    syncFromFile(playlist) {
      return db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('playlists')
          .select(['id', 'name', 'owner_id'])
          .where('library_id', '=', playlist.libraryId)
          .where('source_path', '=', playlist.sourcePath)
          .$if(dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        // Songs deleted since the file was matched are left out rather than refused.
        const present = await existingSongIds(trx, playlist.songIds, []);
        const songIds = playlist.songIds.filter((id) => present.has(id));
        if (existing === undefined) {
          const row = await trx
            .insertInto('playlists')
            .values({
              owner_id: playlist.ownerId,
              name: playlist.name,
              type: '',
              is_public: 0,
              image_key: null,
              created_at: playlist.now,
              library_id: playlist.libraryId,
              source_path: playlist.sourcePath,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await writeSongs(
            trx,
            row.id,
            songIds.map((song_id) => ({ song_id, added_at: playlist.now })),
          );
          return 'created';
        }
        const current = await currentSongs(trx, existing.id);
        const sameSongs =
          current.length === songIds.length && current.every((song, index) => song.song_id === songIds[index]);
        const sameRow = existing.name === playlist.name && existing.owner_id === playlist.ownerId;
        if (sameSongs && sameRow) return 'unchanged';
        if (!sameRow) {
          await trx
            .updateTable('playlists')
            .set({ name: playlist.name, owner_id: playlist.ownerId })
            .where('id', '=', existing.id)
            .execute();
        }
        if (!sameSongs) {
          const addedAt = new Map(current.map((song) => [song.song_id, song.added_at]));
          await writeSongs(
            trx,
            existing.id,
            songIds.map((song_id) => ({ song_id, added_at: addedAt.get(song_id) ?? playlist.now })),
          );
        }
        return 'updated';
      });
    },

    async deleteFilePlaylists(ids) {
      for (const part of chunks(ids)) {
        await db.deleteFrom('playlists').where('id', 'in', part).where('library_id', 'is not', null).execute();
      }
    },
  };
}
