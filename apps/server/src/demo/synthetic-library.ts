import { createHash } from 'node:crypto';
import path from 'node:path';
import { GENRES } from '@tonearm/contract';
import { sql, type Insertable, type Kysely } from 'kysely';
import { placeSongsWithoutAlbum } from '../db/album-placeholders.js';
import { createDatabase, type AppDatabase } from '../db/database.js';
import { appliedMigrations, migrateToLatest, migrateUpTo } from '../db/migrations/index.js';
import type { DB, SongsTable } from '../db/schema.js';
import { commitAll, discardAll, stageAudio, stageImage, type StagedAudio, type StagedImage } from '../media/staging.js';
import type { BlobStore } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { renderCover } from './artwork.js';
import { encodeWav } from './wav.js';

/**
 * A library of any size written straight into the database (no upload pipeline), for the catalogue benchmark and the
 * large-library e2e test: songs with names of two or three words from a small vocabulary (so two-word and prefix
 * searches hit many of them), about one artist per 20 songs, and optionally playlists and likes. The same options give
 * the same library, with the same ids on a fresh database. The search index fills itself (migration 002's triggers).
 * Every song is on an album, as the catalogue's rule has it (issue 25): the albums asked for, else its artist's
 * placeholder album.
 */
export interface SyntheticLibraryOptions {
  songs: number;
  /** Default: songs / 20. */
  artists?: number;
  /** `count` playlists of `size` songs each, owned in turn by `owners`; every third one public. */
  playlists?: { owners: readonly number[]; count: number; size: number };
  /** `count` songs liked by the user. */
  likes?: { userId: number; count: number };
  /**
   * Real media: `distinct` playable audio files and covers (default 8) committed to `store`, shared by the rows in
   * turn. songs.audio_sha256 is unique, audio_key is not: each row gets a sha256 of its own (derived from its number)
   * and points at one of the shared files. Without media the rows name audio that does not exist and have no cover.
   */
  media?: { store: BlobStore; distinct?: number };
  /**
   * Albums of up to `size` songs: each artist's songs, in id order, make its albums, with track numbers and a year.
   * Written after the last migration (the album tables are newer than the first one).
   */
  albums?: { size: number };
}

export interface SyntheticLibrarySummary {
  artists: number;
  songs: number;
  playlists: number;
  likes: number;
  albums: number;
  ms: number;
}

/** Title words; two or three of them make a song name. */
export const SYNTHETIC_WORDS = [
  'amber',
  'river',
  'silver',
  'night',
  'golden',
  'echo',
  'velvet',
  'paper',
  'glass',
  'ocean',
  'summer',
  'winter',
  'cloud',
  'ember',
  'static',
  'neon',
  'hollow',
  'wild',
  'quiet',
  'electric',
  'crimson',
  'northern',
  'lantern',
  'signal',
  'harbor',
  'marble',
  'saffron',
  'cobalt',
  'juniper',
  'willow',
  'falcon',
  'meadow',
  'thunder',
  'orchid',
  'silent',
  'copper',
  'midnight',
  'morning',
  'autumn',
  'shadow',
] as const;

/** Rows per insert statement: far below both dialects' limits on bound parameters. */
const CHUNK = 1000;
const DEFAULT_DISTINCT_MEDIA = 8;
const MEDIA_SECONDS = 4;
const MEDIA_SAMPLE_RATE = 8000;

/** A deterministic pseudo-random generator (a linear congruential one), so every run makes the same library. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

interface SongSpec {
  name: string;
  genre: string;
  artistId: number;
  durationMs: number;
}

/** The rows of every table but songs (whose media is staged first), as inserted. */
interface LibraryRows {
  artists: Insertable<DB['artists']>[];
  songs: SongSpec[];
  playlists: Insertable<DB['playlists']>[];
  entries: Insertable<DB['playlist_songs']>[];
  likes: Insertable<DB['likes']>[];
}

