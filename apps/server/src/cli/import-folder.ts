import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { UNKNOWN_ALBUM, type Genre } from '@tonearm/contract';
import { HttpError } from '../http/errors.js';
import { discardAll, stageAudio, type StagedAudio, type StagedImage } from '../media/staging.js';
import type { Catalogue } from '../modules/catalogue.js';
import type { BatchSongInput } from '../modules/songs/song-import.service.js';
import type { ImportSourceRow } from '../modules/songs/songs.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import { FolderCovers } from '../modules/libraries/folder-covers.js';
import { stageCover } from './artwork.js';
import type { AudioEndCheck } from './audio-check.js';
import { Batcher } from '../modules/libraries/batcher.js';
import { closestGenre } from '../modules/libraries/genre-match.js';
import { MusicFolder, SkipReasons, type FolderWalk, type SkippedEntry } from '../modules/libraries/music-folder.js';
import { readTags, titleOf, type FileTags } from '../modules/libraries/read-tags.js';
import { findSidecar, readSidecar } from '../modules/libraries/sidecar-lyrics.js';
import type { FileLyrics } from '../media/file-lyrics.js';
import { albumReleaseOf, artistMbIdsOf, creditsOf, songTagColumns } from '../modules/libraries/tag-credits.js';

export { AUDIO_EXTENSIONS } from '../modules/libraries/music-folder.js';

/** `updated`: a file imported before had changed, and its song took the new audio and tags. */
export type ImportStatus = 'added' | 'updated' | 'skipped' | 'failed';

/** Why a file was skipped when its audio is already in the catalogue (a re-run). */
export const ALREADY_IMPORTED = 'already in the catalogue';

export interface ImportOutcome {
  file: string;
  status: ImportStatus;
  /** Why a file was not added; for an added one, what of it was left out (a warning). */
  reason?: string;
}

export interface ImportProgress {
  done: number;
  total: number;
  added: number;
  updated: number;
  skipped: number;
  failed: number;
  elapsedMs: number;
  last: ImportOutcome;
}

export interface ImportSummary {
  total: number;
  added: number;
  updated: number;
  skipped: number;
  failed: number;
  ms: number;
  /** Every file that was not added, with the reason. */
  notAdded: ImportOutcome[];
  /** Files added or updated with something left out (an oversized or unreadable picture), with what. */
  warnings: ImportOutcome[];
  /** Entries of the folder the music folder's rule left unread (links leading out of it, loops, FIFOs), with why. */
  skippedEntries: SkippedEntry[];
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
  /** Refuses files whose audio ends before their headers say (audio-check.ts); without it only headers are read. */
  endCheck?: AudioEndCheck;
}

type ImportCatalogue = Pick<Catalogue, 'songs' | 'imports'>;

export const DEFAULT_BATCH_SIZE = 100;
/** Larger batches gain nothing more and would near the databases' limits on bound parameters per statement. */
export const MAX_BATCH_SIZE = 500;
const DEFAULT_BATCH_MS = 250;

/**
 * Audio files under `folder`, recursively, in a stable order, under the music folder's rule (music-folder.ts): hidden
 * files and folders are left out, and so is anything a link leads to outside the folder.
 */
export async function findAudioFiles(folder: string): Promise<string[]> {
  return (await (await MusicFolder.at(folder)).walk()).files;
}

async function sha256Of(handle: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(handle.createReadStream({ autoClose: false }), hash);
  return hash.digest('hex');
}

/** A file ready to be written: its media staged and checked, its tags read. */
interface ReadySong {
  file: string;
  song: BatchSongInput;
  /** What of the file was left out, if anything. */
  warning: string | null;
}

/** What a run shares between files: the options, the folder covers found so far, the files met so far. */
interface RunContext {
  catalogue: ImportCatalogue;
  store: BlobStore;
  options: ImportOptions;
  /** The folder the files are in: every file is opened under its rule. */
  folder: MusicFolder;
  covers: FolderCovers;
  /** False when this run already has a file with the same audio. */
  claim: (sha256: string) => boolean;
}

