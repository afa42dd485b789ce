import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { LibraryMessages, ServerMessages, type Library, type LibraryScan, type ScanProblem } from '@tonearm/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LibrariesConfig } from '../../config.js';
import { AdvisoryLocks, withAdvisoryLock } from '../../db/advisory-lock.js';
import type { Dialect } from '../../db/database.js';
import { isDuplicate } from '../../db/duplicate-error.js';
import { foreignKeyViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { isoNow } from '../../db/timestamps.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import type { LibrariesRepository, LibraryRow, ScanCounts, ScanRow } from './libraries.repository.js';
import type { LibraryAccess, LibraryAccessRepository, LibraryAudience } from './library-access.js';
import {
  PLAYLISTS_WAIT_FOR_OWNER,
  syncLibraryPlaylists,
  type PlaylistSyncDeps,
  type PlaylistSyncResult,
} from './library-playlists.js';
import { checkFolder, LibraryUnavailable, PROBLEMS_KEPT, scanLibrary } from './library-scan.js';

/**
 * New songs per write transaction of a scan on SQLite, whose statements run synchronously on the event loop (200, the
 * scan's default, on PostgreSQL).
 */
const SQLITE_SCAN_BATCH = 50;

/** How often a running scan writes its counts to its row (what other instances show of it). */
const HEARTBEAT_MS = 5_000;

export interface LibrariesDeps {
  repository: LibrariesRepository;
  /** Who sees which library (migration 020). */
  access: LibraryAccess;
  accessRepository: LibraryAccessRepository;
  db: Kysely<DB>;
  dialect: Dialect;
  releaseBlobs: BlobReleaser;
  config: LibrariesConfig;
  log: FastifyBaseLogger;
  /** Where the playlists that follow a library's playlist files are kept. */
  playlists: PlaylistSyncDeps['playlists'];
  /** Told when a scan added, changed or moved songs (the audio analysis wakes on it). */
  songsChanged?: () => void;
}

/** A folder to add as a library. */
export interface NewLibraryInput {
  path: string;
  name?: string | undefined;
  everyone?: boolean | undefined;
}

/** A scan running in this process: what the API shows of it. */
interface LiveScan {
  startedAt: string;
  started: number;
  counts: ScanCounts;
  problems: readonly ScanProblem[];
  /** Settles once the scan has ended, whichever way. */
  ended: Promise<void>;
}

function scanJson(row: {
  state: LibraryScan['state'];
  startedAt: string;
  finishedAt: string | null;
  counts: ScanCounts;
  problems: readonly ScanProblem[];
  elapsedMs: number;
  playlists?: { playlists: number; unmatchedEntries: number };
}): LibraryScan {
  const seconds = row.elapsedMs / 1000;
  const { seen, done, added, updated, moved, missing, errors } = row.counts;
  return {
    state: row.state,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    seen,
    done,
    added,
    updated,
    moved,
    missing,
    errors,
    filesPerSecond: seconds > 0 ? Math.round((row.counts.done / seconds) * 10) / 10 : 0,
    playlists: row.playlists?.playlists ?? 0,
    unmatchedEntries: row.playlists?.unmatchedEntries ?? 0,
    problems: [...row.problems],
  };
}

/**
 * Whether the library's last scan found playlist files (it read some, or they wait for an owner), or may still find
 * some (it runs, and may have passed its playlists' owner already). No scan yet: its first makes them.
 */
function hasPlaylistFiles(scan: ScanRow | undefined): boolean {
  if (scan === undefined) return false;
  if (scan.state === 'running' || scan.playlists > 0) return true;
  return problemsOf(scan.problems).some((problem) => problem.reason === PLAYLISTS_WAIT_FOR_OWNER);
}

function problemsOf(text: string): ScanProblem[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as ScanProblem[]) : [];
  } catch {
    return [];
  }
}

function storedScanJson(row: ScanRow): LibraryScan {
  const end = row.finished_at ?? row.heartbeat_at;
  return scanJson({
    state: row.state,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    counts: {
      seen: row.seen,
      done: row.done,
      added: row.added,
      updated: row.updated,
      moved: row.moved,
      missing: row.missing,
      errors: row.errors,
    },
    problems: problemsOf(row.problems),
    elapsedMs: Date.parse(end) - Date.parse(row.started_at),
    playlists: { playlists: row.playlists, unmatchedEntries: row.unmatched_entries },
  });
}

/**
 * Libraries: administrators add, rename, scan and remove music folders; the server scans each one itself, at start,
 * when its folder changes (after a quiet period), every SCAN_INTERVAL and on demand. Scans run one at a time in this
 * process; with several instances, a database lock per library lets one instance scan it at a time.
 */