/** Every row, with the ids a fresh database gives them (1, 2, 3… in insertion order, on both dialects). */
function libraryRows(options: SyntheticLibraryOptions, createdAt: string): LibraryRows {
  const random = seeded(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const title = (words: number) => Array.from({ length: words }, () => pick(SYNTHETIC_WORDS)).join(' ');
  const capitalised = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());
  const artistCount = options.artists ?? Math.max(1, Math.round(options.songs / 20));
  const artists = Array.from({ length: artistCount }, (_, i) => ({
    name: `${capitalised(title(2))} ${i + 1}`,
    image_key: null,
  }));
  const songs = Array.from({ length: options.songs }, () => {
    // In this order: the numbers drawn, and so the library, stay those of earlier benchmark runs.
    const name = capitalised(title(2 + Math.floor(random() * 2)));
    const artistId = 1 + Math.floor(random() * artistCount);
    const durationMs = 180_000 + Math.floor(random() * 120_000);
    return { name, genre: pick(GENRES), artistId, durationMs };
  });
  const playlists: LibraryRows['playlists'] = [];
  const entries: LibraryRows['entries'] = [];
  const { owners = [], count = 0, size = 0 } = options.playlists ?? {};
  for (let p = 1; p <= count && owners.length > 0; p++) {
    playlists.push({
      owner_id: owners[p % owners.length] ?? 0,
      name: `${capitalised(title(2))} mix ${p}`,
      type: 'Mix',
      is_public: p % 3 === 0 ? 1 : 0,
      created_at: createdAt,
    });
    const picked = new Set<number>();
    while (picked.size < Math.min(size, options.songs)) picked.add(1 + Math.floor(random() * options.songs));
    [...picked].forEach((song_id, position) =>
      entries.push({ playlist_id: p, song_id, position, added_at: createdAt }),
    );
  }
  const liked = new Set<number>();
  const { userId, count: likes = 0 } = options.likes ?? {};
  while (liked.size < Math.min(likes, options.songs)) liked.add(1 + Math.floor(random() * options.songs));
  return {
    artists,
    songs,
    playlists,
    entries,
    likes:
      userId === undefined ? [] : [...liked].map((song_id) => ({ user_id: userId, song_id, created_at: createdAt })),
  };
}

interface SharedMedia {
  audio: StagedAudio[];
  covers: StagedImage[];
}

/** A few seconds of a two-note figure whose pitches and rhythm follow from `index`: real, distinct, playable audio. */
function figure(index: number): Buffer {
  const samples = new Float32Array(MEDIA_SECONDS * MEDIA_SAMPLE_RATE);
  const low = 110 * 2 ** (((index * 5) % 24) / 12);
  const beat = Math.round(MEDIA_SAMPLE_RATE / (2 + (index % 3)));
  for (let i = 0; i < samples.length; i++) {
    const frequency = Math.floor(i / beat) % 2 === 0 ? low : low * 1.5;
    samples[i] = 0.3 * (1 - (i % beat) / beat) * Math.sin((2 * Math.PI * frequency * i) / MEDIA_SAMPLE_RATE);
  }
  return encodeWav(samples, MEDIA_SAMPLE_RATE);
}

async function stageSharedMedia(store: BlobStore, distinct: number): Promise<SharedMedia> {
  const media: SharedMedia = { audio: [], covers: [] };
  try {
    for (let i = 0; i < distinct; i++) {
      media.audio.push(await stageAudio(store, figure(i)));
      media.covers.push(await stageImage(store, await renderCover(`Library ${i + 1}`, 'Tonearm', 'rings', i + 1)));
    }
    return media;
  } catch (error) {
    await discardAll([...media.audio, ...media.covers]);
    throw error;
  }
}

/** A sha256 of its own for song `number`, for rows that share an audio file (audio_sha256 is unique). */
function rowSha256(number: number): string {
  return createHash('sha256').update(`tonearm synthetic song ${number}`).digest('hex');
}

type SongInsert = Omit<Insertable<SongsTable>, 'id'>;

