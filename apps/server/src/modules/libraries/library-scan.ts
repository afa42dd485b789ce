import { constants, type Stats } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MAX_BYTES, type Genre, type ScanProblem } from '@tonearm/contract';
import { libraryAudioKey, librarySha256Of } from '../../media/library-keys.js';
import { AUDIO_FORMATS } from '../../media/media.formats.js';
import { Batcher } from './batcher.js';
import { FolderCovers } from './folder-covers.js';
import { closestGenre } from './genre-match.js';
import type {
  KnownFileRow,
  LibrariesRepository,
  LibraryImageRow,
  LibraryRow,
  MovedFile,
  NewLibrarySong,
  ScanCounts,
} from './libraries.repository.js';
import type { FileLyrics } from '../../media/file-lyrics.js';
import { isAudioName, MusicFolder } from './music-folder.js';
import { titleOf, type FileRead } from './read-tags.js';
import { imageKeyOf, UNREADABLE, type ScanFileRead } from './scan-file.js';
import { isPlaylistName } from './library-playlists.js';
import { isSidecarName, sidecarState, Sidecars } from './sidecar-lyrics.js';
import { createScanReader, type ScanReader } from './scan-readers.js';
import { albumReleaseOf, artistMbIdsOf, creditsOf, songTagColumns } from './tag-credits.js';

/*
 * A scan of a library folder, read in place: nothing is copied. The folder is walked under the music folder's rule
 * (links leaving it, loops and FIFOs are reported, never read); a file whose size and modification time are what they
 * were is not opened; a new or changed one has its tags read (no audio is decoded), several at a time, and new songs
 * are written in batches, each batch one transaction (a scan stopped at any moment leaves whole rows only, and the next
 * one carries on where it stopped, since what was written is then unchanged). A file found under a new path with the
 * fingerprint of one that vanished is that song, moved: same id, likes, plays and playlists. A song whose file is gone
 * is marked missing, and comes back when the file does. Covers are only located: their thumbnails are made on demand.
 */

/** The scan refused to start: the folder is not there or cannot be read. Nothing was marked missing. */
export class LibraryUnavailable extends Error {}

export interface ScanOptions {
  /** The genre of a file whose genre tag names none of the catalogue's. */
  defaultGenre: Genre;
  /** Files whose tags are read at once; default 8. */
  concurrency?: number;
  /** Threads that read the files beside the main one (scan-readers.ts); 0 (the default): the main one reads them. */
  threads?: number;
  /** New songs written per transaction; default 200. */
  batchSize?: number;
  /** Told the counts as they move (at most every `progressMs`, and at the end). */
  onProgress?: (counts: ScanCounts, problems: readonly ScanProblem[]) => void | Promise<void>;
  progressMs?: number;
  /** Stops the scan between two files (what was written stays). */
  signal?: AbortSignal;
  now?: () => string;
}

export interface ScanResult {
  counts: ScanCounts;
  problems: ScanProblem[];
  /** Image keys songs stopped using (their thumbnails may go). */
  releasedImages: string[];
  /**
   * The playlist files (`.m3u`, `.m3u8`) the walk found, relative to the library's folder with `/` between parts, in
   * path order: what library-playlists.ts reads once the songs are written, without walking the folder again.
   */
  playlistFiles: string[];
}

/** Problems kept for the report; the counts go on past it. */
export const PROBLEMS_KEPT = 200;

interface FoundFile {
  /** Absolute, under the library's folder. */
  abs: string;
  /** Relative to the library's folder, `/` between parts. */
  rel: string;
  stats: Stats;
  /** The lyrics file beside it (`<name>.lrc`, else `.txt`) and its state (sidecarState), if there is one. */
  sidecar: { abs: string; state: string } | null;
}

/** A cover located for a song: its image key and where its original is. */
interface LocatedCover {
  key: string;
  image: LibraryImageRow;
}

