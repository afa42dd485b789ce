/**
 * Users, artists, songs and playlists for a test. `make*` goes through the API as a client would (and asserts that it
 * worked); `insert*` writes rows straight into the database, for tests about another module than the one that owns
 * them, or that need many rows fast (no upload, no blob, no password hashing).
 */
import { randomBytes } from 'node:crypto';
import type { Playlist } from '@tonearm/contract';
import type { Insertable, Kysely } from 'kysely';
import { expect } from 'vitest';
import { deleteEmptyPlaceholders, moveToPlaceholders } from '../src/db/album-placeholders.js';
import { appliedMigrations } from '../src/db/migrations/index.js';
import type { DB, RoleValue, SongsTable } from '../src/db/schema.js';
import type { App } from '../src/http/app-types.js';
import { clientOf } from './client.js';
import { DEFAULT_PASSWORD, login, registerUser, uniqueName } from './harness.js';
import { picture, toneWav, type FormValue } from './media.js';

const PREMIUM_FOREVER = '9999-12-31T23:59:59.999Z';

/** What the factories need of a test app or database. */
interface WithApp {
  app: App;
  db: Kysely<DB>;
}
interface WithDb {
  db: Kysely<DB>;
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  role: RoleValue;
  /** Cookie header value of a fresh session. */
  cookie: string;
}

export interface MakeUserOptions {
  role?: RoleValue;
  /** premium_until in the future (true) or an explicit ISO timestamp. */
  premium?: boolean | string;
  username?: string;
  password?: string;
}

/** Registers, sets role/premium directly in the database (whatever order users were created in), and logs in. */
export async function makeUser(t: WithApp, options: MakeUserOptions = {}): Promise<TestUser> {
  const username = options.username ?? uniqueName(options.role === 'ADMIN' ? 'admin' : 'user');
  const password = options.password ?? DEFAULT_PASSWORD;
  const role = options.role ?? 'USER';
  await registerUser(t.app, { username, password });
  const premiumUntil =
    options.premium === true ? PREMIUM_FOREVER : typeof options.premium === 'string' ? options.premium : null;
  const row = await t.db
    .updateTable('users')
    .set({ role, premium_until: premiumUntil })
    .where('username', '=', username)
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const cookie = await login(t.app, username, password);
  return { id: row.id, username, email: row.email, password, role, cookie };
}

export interface InsertUserOptions {
  username?: string;
  role?: RoleValue;
  /** premium_until in the far future. */
  premium?: boolean;
}