/** The songs table's row for song `number` (1-based). */
function songRow(song: SongSpec, number: number, media: SharedMedia | null, createdAt: string): SongInsert {
  if (media === null) {
    // Blobs that do not exist: enough for listing and search (the benchmark measures only those).
    const key = `bench-${number.toString(16).padStart(8, '0')}`;
    return {
      name: song.name,
      genre: song.genre,
      artist_id: song.artistId,
      audio_key: `${key}.mp3`,
      audio_sha256: key.padEnd(64, '0'),
      mime: 'audio/mpeg',
      size_bytes: 4_000_000,
      duration_ms: song.durationMs,
      image_key: null,
      created_at: createdAt,
    };
  }
  const audio = media.audio[number % media.audio.length];
  const cover = media.covers[number % media.covers.length];
  if (audio === undefined || cover === undefined) throw new Error('no shared media staged');
  return {
    name: song.name,
    genre: song.genre,
    artist_id: song.artistId,
    audio_key: audio.key,
    audio_sha256: rowSha256(number),
    mime: audio.mime,
    size_bytes: audio.size,
    duration_ms: audio.durationMs,
    image_key: cover.originalKey,
    created_at: createdAt,
  };
}

async function insertChunked<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

/**
 * Writes a synthetic library into a migrated database (best a fresh one: the rows' ids are assumed to be 1, 2, 3…),
 * in one transaction; shared media is committed last, inside it. The users named by `playlists` and `likes` must
 * exist. Each song goes on its artist's placeholder album (`albums` is seedAndMigrate's).
 */
export async function seedSyntheticLibrary(
  db: Kysely<DB>,
  options: SyntheticLibraryOptions,
): Promise<SyntheticLibrarySummary> {
  const started = performance.now();
  const summary = await writeLibrary(db, options);
  await placeSongsWithoutAlbum(db);
  return { ...summary, ms: Math.round(performance.now() - started) };
}

/** The rows of seedSyntheticLibrary, on no album (the album tables may not exist yet: see seedAndMigrate). */
async function writeLibrary(db: Kysely<DB>, options: SyntheticLibraryOptions): Promise<SyntheticLibrarySummary> {
  const started = performance.now();
  const createdAt = new Date().toISOString();
  const rows = libraryRows(options, createdAt);
  const media =
    options.media === undefined
      ? null
      : await stageSharedMedia(options.media.store, options.media.distinct ?? DEFAULT_DISTINCT_MEDIA);
  try {
    await db.transaction().execute(async (trx) => {
      await insertChunked(rows.artists, (chunk) => trx.insertInto('artists').values(chunk).execute());
      await insertChunked(
        rows.songs.map((song, index) => songRow(song, index + 1, media, createdAt)),
        (chunk) => trx.insertInto('songs').values(chunk).execute(),
      );
      await insertChunked(rows.playlists, (chunk) => trx.insertInto('playlists').values(chunk).execute());
      await insertChunked(rows.entries, (chunk) => trx.insertInto('playlist_songs').values(chunk).execute());
      await insertChunked(rows.likes, (chunk) => trx.insertInto('likes').values(chunk).execute());
      if (media !== null) await commitAll([...media.audio, ...media.covers]);
    });
  } catch (error) {
    if (media !== null) await discardAll([...media.audio, ...media.covers]);
    throw error;
  }
  return {
    artists: rows.artists.length,
    songs: rows.songs.length,
    playlists: rows.playlists.length,
    likes: rows.likes.length,
    albums: 0,
    ms: Math.round(performance.now() - started),
  };
}