export class LibrariesService {
  private readonly live = new Map<number, LiveScan>();
  private readonly wanted = new Set<number>();
  private queue: Promise<void> = Promise.resolve();
  private stopping = new AbortController();
  private readonly aborts = new Map<number, AbortController>();
  private readonly watchers = new Map<number, FSWatcher>();
  private interval: NodeJS.Timeout | null = null;

  constructor(private readonly deps: LibrariesDeps) {}

  async list(): Promise<Library[]> {
    const [rows, scans, audiences] = await Promise.all([
      this.deps.repository.list(),
      this.deps.repository.latestScans(),
      this.deps.accessRepository.audiences(),
    ]);
    const byLibrary = new Map(scans.map((scan) => [scan.library_id, scan]));
    return rows.map((row) => ({
      ...(audiences.get(row.id) ?? { everyone: true, members: [] }),
      id: row.id,
      name: row.name,
      path: row.path,
      songCount: row.song_count,
      missingCount: row.missing_count,
      scan: this.scanOf(row.id, byLibrary.get(row.id)),
      lastScannedAt: row.last_scanned_at,
    }));
  }

  async get(id: number): Promise<Library> {
    const library = (await this.list()).find((row) => row.id === id);
    if (library === undefined) throw notFound(ServerMessages.notFound);
    return library;
  }

  /**
   * Adds a folder as a library (checked first) and starts its scan; `ownerId`, the administrator adding it, owns its
   * scan and the playlists made from its playlist files.
   */
  async create(input: NewLibraryInput, ownerId: number | null = null): Promise<Library> {
    const id = await this.add(input, ownerId);
    this.requestScan(id);
    return this.get(id);
  }

  /** Chooses who sees the library: everyone, or its members (and administrators). */
  async setAccess(id: number, audience: LibraryAudience): Promise<Library> {
    await this.found(id);
    if ((await this.deps.accessRepository.unknownUsers(audience.memberIds)) > 0) {
      throw badRequest(LibraryMessages.unknownMember, 'memberIds');
    }
    try {
      await this.deps.accessRepository.setAudience(id, audience);
    } catch (error) {
      // A user deleted between the check and the write.
      if (foreignKeyViolation(error)) throw badRequest(LibraryMessages.unknownMember, 'memberIds');
      throw error;
    }
    this.deps.access.changed();
    return this.get(id);
  }

  /**
   * Adds a folder as a library (checked first) and watches it; its scan is the caller's to ask for. The first library
   * is everyone's unless said otherwise; a further one, administrators' only until they choose.
   */
  private async add(input: NewLibraryInput, ownerId: number | null): Promise<number> {
    const folder = path.resolve(input.path);
    await this.checkNewFolder(folder);
    const name = input.name ?? (path.basename(folder) || folder);
    const everyone = input.everyone ?? (await this.deps.repository.list()).length === 0;
    let id: number;
    try {
      id = await this.deps.repository.insert({
        name,
        path: folder,
        created_at: isoNow(),
        everyone: everyone ? 1 : 0,
        owner_id: ownerId,
      });
    } catch (error) {
      if (isDuplicate(error, 'name')) throw conflict(LibraryMessages.nameTaken, 'name');
      if (isDuplicate(error, 'path')) throw conflict(LibraryMessages.pathTaken, 'path');
      throw error;
    }
    this.watchLibrary({ id, path: folder });
    return id;
  }

  async rename(id: number, name: string): Promise<Library> {
    await this.found(id);
    try {
      await this.deps.repository.rename(id, name);
    } catch (error) {
      if (isDuplicate(error, 'name')) throw conflict(LibraryMessages.nameTaken, 'name');
      throw error;
    }
    return this.get(id);
  }

  /** Removes a library and its songs from the catalogue; no file on disk is touched. */
  async remove(id: number): Promise<void> {
    await this.found(id);
    this.watchers.get(id)?.close();
    this.watchers.delete(id);
    this.wanted.delete(id);
    this.aborts.get(id)?.abort();
    await this.idle(id);
    await this.deps.playlists.deleteFilePlaylists(
      (await this.deps.playlists.ofLibraryFiles(id)).map((playlist) => playlist.id),
    );
    const { albumIds, imageKeys } = await this.deps.repository.delete(id);
    const covers = await this.deps.repository.deleteEmptyAlbums(albumIds);
    await this.deps.releaseBlobs({ image: [...imageKeys, ...covers] });
  }

  /** Starts a scan (unless one is on its way) and answers the library. */
  async scan(id: number): Promise<Library> {
    await this.found(id);
    this.requestScan(id);
    return this.get(id);
  }

  /** Deletes the library's songs whose files are missing. */
  async purgeMissing(id: number): Promise<Library> {
    await this.found(id);
    await this.idle(id);
    const { albumIds, imageKeys } = await this.deps.repository.deleteMissing(id);
    const covers = await this.deps.repository.deleteEmptyAlbums(albumIds);
    await this.deps.releaseBlobs({ image: [...imageKeys, ...covers] });
    return this.get(id);
  }