/** The genre a file is imported under, or the reason it is skipped. */
function genreOf(tags: FileTags, defaultGenre: Genre | undefined): { genre: Genre } | { skip: string } {
  const genre = (tags.genre === null ? null : closestGenre(tags.genre)) ?? defaultGenre ?? null;
  if (genre !== null) return { genre };
  const named = tags.untagged
    ? 'no tags at all'
    : tags.genre === null
      ? 'no genre tag'
      : `genre "${tags.genre}" is near no catalogue genre`;
  return { skip: `${named} (pass --genre to import it anyway)` };
}

/** The song row's fields from the tags: name (the file name when untitled), artist, album and the rest. */
function songOf(
  file: string,
  tags: FileTags,
  genre: Genre,
  audio: StagedAudio,
  cover: { image: StagedImage; isArtwork: boolean },
  source: ImportSourceRow,
  lyrics: FileLyrics | null,
): BatchSongInput {
  const name = titleOf(tags, file);
  return {
    name,
    genre,
    artistName: tags.artist,
    audio,
    image: cover.image,
    details: {
      year: tags.year,
      bitrateKbps: tags.bitrateKbps,
      sampleRateHz: tags.sampleRateHz,
      format: tags.format,
      genreTag: tags.genre,
      replayGain: tags.replayGain,
      // Without an album tag: the album artist's placeholder album (issue 25), which takes no year or numbers.
      album: {
        name: tags.album ?? UNKNOWN_ALBUM,
        artist_name: tags.albumArtist,
        year: tags.year,
        disc_number: tags.discNumber,
        track_number: tags.trackNumber,
        release: tags.album === null ? null : albumReleaseOf(tags),
      },
      coverIsArtwork: cover.isArtwork,
      people: { credits: creditsOf(tags), artistMbIds: artistMbIdsOf(tags), columns: songTagColumns(tags) },
      lyrics,
    },
    source,
  };
}

/**
 * Checks and stages one file whose audio is new: a song ready to be written, or the outcome of a file that will not
 * be (skipped or refused by the upload checks). Errors other than the upload checks' are thrown; staged media is
 * discarded whenever no song is answered.
 */
async function stageFile(run: RunContext, file: string, source: ImportSourceRow): Promise<ReadySong | ImportOutcome> {
  let audio: StagedAudio | null = null;
  let image: StagedImage | null = null;
  try {
    // The upload checks first: a file that is not accepted audio fails whatever its tags say.
    const staged = await run.folder.withFile(file, (handle) =>
      stageAudio(run.store, handle.createReadStream({ autoClose: false })),
    );
    if ('skip' in staged) return { file, status: 'skipped', reason: staged.skip };
    audio = staged.value;
    // The end check and the tags read the file by its path (ffmpeg, music-metadata), so it is checked again right
    // before. What is left: a file swapped for a link or a FIFO in the moment between this check and their open.
    const again = await run.folder.resolve(file);
    if (again.kind !== 'file') {
      await discardAll([audio]);
      return { file, status: 'skipped', reason: again.kind === 'skipped' ? again.reason : SkipReasons.changed };
    }
    const cutShort = (await run.options.endCheck?.reasonAgainst(file, audio.ext)) ?? null;
    if (cutShort !== null) {
      await discardAll([audio]);
      return { file, status: 'failed', reason: cutShort };
    }
    const tags = await readTags(file);
    const genre = genreOf(tags, run.options.defaultGenre);
    if ('skip' in genre) {
      await discardAll([audio]);
      return { file, status: 'skipped', reason: genre.skip };
    }
    const folderCover = await run.covers.of(file);
    const cover = await stageCover(
      run.store,
      { picture: tags.picture, folderCover },
      { title: titleOf(tags, file), artist: tags.artist, sha256: source.sha256 },
    );
    image = cover.image;
    const lyrics = await lyricsOf(run, file, tags);
    const warning = [cover.warning, ...lyrics.problems].filter((text) => text !== null).join('; ') || null;
    return { file, song: songOf(file, tags, genre.genre, audio, cover, source, lyrics.lyrics), warning };
  } catch (error) {
    await discardAll([audio, image]);
    if (error instanceof HttpError) return { file, status: 'failed', reason: error.message };
    throw error;
  }
}

/**
 * A file's lyrics: the lyrics file's beside it (`.lrc`, then `.txt`) when it reads as lyrics, else its tags'; and why
 * lyrics that were there could not be read (bad LRC, naming the line), as the file's warnings.
 */