/** The albums of `options.albums` over a seeded library's songs (ids 1…n), and their tracks; answers how many. */
async function seedSyntheticAlbums(db: Kysely<DB>, options: SyntheticLibraryOptions): Promise<number> {
  const size = options.albums?.size ?? 0;
  if (size <= 0) return 0;
  const createdAt = new Date().toISOString();
  const byArtist = new Map<number, number[]>();
  libraryRows(options, createdAt).songs.forEach((song, index) => {
    const list = byArtist.get(song.artistId) ?? [];
    list.push(index + 1);
    byArtist.set(song.artistId, list);
  });
  const random = seeded(7);
  const albums: Insertable<DB['albums']>[] = [];
  const tracks: Insertable<DB['album_tracks']>[] = [];
  for (const [artistId, songIds] of [...byArtist].sort(([a], [b]) => a - b)) {
    for (let start = 0; start < songIds.length; start += size) {
      const word = SYNTHETIC_WORDS[Math.floor(random() * SYNTHETIC_WORDS.length)] ?? 'album';
      albums.push({
        name: `${word.replace(/^\w/, (c) => c.toUpperCase())} album ${albums.length + 1}`,
        artist_id: artistId,
        year: 1960 + Math.floor(random() * 66),
        image_key: null,
        // Distinct dates, so the newest-first lists have a settled order.
        created_at: new Date(Date.parse(createdAt) - albums.length * 1000).toISOString(),
      });
      songIds
        .slice(start, start + size)
        .forEach((song_id, index) =>
          tracks.push({ song_id, album_id: albums.length, disc_number: 1, track_number: index + 1 }),
        );
    }
  }
  await db.transaction().execute(async (trx) => {
    await insertChunked(albums, (chunk) => trx.insertInto('albums').values(chunk).execute());
    await insertChunked(tracks, (chunk) => trx.insertInto('album_tracks').values(chunk).execute());
  });
  return albums.length;
}

/** The first migration: the tables, before any index that triggers fill (see seedSyntheticLibraryAt). */
const FIRST_MIGRATION = '001-initial';
/**
 * The last migration before 018 put the songs on no album on placeholder albums: the albums asked for are seeded at it,
 * so that on a fresh database they keep the ids 1, 2, 3… the benchmarks ask for.
 */
const BEFORE_PLACEHOLDERS = '016-catalogue-rows-version';

/**
 * Seeds a database and migrates it to the latest version. A fresh database is seeded as an install from before the
 * search index was (migration 001 only), and then migrated: migration 002 fills the index with one statement per
 * table, several times faster on PostgreSQL than its triggers row by row, and every later migration meets the rows as
 * it meets any existing install's (018 puts the songs that the albums asked for leave out on their artists'
 * placeholder albums). A database already migrated is seeded as it is.
 */
export async function seedAndMigrate(
  database: AppDatabase,
  options: SyntheticLibraryOptions,
): Promise<SyntheticLibrarySummary> {
  if ((await appliedMigrations(database.db)).length === 0) await migrateUpTo(database.db, FIRST_MIGRATION);
  else await migrateToLatest(database.db);
  const summary = await writeLibrary(database.db, options);
  await migrateUpTo(database.db, BEFORE_PLACEHOLDERS);
  summary.albums = await seedSyntheticAlbums(database.db, options);
  await migrateToLatest(database.db);
  // The same, for a database that was already migrated.
  await placeSongsWithoutAlbum(database.db);
  // PostgreSQL plans by statistics: a table that grew from nothing needs them before the first query.
  if (database.dialect === 'postgres') await sql`analyze`.execute(database.db);
  return summary;
}

/**
 * Opens the database a server with this DATA_DIR (and DATABASE_URL) would use and seeds it (seedAndMigrate); with
 * `media: true` the shared media goes to the server's blob store (`<dataDir>/blobs`). Run it before the server starts.
 */
export async function seedSyntheticLibraryAt(
  where: { dataDir: string; databaseUrl?: string | null },
  options: Omit<SyntheticLibraryOptions, 'media'> & { media?: boolean },
): Promise<SyntheticLibrarySummary> {
  const database = createDatabase({ dataDir: where.dataDir, databaseUrl: where.databaseUrl ?? null });
  try {
    const { media, ...rest } = options;
    const store = new LocalBlobStore(path.join(where.dataDir, 'blobs'));
    return await seedAndMigrate(database, media === true ? { ...rest, media: { store } } : rest);
  } finally {
    await database.destroy();
  }
}
