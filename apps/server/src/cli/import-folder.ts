import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { NAME_MAX, UNKNOWN_ARTIST, type Genre } from '@tonearm/contract';
import { parseFile, type IPicture } from 'music-metadata';
import { renderCover, type ArtStyle } from '../demo/artwork.js';
import { HttpError } from '../http/errors.js';
import {
  discardAll,
  stageAudio,
  stageImage,
  type StagedAudio,
  type StagedImage,
} from '../modules/media/media.service.js';
import type { Catalogue } from '../modules/catalogue.js';
import type { BatchSongInput } from '../modules/songs/songs.service.js';
import type { BlobStore } from '../storage/blob-store.js';
import { Batcher } from './batcher.js';
import { matchGenre } from './genre-match.js';

/** File name extensions worth opening; the magic bytes still decide what is accepted. */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  'mp3',
  'flac',
  'ogg',
  'oga',
  'opus',
  'm4a',
  'm4b',
  'aac',
  'wav',
]);

export type ImportStatus = 'added' | 'skipped' | 'failed';

/** Why a file was skipped when its audio is already in the catalogue (a re-run). */
export const ALREADY_IMPORTED = 'already in the catalogue';

export interface ImportOutcome {
  file: string;
  status: ImportStatus;
  reason?: string;
}

export interface ImportProgress {
  done: number;
  total: number;
  added: number;
  skipped: number;
  failed: number;
  elapsedMs: number;
  last: ImportOutcome;
}

export interface ImportSummary {
  total: number;
  added: number;
  skipped: number;
  failed: number;
  ms: number;
  /** Every file that was not added, with the reason. */
  notAdded: ImportOutcome[];
}

export interface ImportOptions {
  /** Used when a file's genre tag is missing or names no catalogue genre; without it such files are skipped. */
  defaultGenre?: Genre;
  /** Files processed at once (hashing, tag parsing and thumbnails overlap); default 4. */
  concurrency?: number;
  /** Files written per transaction, at most; default 100 (1: a transaction per file). */
  batchSize?: number;
  /** A batch is written at the latest this long after its first file was ready; default 250 ms. */
  batchMs?: number;
  onProgress?: (progress: ImportProgress) => void;
}

type ImportCatalogue = Pick<Catalogue, 'songs'>;

export const DEFAULT_BATCH_SIZE = 100;
/** Larger batches gain nothing more and would near the databases' limits on bound parameters per statement. */
export const MAX_BATCH_SIZE = 500;
const DEFAULT_BATCH_MS = 250;

/** Audio files under `folder`, recursively, in a stable order; hidden files and folders are left out. */
export async function findAudioFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => {
      const relative = path.relative(folder, file);
      if (relative.split(path.sep).some((part) => part.startsWith('.'))) return false;
      return AUDIO_EXTENSIONS.has(path.extname(file).slice(1).toLowerCase());
    })
    .sort();
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

interface Tags {
  title: string | null;
  artist: string | null;
  genre: string | null;
  picture: IPicture | null;
}

/** The tags of a file, or none when they cannot be read (the upload checks then say what is wrong with the file). */
async function readTags(file: string): Promise<Tags> {
  try {
    const { common } = await parseFile(file, { duration: false });
    const clean = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());
    return {
      title: clean(common.title),
      artist: clean(common.artist) ?? clean(common.albumartist),
      genre: clean(common.genre?.[0]),
      picture: common.picture?.[0] ?? null,
    };
  } catch {
    return { title: null, artist: null, genre: null, picture: null };
  }
}

const COVER_STYLES: readonly ArtStyle[] = ['grid', 'sunset', 'shards', 'rings', 'waves'];

/** A generated cover for files without an embedded picture (or with one that is not a usable image). */
async function stageCover(store: BlobStore, tags: Tags, title: string, sha256: string): Promise<StagedImage> {
  if (tags.picture !== null) {
    try {
      return await stageImage(store, Buffer.from(tags.picture.data));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
    }
  }
  const seed = Number.parseInt(sha256.slice(0, 8), 16);
  const style = COVER_STYLES[seed % COVER_STYLES.length] ?? 'waves';
  return stageImage(store, await renderCover(title, tags.artist ?? UNKNOWN_ARTIST, style, seed));
}

/** A file ready to be written: its media staged and checked, its tags read. */
interface ReadySong {
  file: string;
  song: BatchSongInput;
}

/**
 * Hashes, checks and stages one file: a song ready to be written, or the outcome of a file that will not be (skipped
 * or refused by the upload checks). `claim` answers false when this run already has a file with the same audio.
 * Errors other than the upload checks' are thrown; staged media is discarded whenever no song is answered.
 */