async function lyricsOf(
  run: RunContext,
  file: string,
  tags: FileTags,
): Promise<{ lyrics: FileLyrics | null; problems: string[] }> {
  const sidecar = await findSidecar(run.folder, file);
  const read = sidecar === null ? null : await readSidecar(run.folder, sidecar);
  if (read?.read != null && 'lyrics' in read.read) return { lyrics: read.read.lyrics, problems: [] };
  const problems = read?.read != null && 'problem' in read.read ? [read.read.problem.message] : tags.lyricsProblems;
  return { lyrics: tags.lyrics, problems: problems.map((problem) => `lyrics not read: ${problem}`) };
}

/** The file as it is now (what the source row of its song records), or why the music folder's rule skips it. */
async function sourceOf(run: RunContext, file: string): Promise<Omit<ImportSourceRow, 'sha256'> | { skip: string }> {
  const target = await run.folder.resolve(file);
  if (target.kind === 'skipped') return { skip: target.reason };
  if (target.kind !== 'file') return { skip: SkipReasons.changed };
  return { path: file, size_bytes: target.stats.size, modified_ms: Math.trunc(target.stats.mtimeMs) };
}

/**
 * One file of the folder: skipped when unchanged since it was imported or when its audio is already in the catalogue;
 * a changed file's song is updated in place (same id: likes and playlists keep it); a new one is staged for a batch.
 */
async function prepareFile(run: RunContext, file: string): Promise<ReadySong | ImportOutcome> {
  const current = await sourceOf(run, file);
  if ('skip' in current) return { file, status: 'skipped', reason: current.skip };
  const known = await run.catalogue.imports.findSource(file);
  if (known?.size_bytes === current.size_bytes && known.modified_ms === current.modified_ms) {
    return { file, status: 'skipped', reason: ALREADY_IMPORTED };
  }
  const hashed = await run.folder.withFile(file, sha256Of);
  if ('skip' in hashed) return { file, status: 'skipped', reason: hashed.skip };
  const source = { ...current, sha256: hashed.value };
  if (known !== undefined) return updateFile(run, file, known.song_id, known.sha256, source);
  if (!run.claim(source.sha256) || (await run.catalogue.songs.hasAudio(source.sha256))) {
    return { file, status: 'skipped', reason: ALREADY_IMPORTED };
  }
  return stageFile(run, file, source);
}

/** A file imported before that changed: its song takes the new audio, tags and cover. */
async function updateFile(
  run: RunContext,
  file: string,
  songId: number,
  previousSha256: string,
  source: ImportSourceRow,
): Promise<ImportOutcome> {
  if (previousSha256 === source.sha256) {
    // Touched, not changed: only the recorded time moves.
    await run.catalogue.imports.recordSource(songId, source);
    return { file, status: 'skipped', reason: ALREADY_IMPORTED };
  }
  const staged = await stageFile(run, file, source);
  if ('status' in staged) return staged;
  await run.catalogue.imports.replace(songId, staged.song);
  return withWarning({ file, status: 'updated' }, staged.warning);
}

function withWarning(outcome: ImportOutcome, warning: string | null): ImportOutcome {
  return warning === null ? outcome : { ...outcome, reason: warning };
}

