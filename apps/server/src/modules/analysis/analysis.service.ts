import type { AnalysisProgress } from '@tonearm/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AnalysisConfig } from '../../config.js';
import { isoNow } from '../../db/timestamps.js';
import type { MediaSources } from '../../media/media-source.js';
import type { AnalysisOutcome, AnalysisRepository, PendingSong } from './analysis.repository.js';
import { createAnalysisThread, MeasureFailed, type AnalysisThread } from './analysis-thread.js';
import { DecodeFailed, decodePcm, excerptOf } from './decode-pcm.js';
import { ANALYSIS_EXCERPT_SECONDS, encodeVector, FEATURE_VERSION } from './feature-layout.js';

/** Song ids looked through per query of a pass (a bounded read, so SQLite never holds the event loop for long). */
const ID_WINDOW = 5_000;
/** Pending songs taken per query. */
const BATCH = 16;
/** How often another process's new songs are looked for (the import CLI, another instance): one-row reads. */
const CATALOGUE_CHECK_MS = 30_000;
/** The window of the rate shown to administrators. */
const RATE_WINDOW_MS = 60_000;
/** Failures of the database (not of files) in a row after which a pass gives up until the next wake. */
const ERRORS_IN_A_ROW = 5;
/** Failures listed to administrators. */
const FAILURES_SHOWN = 10;
/** Longest reason kept for a failed file. */
const REASON_MAX = 300;

export interface AnalysisDeps {
  repository: AnalysisRepository;
  /** Where songs' bytes are; null without a blob store (then nothing is analysed). */
  sources: MediaSources | null;
  /** ffmpeg, when it was found at start (transcoding's probe); null: no analysis. */
  ffmpegPath: string | null;
  config: AnalysisConfig;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Tests shorten the look for other processes' songs. */
  catalogueCheckMs?: number;
}

/** A file not there right now (a library on a disk that is not mounted): tried again after a restart, not failed. */
const ABSENT = Symbol('absent');

/**
 * The background audio analysis (issue 28): every song without a feature row of FEATURE_VERSION for its audio as it
 * is now gets one, its vector or why it has none. One pass over the catalogue at a time, in id order, `concurrency`
 * songs at once: ffmpeg (nice 10) decodes an excerpt, a worker thread (nice 10) measures it. Woken by scans, uploads
 * and imports in this process (`wake`), and every 30 s by a look at catalogue_version for other processes' songs; so
 * it resumes by itself after a restart (what is pending is whatever has no row). With several instances on one
 * PostgreSQL, a song is claimed by an advisory lock and checked again under it, so no song is analysed twice.
 */
export class AnalysisService {
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopping = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private catalogueSeen: number | null = null;
  private thread: AnalysisThread | null = null;
  /** Songs (id and audio key) whose bytes were not found by this process: not tried again before a restart. */
  private readonly absent = new Set<string>();
  /** When each of the last minute's analyses ended, and when the current stretch of work began. */
  private recent: number[] = [];
  private workingSince = 0;
  private broken = false;
  /** Songs this instance has analysed (vector or failure written) since it was built. */
  analysedHere = 0;

  constructor(private readonly deps: AnalysisDeps) {}

  /** Whether this instance analyses at all (ANALYSIS on, ffmpeg found, a store to read from). */
  get enabled(): boolean {
    return this.deps.config.enabled && this.deps.ffmpegPath !== null && this.deps.sources !== null && !this.broken;
  }

  /** The job's start: a first pass, and the look for other processes' songs. */
  async start(): Promise<void> {
    if (!this.enabled || this.started) return;
    this.started = true;
    this.stopping = new AbortController();
    this.catalogueSeen = await this.deps.repository.catalogueVersion().catch(() => null);
    this.timer = setInterval(() => void this.checkCatalogue(), this.deps.catalogueCheckMs ?? CATALOGUE_CHECK_MS);
    this.timer.unref();
    this.wake();
  }