async function prepareFile(
  catalogue: ImportCatalogue,
  store: BlobStore,
  file: string,
  options: ImportOptions,
  claim: (sha256: string) => boolean,
): Promise<ReadySong | ImportOutcome> {
  const sha256 = await sha256OfFile(file);
  if (!claim(sha256) || (await catalogue.songs.hasAudio(sha256))) {
    return { file, status: 'skipped', reason: ALREADY_IMPORTED };
  }

  let audio: StagedAudio | null = null;
  let image: StagedImage | null = null;
  try {
    // The upload checks first: a file that is not accepted audio fails whatever its tags say.
    audio = await stageAudio(store, createReadStream(file));
    const tags = await readTags(file);
    const genre = (tags.genre === null ? null : matchGenre(tags.genre)) ?? options.defaultGenre ?? null;
    if (genre === null) {
      await discardAll([audio]);
      const named = tags.genre === null ? 'no genre tag' : `genre "${tags.genre}" is not a catalogue genre`;
      return { file, status: 'skipped', reason: `${named} (pass --genre to import it anyway)` };
    }
    const name = (tags.title ?? path.basename(file, path.extname(file))).slice(0, NAME_MAX);
    image = await stageCover(store, tags, name, sha256);
    const artistName = tags.artist === null ? null : tags.artist.slice(0, NAME_MAX);
    return { file, song: { name, genre, artistName, audio, image } };
  } catch (error) {
    await discardAll([audio, image]);
    if (error instanceof HttpError) return { file, status: 'failed', reason: error.message };
    throw error;
  }
}

/** What a file's failed write means: audio someone else added meanwhile is skipped; anything else failed it. */
function outcomeOfError(file: string, error: unknown): ImportOutcome {
  if (error instanceof HttpError && error.status === 409) return { file, status: 'skipped', reason: ALREADY_IMPORTED };
  return { file, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
}

/** One file in a batch of its own: what a failed batch falls back to, so that a bad file costs only itself. */
async function importAlone(
  catalogue: ImportCatalogue,
  store: BlobStore,
  file: string,
  options: ImportOptions,
): Promise<ImportOutcome> {
  try {
    const prepared = await prepareFile(catalogue, store, file, options, () => true);
    if ('status' in prepared) return prepared;
    await catalogue.songs.addBatch([prepared.song]);
    return { file, status: 'added' };
  } catch (error) {
    return outcomeOfError(file, error);
  }
}

/**
 * Writes a batch in one transaction. A batch that fails leaves nothing behind (SongsService.addBatch); each of its
 * files is then imported again on its own, so the good ones are added and the bad one reports its reason.
 */
async function writeBatch(
  catalogue: ImportCatalogue,
  store: BlobStore,
  batch: readonly ReadySong[],
  options: ImportOptions,
): Promise<ImportOutcome[]> {
  try {
    await catalogue.songs.addBatch(batch.map((ready) => ready.song));
    return batch.map(({ file }) => ({ file, status: 'added' }));
  } catch (error) {
    const [only] = batch;
    if (batch.length === 1 && only !== undefined) return [outcomeOfError(only.file, error)];
    const outcomes: ImportOutcome[] = [];
    for (const { file } of batch) outcomes.push(await importAlone(catalogue, store, file, options));
    return outcomes;
  }
}

/**
 * Adds every audio file under `folder` to the catalogue through the upload pipeline (magic bytes, size limit, hash,
 * duration, thumbnails), taking title, artist, genre and cover from the tags. Files are prepared `concurrency` at a
 * time and written in batches (SongsService.addBatch: one transaction per batch, artists created with it, no half
 * rows); a batch that fails is written again file by file. Idempotent: audio already in the catalogue (same bytes),
 * or met earlier in this run, is skipped, so a re-run adds only what is new.
 */
export async function importFolder(
  catalogue: ImportCatalogue,
  store: BlobStore,
  folder: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const files = await findAudioFiles(folder);
  const counts = { added: 0, skipped: 0, failed: 0 };
  const notAdded: ImportOutcome[] = [];
  const claimed = new Set<string>();
  const claim = (sha256: string) => {
    if (claimed.has(sha256)) return false;
    claimed.add(sha256);
    return true;
  };
  let next = 0;
  let done = 0;

  function record(outcome: ImportOutcome): void {
    counts[outcome.status] += 1;
    if (outcome.status !== 'added') notAdded.push(outcome);
    done += 1;
    options.onProgress?.({
      done,
      total: files.length,
      ...counts,
      elapsedMs: performance.now() - started,
      last: outcome,
    });
  }

  const batcher = new Batcher<ReadySong>(
    async (batch) => {
      for (const outcome of await writeBatch(catalogue, store, batch, options)) record(outcome);
    },
    {
      size: clamp(options.batchSize ?? DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE),
      maxWaitMs: options.batchMs ?? DEFAULT_BATCH_MS,
    },
  );

  async function worker(): Promise<void> {
    for (let index = next++; index < files.length; index = next++) {
      const file = files[index];
      if (file === undefined) continue;
      let prepared: ReadySong | ImportOutcome;
      try {
        prepared = await prepareFile(catalogue, store, file, options, claim);
      } catch (error) {
        prepared = outcomeOfError(file, error);
      }
      if ('status' in prepared) record(prepared);
      else await batcher.add(prepared);
    }
  }

  const concurrency = clamp(options.concurrency ?? 4, 1, 16);
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  await batcher.flush();
  notAdded.sort((a, b) => a.file.localeCompare(b.file));
  return { total: files.length, ...counts, ms: Math.round(performance.now() - started), notAdded };
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max));
}