class ScanRun {
  readonly counts: ScanCounts = { seen: 0, done: 0, added: 0, updated: 0, moved: 0, missing: 0, errors: 0 };
  readonly problems: ScanProblem[] = [];
  readonly releasedImages: string[] = [];
  private readonly started = performance.now();
  private lastProgress = 0;
  private readonly covers: FolderCovers;
  private readonly coverKeys = new Map<string, Promise<LocatedCover | null>>();

  constructor(
    readonly repository: LibrariesRepository,
    readonly library: LibraryRow,
    readonly folder: MusicFolder,
    readonly options: ScanOptions,
  ) {
    this.covers = new FolderCovers(folder);
  }

  now(): string {
    return this.options.now?.() ?? new Date().toISOString();
  }

  problem(file: string, reason: string): void {
    this.counts.errors += 1;
    if (this.problems.length < PROBLEMS_KEPT) this.problems.push({ path: this.relative(file), reason });
  }

  relative(abs: string): string {
    return path.relative(this.folder.root, abs).split(path.sep).join('/');
  }

  async progress(force = false): Promise<void> {
    const at = performance.now();
    if (!force && at - this.lastProgress < (this.options.progressMs ?? 500)) return;
    this.lastProgress = at;
    await this.options.onProgress?.({ ...this.counts }, this.problems);
  }

  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** The folder's cover beside `abs`, located once per folder. */
  folderCover(abs: string): Promise<LocatedCover | null> {
    const dir = path.dirname(abs);
    let found = this.coverKeys.get(dir);
    if (found === undefined) {
      found = this.locateFolderCover(abs);
      this.coverKeys.set(dir, found);
    }
    return found;
  }

  private async locateFolderCover(abs: string): Promise<LocatedCover | null> {
    const cover = await this.covers.of(abs);
    if (cover === null) return null;
    const read = await this.folder
      .withFile(cover.file, async (handle) => {
        const { size } = await handle.stat();
        return size > IMAGE_MAX_BYTES ? null : handle.readFile();
      })
      .catch(() => null);
    if (read === null || 'skip' in read || read.value === null) return null;
    const key = imageKeyOf(read.value);
    if (key === null) return null;
    return {
      key,
      image: { image_key: key, library_id: this.library.id, path: this.relative(cover.file), embedded: 0 },
    };
  }
}

function embeddedCover(run: ScanRun, key: string | null, file: FoundFile): LocatedCover | null {
  if (key === null) return null;
  return { key, image: { image_key: key, library_id: run.library.id, path: file.rel, embedded: 1 } };
}

/** The lyrics a read file gives and the state of the lyrics file they were read with (songOf, a move). */
interface ReadLyrics {
  /** undefined: not known (the tags could not be read and there is no lyrics file): the song keeps its lyrics. */
  lyrics: FileLyrics | null | undefined;
  lyricsFile: string | null;
}

/**
 * A file's lyrics: the lyrics file's beside it when it reads as lyrics, else its tags'. Lyrics that are not (bad LRC)
 * are reported as the file's problems, naming the line.
 */
function lyricsOfRead(
  run: ScanRun,
  file: FoundFile,
  outcome: Extract<ScanFileRead, { fingerprint: string }>,
): ReadLyrics {
  const { sidecar, read } = outcome;
  const fromSidecar = sidecar?.read ?? null;
  if (fromSidecar !== null && 'lyrics' in fromSidecar)
    return { lyrics: fromSidecar.lyrics, lyricsFile: sidecar?.state ?? null };
  if (fromSidecar !== null && file.sidecar !== null) {
    run.problem(file.sidecar.abs, `${LYRICS_NOT_READ}: ${fromSidecar.problem.message}`);
  }
  if (read === null) return { lyrics: sidecar === null ? undefined : null, lyricsFile: sidecar?.state ?? null };
  for (const problem of read.tags.lyricsProblems) run.problem(file.abs, `${LYRICS_NOT_READ}: ${problem}`);
  return { lyrics: read.tags.lyrics, lyricsFile: sidecar?.state ?? null };
}

/** The start of a scan problem about lyrics that could not be read (the song itself is added). */
export const LYRICS_NOT_READ = 'lyrics not read';