  /** Stops the work under way (ffmpeg killed, the thread ended) and waits for it; nothing half-done is written. */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping.abort();
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.thread?.close();
    this.thread = null;
  }

  /** Songs may have arrived or changed: a pass runs (or runs again once the current one ends). Cheap; never throws. */
  wake(): void {
    if (!this.started) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.work().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no pass runs (tests). */
  async settled(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  async progress(): Promise<AnalysisProgress> {
    const { repository } = this.deps;
    const [counts, failures] = await Promise.all([
      repository.counts(FEATURE_VERSION),
      repository.recentFailures(FEATURE_VERSION, FAILURES_SHOWN),
    ]);
    const state = !this.enabled ? 'off' : this.running !== null ? 'working' : 'idle';
    return {
      state,
      version: FEATURE_VERSION,
      songs: counts.songs,
      analysed: counts.analysed,
      failed: counts.failed,
      pending: Math.max(0, counts.songs - counts.analysed - counts.failed),
      songsPerSecond: this.rate(),
      recentFailures: failures,
    };
  }

  private rate(): number {
    const now = performance.now();
    this.recent = this.recent.filter((at) => now - at <= RATE_WINDOW_MS);
    if (this.recent.length === 0) return 0;
    const seconds = Math.min(RATE_WINDOW_MS, now - this.workingSince) / 1000;
    return Math.round((this.recent.length / Math.max(1, seconds)) * 100) / 100;
  }

  private async checkCatalogue(): Promise<void> {
    try {
      const version = await this.deps.repository.catalogueVersion();
      if (version !== this.catalogueSeen) this.wake();
      this.catalogueSeen = version;
    } catch {
      // The database is away for a moment: the next look tries again.
    }
  }

  private async work(): Promise<void> {
    if (this.recent.length === 0) this.workingSince = performance.now();
    do {
      this.again = false;
      try {
        await this.pass();
      } catch (error) {
        if (!this.stopping.signal.aborted) this.deps.log.warn({ err: error }, 'audio analysis: a pass stopped');
      }
    } while (this.wokenMeanwhile());
  }

  /** Whether `wake` was called during the pass that just ended (read through a method: `wake` sets it meanwhile). */
  private wokenMeanwhile(): boolean {
    return this.again && this.started;
  }

  /** One pass over the catalogue, in windows of ids, analysing what is pending. */
  private async pass(): Promise<void> {
    const { repository, config } = this.deps;
    const last = await repository.lastSongId();
    let errors = 0;
    for (let after = 0; after < last && this.started;) {
      const upTo = Math.min(last, after + ID_WINDOW);
      const songs = await repository.pendingBetween(FEATURE_VERSION, after, upTo, BATCH);
      after = songs.length === BATCH ? (songs.at(-1)?.id ?? upTo) : upTo;
      await eachAtMost(config.concurrency, songs, async (song) => {
        if (!this.started || errors >= ERRORS_IN_A_ROW) return;
        errors = (await this.claimAndAnalyse(song)) ? 0 : errors + 1;
      });
      if (errors >= ERRORS_IN_A_ROW) throw new Error('the database failed several times in a row');
    }
  }

  /** Analyses the song under its claim, unless another instance has it; false when something failed (not the file). */
  private async claimAndAnalyse(song: PendingSong): Promise<boolean> {
    if (this.absent.has(`${song.id}:${song.audioKey}`)) return true;
    const { repository, log } = this.deps;
    try {
      await repository.claim(song.id, async (claimed) => {
        // Listed before the claim: another instance may have analysed it since.
        if (!(await claimed.isPending(FEATURE_VERSION, song))) return;
        const outcome = await this.analyse(song);
        if (outcome === ABSENT) {
          this.absent.add(`${song.id}:${song.audioKey}`);
          return;
        }
        if (this.stopping.signal.aborted) return;
        if (await claimed.save(FEATURE_VERSION, song, outcome, isoNow())) {
          this.analysedHere += 1;
          this.recent.push(performance.now());
        }
      });
      return true;
    } catch (error) {
      if (this.stopping.signal.aborted) return true;
      if (isSpawnFailure(error)) {
        // ffmpeg went away since start: no file is to blame, and none is marked failed.
        this.broken = true;
        this.started = false;
        log.error({ err: error }, 'audio analysis stopped: ffmpeg could not be started');
        return true;
      }
      log.warn({ err: error, song: song.id }, 'audio analysis: a song could not be analysed');
      return false;
    }
  }

  /** The song's vector, or why its file gives none; ABSENT when its bytes are not there now. */
  private async analyse(song: PendingSong): Promise<AnalysisOutcome | typeof ABSENT> {
    const { sources, ffmpegPath } = this.deps;
    if (sources === null || ffmpegPath === null) return ABSENT;
    const source = sources.audioOf({ audioKey: song.audioKey });
    if ((await source.stat()) === null) return ABSENT;
    const local = source.localPath();
    let samples: Float32Array<ArrayBuffer>;
    try {
      samples = await decodePcm({
        ffmpegPath,
        input: local === null ? { stream: source.open() } : { path: local },
        ...excerptOf(song.durationMs, ANALYSIS_EXCERPT_SECONDS),
        signal: this.stopping.signal,
      });
    } catch (error) {
      if (error instanceof DecodeFailed) return { failed: error.message.slice(0, REASON_MAX) };
      throw error;
    }
    try {
      this.thread ??= createAnalysisThread();
      return { vector: encodeVector(await this.thread.measure(samples)) };
    } catch (error) {
      if (error instanceof MeasureFailed) return { failed: error.message.slice(0, REASON_MAX) };
      throw error;
    }
  }
}

function isSpawnFailure(error: unknown): boolean {
  const { syscall } = (error ?? {}) as { syscall?: unknown };
  return typeof syscall === 'string' && syscall.startsWith('spawn');
}

/** Runs `work` over `items`, at most `limit` at once, in order of start. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