/** Inserts a user row (no password to log in with: its hash is a placeholder) and answers its id and name. */
export async function insertUser(
  t: WithDb,
  options: InsertUserOptions = {},
): Promise<{ id: number; username: string }> {
  const username = options.username ?? uniqueName('row');
  const { id } = await t.db
    .insertInto('users')
    .values({
      username,
      email: `${username}@example.test`,
      password_hash: 'x',
      role: options.role ?? 'USER',
      premium_until: options.premium === true ? PREMIUM_FOREVER : null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, username };
}

export const makeAdmin = (t: WithApp, options: Omit<MakeUserOptions, 'role'> = {}) =>
  makeUser(t, { ...options, role: 'ADMIN' });

/** Creates an artist through the API as `admin` and answers its id. */
export async function makeArtist(t: WithApp, admin: TestUser, name: string, image?: Buffer): Promise<number> {
  const fields: Record<string, FormValue> = { name };
  if (image !== undefined) fields.image = { data: image, filename: 'artist.png', type: 'image/png' };
  const response = await clientOf(t.app, admin).form('POST', '/artists', fields);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

export interface SongUpload {
  name?: string;
  genre?: string;
  artistId: number;
  audio?: Buffer;
  cover?: Buffer;
}

let toneCounter = 0;

/** Uploads a song through the API as `admin` (distinct audio and cover unless given) and answers its id. */
export async function makeSong(t: WithApp, admin: TestUser, upload: SongUpload): Promise<number> {
  toneCounter += 1;
  const response = await clientOf(t.app, admin).form('POST', '/api/songs', {
    name: upload.name ?? `Song ${toneCounter}`,
    genre: upload.genre ?? 'Pop',
    artistId: String(upload.artistId),
    // A frequency no test's own tone has (they are whole numbers): the catalogue refuses a second copy of one file.
    songFile: { data: upload.audio ?? toneWav(200.5 + toneCounter * 7), filename: 'song.wav', type: 'audio/wav' },
    imageFile: { data: upload.cover ?? (await picture(toneCounter)), filename: 'cover.png', type: 'image/png' },
  });
  expect(response.statusCode, response.body).toBe(201);
  const row = await t.db.selectFrom('songs').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.id;
}

/** Creates a playlist through the API as `owner` (JSON, no cover) and answers it. */
/** The blob keys a song's row names: its audio, and its cover (null without one). */
export async function blobKeysOf(t: WithDb, songId: number): Promise<{ audioKey: string; imageKey: string | null }> {
  const row = await t.db
    .selectFrom('songs')
    .select(['audio_key', 'image_key'])
    .where('id', '=', songId)
    .executeTakeFirstOrThrow();
  return { audioKey: row.audio_key, imageKey: row.image_key };
}

export async function makePlaylist(t: WithApp, owner: TestUser, fields: Record<string, unknown>): Promise<Playlist> {
  const response = await clientOf(t.app, owner).post('/api/playlists', fields);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Playlist>();
}

export interface TestSong {
  id: number;
  name: string;
  audioKey: string;
}

/**
 * Keeps the catalogue's rule for rows written straight into the tables: every song on an album, here its artist's
 * placeholder (issue 25). A database migrated to before the placeholders (a migration's test) is left as that version
 * kept it.
 */
async function onPlaceholders(t: WithDb, songIds: readonly number[]): Promise<void> {
  if ((await appliedMigrations(t.db)).includes('018-album-placeholders')) await moveToPlaceholders(t.db, songIds);
}

/**
 * Puts a song on an album at a disc and track, straight into album_tracks, replacing the place it had (every song is
 * on one album); its placeholder goes when that leaves it empty.
 */
export async function placeOnAlbum(
  t: WithDb,
  songId: number,
  albumId: number,
  disc: number | null = null,
  track: number | null = null,
): Promise<void> {
  const before = await t.db
    .selectFrom('album_tracks')
    .select('album_id')
    .where('song_id', '=', songId)
    .executeTakeFirst();
  await t.db.deleteFrom('album_tracks').where('song_id', '=', songId).execute();
  await t.db
    .insertInto('album_tracks')
    .values({ song_id: songId, album_id: albumId, disc_number: disc, track_number: track })
    .execute();
  if (before !== undefined && before.album_id !== albumId) await deleteEmptyPlaceholders(t.db, [before.album_id]);
}

/** Inserts `count` songs (with an artist, without audio blobs) and answers them in id order. */
export async function insertSongs(
  t: WithDb,
  count: number,
  artistName = `Artist ${randomBytes(6).toString('hex')}`,
): Promise<TestSong[]> {
  const artist = await t.db
    .insertInto('artists')
    .values({ name: artistName, image_key: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const songs: TestSong[] = [];
  for (let i = 0; i < count; i += 1) {
    const values = songValues(`Song ${i + 1}`, artist.id);
    const row = await t.db.insertInto('songs').values(values).returning('id').executeTakeFirstOrThrow();
    songs.push({ id: row.id, name: values.name, audioKey: values.audio_key });
  }
  await onPlaceholders(
    t,
    songs.map((song) => song.id),
  );
  return songs;
}

/** The row of a song without audio blobs (a fresh random audio hash). */
function songValues(name: string, artistId: number | null): Insertable<SongsTable> {
  const sha = randomBytes(32).toString('hex');
  return {
    name,
    genre: 'Pop',
    artist_id: artistId,
    audio_key: `${sha}.mp3`,
    audio_sha256: sha,
    mime: 'audio/mpeg',
    size_bytes: 4,
    duration_ms: 1000,
    image_key: null,
    created_at: new Date().toISOString(),
  };
}

/** Inserts `count` songs of no artist in one statement, for tests that need thousands; answers their ids in order. */
export async function insertManySongs(t: WithDb, count: number): Promise<number[]> {
  const values = Array.from({ length: count }, (_, i) => songValues(`Many ${i + 1}`, null));
  const rows = await t.db.insertInto('songs').values(values).returning('id').execute();
  const ids = rows.map((row) => row.id).sort((a, b) => a - b);
  await onPlaceholders(t, ids);
  return ids;
}

export interface PlaylistRow {
  ownerId: number;
  name: string;
  type?: string;
  isPublic: boolean;
  /** The songs in playlist order. */
  songIds?: number[];
}

/** Inserts a playlist (no cover) with its songs and answers its id. */
export async function insertPlaylist(t: WithDb, playlist: PlaylistRow): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await t.db
    .insertInto('playlists')
    .values({
      owner_id: playlist.ownerId,
      name: playlist.name,
      type: playlist.type ?? '',
      is_public: playlist.isPublic ? 1 : 0,
      image_key: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const songIds = playlist.songIds ?? [];
  if (songIds.length > 0) {
    await t.db
      .insertInto('playlist_songs')
      .values(songIds.map((songId, position) => ({ playlist_id: id, song_id: songId, position, added_at: now })))
      .execute();
  }
  return id;
}