/** The song a library file is, from its tags. */
async function songOf(
  run: ScanRun,
  file: FoundFile,
  read: FileRead,
  embeddedCoverKey: string | null,
  fingerprint: string,
  lyrics: ReadLyrics,
): Promise<NewLibrarySong | string> {
  const ext = path.extname(file.abs).slice(1).toLowerCase();
  const format = AUDIO_FORMATS[ext];
  if (format === undefined) return 'not an audio file Tonearm plays';
  const { tags, durationMs } = read;
  const cover = embeddedCover(run, embeddedCoverKey, file) ?? (await run.folderCover(file.abs));
  const state = { path: file.rel, size: file.stats.size, mtimeMs: file.stats.mtimeMs };
  const audioKey = libraryAudioKey(run.library.id, state, format.ext);
  const genre = (tags.genre === null ? null : closestGenre(tags.genre)) ?? run.options.defaultGenre;
  return {
    row: {
      name: titleOf(tags, file.abs),
      genre,
      artist_name: tags.artist,
      audio_key: audioKey,
      audio_sha256: librarySha256Of(audioKey),
      mime: format.mime,
      size_bytes: file.stats.size,
      duration_ms: durationMs,
      image_key: cover?.key ?? null,
      created_at: run.now(),
      year: tags.year,
      bitrate_kbps: tags.bitrateKbps,
      sample_rate_hz: tags.sampleRateHz,
      format: tags.format,
      genre_tag: tags.genre,
      replay_gain_track_db: tags.replayGain.trackDb,
      replay_gain_track_peak: tags.replayGain.trackPeak,
      replay_gain_album_db: tags.replayGain.albumDb,
      replay_gain_album_peak: tags.replayGain.albumPeak,
      library_id: run.library.id,
      missing_since: null,
      ...songTagColumns(tags),
      credits: creditsOf(tags),
      artist_mb_ids: artistMbIdsOf(tags),
      lyrics: lyrics.lyrics ?? null,
      album:
        tags.album === null
          ? null
          : {
              name: tags.album,
              artist_name: tags.albumArtist,
              year: tags.year,
              image_key: cover?.key ?? null,
              disc_number: tags.discNumber,
              track_number: tags.trackNumber,
              release: albumReleaseOf(tags),
            },
    },
    file: {
      library_id: run.library.id,
      path: file.rel,
      size_bytes: file.stats.size,
      modified_ms: Math.trunc(file.stats.mtimeMs),
      fingerprint,
      lyrics_file: lyrics.lyricsFile,
    },
    images: cover === null ? [] : [cover.image],
  };
}

/** What a scan does with the files it found, before any tag is read. */
interface Plan {
  /** New or changed files, with the row of a changed one. */
  work: { file: FoundFile; known: KnownFileRow | undefined }[];
  /** Unchanged files of missing songs: back. */
  returned: number[];
  /** Songs whose file was not found (not yet marked missing). */
  gone: Map<number, KnownFileRow>;
  /** Songs a new file may be, moved: the gone ones and those already missing, by fingerprint. */
  candidates: Map<string, KnownFileRow[]>;
}

/** The state of a lyrics file found beside an audio file, or null when it is gone (or no regular file) by now. */
async function sidecarFound(abs: string | null): Promise<FoundFile['sidecar']> {
  if (abs === null) return null;
  const stats = await stat(abs).catch(() => null);
  return stats?.isFile() === true ? { abs, state: sidecarState(abs, stats) } : null;
}

