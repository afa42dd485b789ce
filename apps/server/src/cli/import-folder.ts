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
import type { BlobStore } from '../storage/blob-store.js';
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
  onProgress?: (progress: ImportProgress) => void;
}

type ImportCatalogue = Pick<Catalogue, 'songs' | 'artists'>;

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

async function importFile(
  catalogue: ImportCatalogue,
  store: BlobStore,
  file: string,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const sha256 = await sha256OfFile(file);
  if (await catalogue.songs.hasAudio(sha256)) return { file, status: 'skipped', reason: ALREADY_IMPORTED };

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
    const title = (tags.title ?? path.basename(file, path.extname(file))).slice(0, NAME_MAX);
    image = await stageCover(store, tags, title, sha256);
    const artistId = tags.artist === null ? null : await catalogue.artists.findOrCreate(tags.artist.slice(0, NAME_MAX));
    await catalogue.songs.add({ name: title, genre, artistId, audio, image });
    return { file, status: 'added' };
  } catch (error) {
    await discardAll([audio, image]);
    if (error instanceof HttpError && error.status === 409) {
      return { file, status: 'skipped', reason: ALREADY_IMPORTED };
    }
    if (error instanceof HttpError) return { file, status: 'failed', reason: error.message };
    throw error;
  }
}

/**
 * Adds every audio file under `folder` to the catalogue through the upload pipeline (magic bytes, size limit, hash,
 * duration, thumbnails, one transaction per song), taking title, artist, genre and cover from the tags. Idempotent:
 * audio already in the catalogue (same bytes) is skipped, so a re-run adds only what is new.
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
  let next = 0;
  let done = 0;

  async function worker(): Promise<void> {
    for (let index = next++; index < files.length; index = next++) {
      const file = files[index];
      if (file === undefined) continue;
      let outcome: ImportOutcome;
      try {
        outcome = await importFile(catalogue, store, file, options);
      } catch (error) {
        outcome = { file, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
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
  }

  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, 16));
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  notAdded.sort((a, b) => a.file.localeCompare(b.file));
  return { total: files.length, ...counts, ms: Math.round(performance.now() - started), notAdded };
}
