import { RADIO_BATCH_MAX } from '@tonearm/contract';
import type { RadioRepository } from './radio.repository.js';
import type { ChooseRequest } from './radio-engine.js';
import { rankArtists, type RadioSong } from './radio-rules.js';
import { packFacts, packVectors } from './radio-snapshot.js';
import { engineInThisThread, type RadioEngineHost } from './radio-thread.js';
import { pickPath } from './sonic-path.js';

const CO_LISTEN_CANDIDATES = 50;
/** Times a batch is chosen again when the database says some of its songs may no longer be played. */
const CHECK_ROUNDS = 3;
/** How often the stored vectors' and songs' stamps are read; another instance's or the analyser's writes show within this. */
const STAMP_CHECK_MS = 5000;
/**
 * A new index is built at most this often, and never sooner than BUILD_SPACING times the last build's length after
 * it: while the analysis writes vectors the stamp changes at every check, and a build of 100 000 vectors is seconds of
 * arithmetic (on the radio's thread, and sliced, but still this instance's CPU).
 */
const REBUILD_MIN_MS = 30_000;
const BUILD_SPACING = 10;

export interface RadioRequest {
  /** The seed's songs (a song, or an album's, artist's or playlist's), in order. */
  seedIds: readonly number[];
  /** Played or queued so far in this radio, oldest first. */
  historyIds: readonly number[];
  count: number;
  /** The listener's hidden libraries. */
  hidden: readonly number[];
}

export interface SimilarArtistsRequest {
  artistId: number;
  /** The artist's songs, the seed of the radio whose choices tell the similar artists. */
  seedIds: readonly number[];
  count: number;
  hidden: readonly number[];
}

export interface PathRequest {
  startId: number;
  endId: number;
  /** The most songs on the path, both ends included (2 at least). */
  length: number;
  hidden: readonly number[];
}

export interface RadioServiceOptions {
  now?: () => number;
  /** Where the engine runs: engineOnThread() in the server; this thread by default (tests). */
  engine?: RadioEngineHost;
  /** Told when a background rebuild fails (the radio keeps the index it has meanwhile). */
  onError?: (error: unknown) => void;
}

/**
 * Issue 28's radio over the database: the engine's index and facts (radio-engine.ts, rebuilt when the stamps change,
 * which every instance reads from the database, so several instances converge), fed the seed and the co-listens read
 * here, its choice then checked against the database.
 */