  /** Queues a scan of the library, once: a request while one is queued joins it. */
  requestScan(id: number): void {
    if (this.wanted.has(id) || this.stopping.signal.aborted) return;
    this.wanted.add(id);
    this.queue = this.queue.then(() => this.runQueued(id));
  }

  /** Resolves once every queued scan has run (tests, and the job's stop). */
  settled(): Promise<void> {
    return this.queue;
  }

  /**
   * The job: MUSIC_DIR becomes a library if it is not one; every library is scanned (which fails a scan left running
   * by a killed process, and carries on where it stopped), watched, and rescanned every SCAN_INTERVAL.
   */
  async start(): Promise<void> {
    this.stopping = new AbortController();
    await this.adoptMusicDir();
    const libraries = await this.deps.repository.list();
    for (const library of libraries) {
      this.watchLibrary(library);
      this.requestScan(library.id);
    }
    const every = this.deps.config.scanIntervalMs;
    if (every > 0) {
      this.interval = setInterval(() => void this.requestAll().catch(() => undefined), every);
      this.interval.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    for (const abort of this.aborts.values()) abort.abort();
    if (this.interval !== null) clearInterval(this.interval);
    this.interval = null;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.wanted.clear();
    await this.queue;
  }

  /**
   * Who the administrators are changed (the first one signed up, one was demoted or deleted): each library whose scan
   * owner is not an administrator any more, and that has playlist files, is scanned again, so their playlists are
   * made, or handed over, at once rather than at the next scan (library-playlists.ts; unchanged audio files are
   * skipped without being opened). Resolves once the scans are queued; a failure is logged, never the caller's.
   */
  async administratorsChanged(): Promise<void> {
    try {
      const ownerless = await this.deps.repository.withoutAdministratorOwner();
      if (ownerless.length === 0) return;
      const latest = new Map((await this.deps.repository.latestScans()).map((scan) => [scan.library_id, scan]));
      for (const id of ownerless) {
        if (hasPlaylistFiles(latest.get(id))) this.requestScan(id);
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'library playlists: scans for a new owner could not be queued');
    }
  }

  /** Queues a scan of every library. */
  async requestAll(): Promise<void> {
    for (const library of await this.deps.repository.list()) this.requestScan(library.id);
  }

  private async adoptMusicDir(): Promise<void> {
    const musicDir = this.deps.config.musicDir;
    if (musicDir === null) return;
    const libraries = await this.deps.repository.list();
    if (libraries.some((library) => library.path === musicDir)) return;
    try {
      // Scanned with the others by start(). Made before any account may exist: its owner is the first administrator.
      await this.add({ path: musicDir }, null);
    } catch (error) {
      this.deps.log.error({ err: error, musicDir }, 'MUSIC_DIR could not be made a library');
    }
  }

  private scanOf(id: number, stored: ScanRow | undefined): LibraryScan | null {
    const live = this.live.get(id);
    if (live !== undefined) {
      return scanJson({
        state: 'running',
        startedAt: live.startedAt,
        finishedAt: null,
        counts: live.counts,
        problems: live.problems,
        elapsedMs: performance.now() - live.started,
      });
    }
    return stored === undefined ? null : storedScanJson(stored);
  }

  private async found(id: number): Promise<LibraryRow> {
    const library = await this.deps.repository.find(id);
    if (library === undefined) throw notFound(ServerMessages.notFound);
    return library;
  }

  /** Waits until no scan of the library runs in this process. */
  private async idle(id: number): Promise<void> {
    await this.live.get(id)?.ended;
  }

  private async checkNewFolder(folder: string): Promise<void> {
    try {
      await checkFolder(folder);
    } catch (error) {
      if (!(error instanceof LibraryUnavailable)) throw error;
      const message = error.message.startsWith('The path is not a folder')
        ? LibraryMessages.pathNotFolder
        : error.message.startsWith('The folder cannot be read')
          ? LibraryMessages.pathUnreadable
          : LibraryMessages.pathMissing;
      throw badRequest(message, 'path');
    }
    if ((await this.deps.repository.overlapping(folder)).length > 0) {
      throw conflict(LibraryMessages.pathOverlaps, 'path');
    }
  }

  private watchLibrary(library: { id: number; path: string }): void {
    if (!this.deps.config.watch || this.watchers.has(library.id) || this.stopping.signal.aborted) return;
    let timer: NodeJS.Timeout | null = null;
    try {
      const watcher = watch(library.path, { recursive: true, persistent: false }, () => {
        if (timer !== null) clearTimeout(timer);
        timer = setTimeout(() => this.requestScan(library.id), this.deps.config.quietMs);
        timer.unref();
      });
      watcher.on('error', (error) => {
        this.deps.log.warn({ err: error, library: library.id }, 'library watch stopped: SCAN_INTERVAL still rescans');
        watcher.close();
        this.watchers.delete(library.id);
      });
      this.watchers.set(library.id, watcher);
    } catch (error) {
      this.deps.log.warn(
        { err: error, library: library.id },
        'library folder not watched: SCAN_INTERVAL still rescans',
      );
    }
  }

  private async runQueued(id: number): Promise<void> {
    this.wanted.delete(id);
    if (this.stopping.signal.aborted) return;
    const library = await this.deps.repository.find(id).catch(() => undefined);
    if (library === undefined) return;
    const { db, dialect } = this.deps;
    try {
      await withAdvisoryLock(db, dialect, AdvisoryLocks.libraryScan + id, 'try', () => this.runScan(library));
    } catch (error) {
      this.deps.log.error({ err: error, library: id }, 'library scan failed');
    }
  }

  /** The library's playlists from files, synced (library-playlists.ts); a failure is reported, never the scan's. */
  private async syncPlaylists(library: LibraryRow, playlistFiles: readonly string[]): Promise<PlaylistSyncResult> {
    try {
      return await syncLibraryPlaylists(
        { libraries: this.deps.repository, playlists: this.deps.playlists, now: isoNow },
        library,
        playlistFiles,
      );
    } catch (error) {
      this.deps.log.error({ err: error, library: library.id }, 'library playlists could not be synced');
      return {
        playlists: 0,
        unmatchedEntries: 0,
        problems: [{ path: '', reason: 'The playlist files could not be read' }],
      };
    }
  }

  /**
   * Runs under the library's scan lock (runQueued), held to the scan's end and gone with its process: PostgreSQL frees
   * an advisory lock when its connection closes, and on SQLite one process owns the database. So a scan of the library
   * still 'running' now was left by a process that died (kill -9, power loss), however fresh its heartbeat: it is
   * marked failed, and this scan carries on where it stopped (what it wrote is unchanged, so skipped).
   */
  private async runScan(library: LibraryRow): Promise<void> {
    const { repository, config, log, releaseBlobs } = this.deps;
    await repository.failLeftRunning(library.id, isoNow());
    const startedAt = isoNow();
    const scanId = await repository.startScan(library.id, startedAt);
    let end: () => void = () => undefined;
    const live: LiveScan = {
      ended: new Promise<void>((resolve) => {
        end = resolve;
      }),
      startedAt,
      started: performance.now(),
      counts: { seen: 0, done: 0, added: 0, updated: 0, moved: 0, missing: 0, errors: 0 },
      problems: [],
    };
    this.live.set(library.id, live);
    const abort = new AbortController();
    this.aborts.set(library.id, abort);
    const heartbeat = setInterval(() => {
      void repository.reportScan(scanId, live.counts, JSON.stringify(live.problems), isoNow()).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const result = await scanLibrary(repository, library, {
        defaultGenre: config.defaultGenre,
        concurrency: config.concurrency,
        threads: config.threads,
        // SQLite writes on the event loop: smaller transactions keep listeners' requests from waiting long on one.
        ...(this.deps.dialect === 'sqlite' ? { batchSize: SQLITE_SCAN_BATCH } : {}),
        signal: abort.signal,
        onProgress: (counts, problems) => {
          live.counts = counts;
          live.problems = problems;
        },
      });
      const state = abort.signal.aborted ? 'failed' : 'done';
      // Only a scan that went through the whole folder knows every song a playlist file may name.
      const playlists = state === 'done' ? await this.syncPlaylists(library, result.playlistFiles) : null;
      const problems = [...result.problems, ...(playlists?.problems ?? [])].slice(0, PROBLEMS_KEPT);
      await repository.finishScan(scanId, state, result.counts, JSON.stringify(problems), isoNow());
      if (playlists !== null) {
        await repository.reportScanPlaylists(scanId, playlists.playlists, playlists.unmatchedEntries);
      }
      const { added, updated, moved, missing } = result.counts;
      if (added + updated + moved + missing > 0) await repository.checkpoint().catch(() => undefined);
      if (added + updated + moved > 0) this.deps.songsChanged?.();
      await releaseBlobs({ image: result.releasedImages });
      log.info({ library: library.id, ...result.counts }, 'library scanned');
    } catch (error) {
      const problem = { path: '', reason: error instanceof LibraryUnavailable ? error.message : 'The scan failed' };
      if (!(error instanceof LibraryUnavailable)) log.error({ err: error, library: library.id }, 'library scan failed');
      await repository
        .finishScan(scanId, 'failed', live.counts, JSON.stringify([problem, ...live.problems]), isoNow())
        .catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
      this.aborts.delete(library.id);
      this.live.delete(library.id);
      end();
    }
  }
}
