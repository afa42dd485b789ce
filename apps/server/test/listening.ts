/**
 * Listens and songs for the listening tests (issue 28): songs of a chosen length, a song in a library hidden from
 * listeners, and listens written straight into the table (for statistics at hand-computed values).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/schema.js';
import { insertSongs, type TestSong } from './factories.js';

interface WithDb {
  db: Kysely<DB>;
}

/** `count` songs of one new artist, each `durationMs` long. */
export async function songsOfLength(t: WithDb, count: number, durationMs: number | null): Promise<TestSong[]> {
  const songs = await insertSongs(t, count);
  await t.db
    .updateTable('songs')
    .set({ duration_ms: durationMs })
    .where(
      'id',
      'in',
      songs.map((song) => song.id),
    )
    .execute();
  return songs;
}

/**
 * A song in a library only administrators see (no members): hidden from every listener. `forget` is the app's
 * LibraryAccess.changed, so the app reads who sees what again.
 */
export async function hiddenLibrarySong(t: WithDb, forget: () => void, durationMs = 200_000): Promise<TestSong> {
  const [song] = await songsOfLength(t, 1, durationMs);
  if (song === undefined) throw new Error('no song');
  await hideSongs(t, [song.id], forget);
  return song;
}

/**
 * Moves the songs into a new library that only its members see (and it has none), then calls `forget` (the app's
 * `libraryAccess.changed()`). Answers the library's id.
 */
export async function hideSongs(t: WithDb, songIds: readonly number[], forget: () => void): Promise<number> {
  const name = `Hidden ${randomBytes(4).toString('hex')}`;
  const library = await t.db
    .insertInto('libraries')
    .values({ name, path: `/nonexistent/${name}`, created_at: new Date().toISOString(), everyone: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('songs')
    .set({ library_id: library.id })
    .where('id', 'in', [...songIds])
    .execute();
  forget();
  return library.id;
}

export interface ListenRow {
  userId: number;
  songId: number | null;
  playedAt: string;
  listenedMs: number;
  source?: 'web' | 'subsonic';
  client?: string | null;
}

/** Writes listens straight into the table (no rule checked: the tests choose what was heard). */
export async function insertListens(t: WithDb, listens: readonly ListenRow[]): Promise<void> {
  if (listens.length === 0) return;
  await t.db
    .insertInto('listens')
    .values(
      listens.map((listen) => ({
        user_id: listen.userId,
        song_id: listen.songId,
        played_at: listen.playedAt,
        listened_ms: listen.listenedMs,
        source: listen.source ?? 'web',
        client: listen.client ?? null,
      })),
    )
    .execute();
}

/** The user's listens as the table holds them, oldest first. */
export function listensOf(t: WithDb, userId: number) {
  return t.db
    .selectFrom('listens')
    .select(['song_id', 'played_at', 'listened_ms', 'source', 'client'])
    .where('user_id', '=', userId)
    .orderBy('played_at')
    .orderBy('id')
    .execute();
}

export async function playCountOf(t: WithDb, songId: number): Promise<number> {
  const row = await t.db.selectFrom('songs').select('play_count').where('id', '=', songId).executeTakeFirstOrThrow();
  return row.play_count;
}