export function createRadioService(repository: RadioRepository, options: RadioServiceOptions = {}) {
  const now = options.now ?? Date.now;
  const engine = options.engine ?? engineInThisThread();
  let stamp = '';
  let songsStamp = '';
  let built = false;
  let checkedAt = -Infinity;
  let builtAt = -Infinity;
  let buildMs = 0;
  let refreshing: Promise<void> | null = null;
  // A thread that died took its index and facts with it: the next request reads them again.
  engine.onLost(() => ([built, stamp, songsStamp] = [false, '', '']));

  async function refreshIndex(): Promise<void> {
    const [current, currentSongs] = [await repository.vectorsStamp(), await repository.songsStamp()];
    checkedAt = now();
    if (current === stamp && currentSongs === songsStamp && built) return;
    const started = now();
    const vectors = current !== stamp || !built ? packVectors(await repository.latestVectors()) : null;
    const facts = currentSongs !== songsStamp || !built ? packFacts(await repository.radioFacts()) : null;
    await engine.load({ vectors, facts });
    [stamp, songsStamp, built, builtAt, buildMs] = [current, currentSongs, true, now(), now() - started];
  }

  /** One refresh at a time, shared by whoever asks meanwhile. */
  function refresh(): Promise<void> {
    refreshing ??= refreshIndex().finally(() => (refreshing = null));
    return refreshing;
  }

  /**
   * Ready once built. The first request waits for the first build; later, when the stamps are due for a check and a
   * rebuild is allowed, the check (and any rebuild) runs in the background and requests use what the engine has.
   */
  async function ready(): Promise<void> {
    if (!built) await refresh();
    const spacing = Math.max(REBUILD_MIN_MS, BUILD_SPACING * buildMs);
    if (now() - checkedAt >= STAMP_CHECK_MS && now() - builtAt >= spacing)
      void refresh().catch(options.onError ?? (() => undefined));
  }

  /** The engine's choice, with the songs it did not know read from the database when it asks for them. */
  async function choose(request: ChooseRequest): Promise<RadioSong[]> {
    const answer = await engine.choose(request);
    if ('chosen' in answer) return answer.chosen;
    const extra = await repository.songs(answer.unknown, request.hidden);
    const again = await engine.choose({ ...request, extra });
    return 'chosen' in again ? again.chosen : [];
  }

  /**
   * The next songs of a radio; the seed songs the listener may not see are no seed. The engine's facts are as last
   * read, so the chosen songs are checked against the database (seen, not missing), and the batch chosen again
   * without those that fail.
   */
  async function next(request: RadioRequest): Promise<RadioSong[]> {
    const seen = await repository.songs(request.seedIds, request.hidden);
    const seenById = new Map(seen.map((s) => [s.songId, s]));
    const seedSongs = request.seedIds.flatMap((id) => seenById.get(id) ?? []);
    if (seedSongs.length === 0) return [];
    await ready();
    const together = await repository.coListens(
      seedSongs.map((s) => s.songId),
      CO_LISTEN_CANDIDATES,
    );
    const base: ChooseRequest = {
      seedSongs,
      historyIds: [...request.historyIds],
      hidden: [...request.hidden],
      together: [...together],
      count: request.count,
      exclude: [],
      extra: null,
    };
    for (let round = 0; ; round++) {
      const chosen = await choose(base);
      const checked = new Set(
        (
          await repository.songs(
            chosen.map((s) => s.songId),
            request.hidden,
          )
        ).map((s) => s.songId),
      );
      const gone = chosen.filter((s) => !checked.has(s.songId));
      if (gone.length === 0 || round + 1 >= CHECK_ROUNDS) return chosen.filter((s) => checked.has(s.songId));
      base.exclude.push(...gone.map((s) => s.songId));
    }
  }

  return {
    next,

    /** Each song's audio similarity to `songId` (1 for itself), null where either has no vector. */
    async similarities(songId: number, songIds: readonly number[]): Promise<Map<number, number | null>> {
      await ready();
      const similarity = await engine.similarities(songId, [...songIds]);
      return new Map(songIds.map((id, i) => [id, similarity[i] ?? null]));
    },

    /** The artists most like one: those of the songs a radio of its songs chooses (rankArtists), that the listener sees. */
    async similarArtists(request: SimilarArtistsRequest): Promise<number[]> {
      const chosen = await next({ ...request, historyIds: [], count: RADIO_BATCH_MAX });
      return rankArtists(chosen, request.artistId, request.count);
    },

    /**
     * A sonic path: the start, the songs on the way from its sound to the end's (sonic-path.ts), then the end, at most
     * `length` songs. Without both songs' vectors there is no way to follow: only the two ends. Empty when the listener
     * may not play either end.
     */
    async path(request: PathRequest): Promise<number[]> {
      const { startId, endId } = request;
      const ends = await repository.songs([startId, endId], request.hidden);
      if (![startId, endId].every((id) => ends.some((song) => song.songId === id))) return [];
      if (startId === endId) return [startId];
      await ready();
      const near = await engine.pathNeighbours(startId, endId, request.length);
      if (near === null) return [startId, endId];
      const playable = await repository.songs([...new Set(near.flat())], request.hidden);
      return [startId, ...pickPath(near, new Set(playable.map((song) => song.songId))), endId];
    },

    /** Reads the vectors and facts now, building again what changed (tests). */
    refresh,
    /** The refresh under way, if any (tests: a request started one in the background). */
    refreshed: () => refreshing ?? Promise.resolve(),
    indexBytes: () => engine.bytes(),
    /** Whether the index holds a song's vector (what the last refresh read). */
    indexed: (songId: number) => engine.indexed(songId),
    /** Stops the engine's thread (the app's close), once a refresh under way has ended. */
    async close(): Promise<void> {
      await refreshing?.catch(() => undefined);
      await engine.close();
    },
  };
}

export type RadioService = ReturnType<typeof createRadioService>;