async function statAll(
  run: ScanRun,
  files: readonly string[],
  sidecars: Sidecars,
  concurrency: number,
): Promise<FoundFile[]> {
  const found: (FoundFile | null)[] = new Array<FoundFile | null>(files.length).fill(null);
  let next = 0;
  async function worker(): Promise<void> {
    for (let index = next++; index < files.length; index = next++) {
      const abs = files[index];
      if (abs === undefined) continue;
      try {
        const stats = await stat(abs);
        if (stats.isFile()) {
          found[index] = { abs, rel: run.relative(abs), stats, sidecar: await sidecarFound(sidecars.sidecarOf(abs)) };
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') run.problem(abs, 'cannot be read');
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  return found.filter((file) => file !== null);
}

function plan(files: readonly FoundFile[], known: readonly KnownFileRow[]): Plan {
  const byPath = new Map(known.map((row) => [row.path, row]));
  const result: Plan = { work: [], returned: [], gone: new Map(), candidates: new Map() };
  const seen = new Set<string>();
  for (const file of files) {
    seen.add(file.rel);
    const row = byPath.get(file.rel);
    // A lyrics file that appeared, changed or went since the file was read makes it read again.
    if (
      row?.size_bytes === file.stats.size &&
      row.modified_ms === Math.trunc(file.stats.mtimeMs) &&
      row.lyrics_file === (file.sidecar?.state ?? null)
    ) {
      if (row.missing_since !== null) result.returned.push(row.song_id);
    } else {
      result.work.push({ file, known: row });
    }
  }
  for (const row of known) {
    if (seen.has(row.path)) continue;
    if (row.missing_since === null) result.gone.set(row.song_id, row);
    const same = result.candidates.get(row.fingerprint) ?? [];
    same.push(row);
    result.candidates.set(row.fingerprint, same);
  }
  return result;
}

/** Reads one new or changed file: a move, a song to add, a song changed in place, or a problem. */
async function readOne(
  run: ScanRun,
  item: Plan['work'][number],
  scan: Plan,
  sinks: { add: (song: NewLibrarySong) => Promise<void>; move: (move: MovedFile) => void },
  reader: ScanReader,
): Promise<void> {
  const { file, known } = item;
  const outcome = await reader.read(run.folder.root, file.abs, file.stats.size, file.sidecar?.abs ?? null);
  if ('problem' in outcome) {
    run.problem(file.abs, outcome.problem);
    return;
  }
  const { fingerprint, read, embeddedCoverKey } = outcome;
  const lyrics = lyricsOfRead(run, file, outcome);
  if (known === undefined && claimMove(run, file, { fingerprint, lyrics }, scan, sinks.move)) return;
  if (read === null) {
    run.problem(file.abs, UNREADABLE);
    return;
  }
  const song = await songOf(run, file, read, embeddedCoverKey, fingerprint, lyrics);
  if (typeof song === 'string') {
    run.problem(file.abs, song);
    return;
  }
  if (known === undefined) {
    await sinks.add(song);
    return;
  }
  await run.repository.replaceSong(known.song_id, song);
  if (known.image_key !== null && known.image_key !== song.row.image_key) run.releasedImages.push(known.image_key);
  if (known.missing_since !== null) await run.repository.markMissing([known.song_id], null);
  run.counts.updated += 1;
}

/** A new file with the fingerprint of a song whose file is gone (or missing) is that song, moved. */
function claimMove(
  run: ScanRun,
  file: FoundFile,
  { fingerprint, lyrics }: { fingerprint: string; lyrics: ReadLyrics },
  scan: Plan,
  move: (moved: MovedFile) => void,
): boolean {
  const rows = scan.candidates.get(fingerprint);
  const row = rows?.shift();
  if (row === undefined) return false;
  scan.gone.delete(row.song_id);
  const ext = path.extname(row.audio_key).slice(1);
  const audioKey = libraryAudioKey(
    run.library.id,
    { path: file.rel, size: file.stats.size, mtimeMs: file.stats.mtimeMs },
    ext,
  );
  move({
    songId: row.song_id,
    file: {
      path: file.rel,
      size_bytes: file.stats.size,
      modified_ms: Math.trunc(file.stats.mtimeMs),
      fingerprint,
      lyrics_file: lyrics.lyricsFile,
    },
    lyrics: lyrics.lyrics,
    audioKey,
    audioSha256: librarySha256Of(audioKey),
  });
  run.counts.moved += 1;
  return true;
}

async function readAll(run: ScanRun, scan: Plan, concurrency: number, reader: ScanReader): Promise<void> {
  const moves: MovedFile[] = [];
  const batcher = new Batcher<NewLibrarySong>(
    async (batch) => {
      await writeBatch(run, batch);
      await run.progress();
    },
    { size: run.options.batchSize ?? 200, maxWaitMs: 1000 },
  );
  const sinks = { add: (song: NewLibrarySong) => batcher.add(song), move: (moved: MovedFile) => moves.push(moved) };
  let next = 0;
  async function worker(): Promise<void> {
    for (let index = next++; index < scan.work.length; index = next++) {
      if (run.options.signal?.aborted === true) return;
      const item = scan.work[index];
      if (item !== undefined) await readOne(run, item, scan, sinks, reader);
      run.counts.done += 1;
      await run.progress();
    }
  }
  try {
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
  } finally {
    await batcher.flush();
  }
  await run.repository.moveFiles(moves);
}

/** A batch in one transaction; when it fails, each song alone, so that one bad row costs only itself. */
async function writeBatch(run: ScanRun, batch: readonly NewLibrarySong[]): Promise<void> {
  try {
    await run.repository.addSongs(batch);
    run.counts.added += batch.length;
  } catch {
    for (const song of batch) {
      try {
        await run.repository.addSongs([song]);
        run.counts.added += 1;
      } catch (error) {
        run.problem(path.join(run.folder.root, song.file.path), `not added: ${(error as Error).message}`);
      }
    }
  }
}

/** Checks that the library's folder is there and readable; throws LibraryUnavailable with why. */
export async function checkFolder(folder: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await stat(folder);
  } catch {
    throw new LibraryUnavailable('The folder is not there (is the drive mounted?): nothing was marked missing');
  }
  if (!stats.isDirectory()) throw new LibraryUnavailable('The path is not a folder: nothing was marked missing');
  try {
    await access(folder, constants.R_OK | constants.X_OK);
  } catch {
    throw new LibraryUnavailable('The folder cannot be read: nothing was marked missing');
  }
}

/** Scans a library's folder (see the top of this file). Throws LibraryUnavailable when the folder cannot be scanned. */
export async function scanLibrary(
  repository: LibrariesRepository,
  library: LibraryRow,
  options: ScanOptions,
): Promise<ScanResult> {
  await checkFolder(library.path);
  const folder = await MusicFolder.at(library.path);
  const run = new ScanRun(repository, library, folder, options);
  // One walk finds the audio, the lyrics files beside it (no file is opened or stat-ed for lyrics it does not have) and
  // the playlist files.
  const walk = await folder.walk(
    folder.root,
    (name) => isAudioName(name) || isSidecarName(name) || isPlaylistName(name),
  );
  const audio = walk.files.filter((file) => isAudioName(path.basename(file)));
  const sidecars = new Sidecars(walk.files.filter((file) => isSidecarName(path.basename(file))));
  const playlistFiles = walk.files
    .filter((file) => isPlaylistName(path.basename(file)))
    .map((file) => path.relative(folder.root, file).split(path.sep).join('/'));
  const known = await repository.knownFiles(library.id);
  if (audio.length === 0 && known.some((row) => row.missing_since === null)) {
    throw new LibraryUnavailable('The folder is empty (is the drive mounted?): nothing was marked missing');
  }
  for (const entry of walk.skipped) run.problem(entry.path, entry.reason);
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 8, 32));
  const files = await statAll(run, audio, sidecars, 16);
  run.counts.seen = files.length;
  const scan = plan(files, known);
  run.counts.done = files.length - scan.work.length;
  await run.progress(true);
  if (scan.work.length > 0) {
    const reader = createScanReader(options.threads ?? 0);
    try {
      await readAll(run, scan, concurrency, reader);
    } finally {
      await reader.close();
    }
  }
  if (options.signal?.aborted === true) {
    return { counts: run.counts, problems: run.problems, releasedImages: [], playlistFiles };
  }
  await repository.markMissing(scan.returned, null);
  await repository.markMissing([...scan.gone.keys()], run.now());
  run.counts.missing = scan.gone.size;
  await run.progress(true);
  return { counts: run.counts, problems: run.problems, releasedImages: run.releasedImages, playlistFiles };
}