/** What a file's failed write means: audio someone else added meanwhile is skipped; anything else failed it. */
function outcomeOfError(file: string, error: unknown): ImportOutcome {
  if (error instanceof HttpError && error.status === 409) return { file, status: 'skipped', reason: ALREADY_IMPORTED };
  return { file, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
}

/** One file in a batch of its own: what a failed batch falls back to, so that a bad file costs only itself. */
async function importAlone(run: RunContext, file: string): Promise<ImportOutcome> {
  try {
    const prepared = await prepareFile({ ...run, claim: () => true }, file);
    if ('status' in prepared) return prepared;
    await run.catalogue.imports.addBatch([prepared.song]);
    return withWarning({ file, status: 'added' }, prepared.warning);
  } catch (error) {
    return outcomeOfError(file, error);
  }
}

/**
 * Writes a batch in one transaction. A batch that fails leaves nothing behind (SongImportService.addBatch); each of its
 * files is then imported again on its own, so the good ones are added and the bad one reports its reason.
 */
async function writeBatch(run: RunContext, batch: readonly ReadySong[]): Promise<ImportOutcome[]> {
  try {
    await run.catalogue.imports.addBatch(batch.map((ready) => ready.song));
    return batch.map(({ file, warning }) => withWarning({ file, status: 'added' }, warning));
  } catch (error) {
    const [only] = batch;
    if (batch.length === 1 && only !== undefined) return [outcomeOfError(only.file, error)];
    const outcomes: ImportOutcome[] = [];
    for (const { file } of batch) outcomes.push(await importAlone(run, file));
    return outcomes;
  }
}

/** Counts outcomes as they come, for the progress line and the summary. */
class Tally {
  readonly counts = { added: 0, updated: 0, skipped: 0, failed: 0 };
  readonly notAdded: ImportOutcome[] = [];
  readonly warnings: ImportOutcome[] = [];
  private done = 0;
  private readonly started = performance.now();

  constructor(
    private readonly total: number,
    private readonly onProgress: ImportOptions['onProgress'],
    private readonly skippedEntries: SkippedEntry[],
  ) {}

  record(outcome: ImportOutcome): void {
    this.counts[outcome.status] += 1;
    const added = outcome.status === 'added' || outcome.status === 'updated';
    if (!added) this.notAdded.push(outcome);
    else if (outcome.reason !== undefined) this.warnings.push(outcome);
    this.done += 1;
    this.onProgress?.({
      done: this.done,
      total: this.total,
      ...this.counts,
      elapsedMs: performance.now() - this.started,
      last: outcome,
    });
  }

  summary(): ImportSummary {
    const byFile = (a: ImportOutcome, b: ImportOutcome) => a.file.localeCompare(b.file);
    return {
      total: this.total,
      ...this.counts,
      ms: Math.round(performance.now() - this.started),
      notAdded: this.notAdded.sort(byFile),
      warnings: this.warnings.sort(byFile),
      skippedEntries: this.skippedEntries,
    };
  }
}

/**
 * Imports the files a walk of `folder` found (absolute paths) through the upload pipeline (magic bytes, size limit, hash, duration,
 * thumbnails), taking title, artist, album, track, disc, year, genre, loudness and cover from the tags and the folder.
 * Files are prepared `concurrency` at a time and new ones written in batches (SongImportService.addBatch: one
 * transaction per batch, artists and albums created with it, no half rows); a batch that fails is written again file
 * by file. Idempotent: a file unchanged since it was imported, or whose audio is already in the catalogue (or met
 * earlier in this run), is skipped; a changed one updates its song. Every file and cover is opened under the folder's
 * rule (checked again right before), and the walk's skipped entries are reported in the summary.
 */
export async function importFiles(
  catalogue: ImportCatalogue,
  store: BlobStore,
  folder: MusicFolder,
  walk: FolderWalk,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const { files } = walk;
  const tally = new Tally(files.length, options.onProgress, walk.skipped);
  const claimed = new Set<string>();
  const run: RunContext = {
    catalogue,
    store,
    options,
    folder,
    covers: new FolderCovers(folder),
    claim: (sha256) => {
      if (claimed.has(sha256)) return false;
      claimed.add(sha256);
      return true;
    },
  };
  const batcher = new Batcher<ReadySong>(
    async (batch) => {
      for (const outcome of await writeBatch(run, batch)) tally.record(outcome);
    },
    {
      size: clamp(options.batchSize ?? DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE),
      maxWaitMs: options.batchMs ?? DEFAULT_BATCH_MS,
    },
  );

  let next = 0;
  async function worker(): Promise<void> {
    for (let index = next++; index < files.length; index = next++) {
      const file = files[index];
      if (file === undefined) continue;
      let prepared: ReadySong | ImportOutcome;
      try {
        prepared = await prepareFile(run, file);
      } catch (error) {
        prepared = outcomeOfError(file, error);
      }
      if ('status' in prepared) tally.record(prepared);
      else await batcher.add(prepared);
    }
  }

  const concurrency = clamp(options.concurrency ?? 4, 1, 16);
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  await batcher.flush();
  return tally.summary();
}

/** Every audio file under `folder` (importFiles); the folder is walked once, in a stable order (music-folder.ts). */
export async function importFolder(
  catalogue: ImportCatalogue,
  store: BlobStore,
  folder: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const music = await MusicFolder.at(folder);
  return importFiles(catalogue, store, music, await music.walk(), options);
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max));
}
