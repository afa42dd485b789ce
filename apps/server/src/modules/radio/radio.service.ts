import { RADIO_BATCH_MAX } from '@tonearm/contract';
import type { RadioRepository } from './radio.repository.js';
import { FEATURE_LENGTH, FEATURE_WEIGHTS } from '../analysis/feature-layout.js';
import { nextSongs, rankArtists, seedProfile, type Candidate, type RadioSong } from './radio-rules.js';
import { pickPath, waypoints } from './sonic-path.js';
import { VectorIndex } from './vector-index.js';

/** Neighbours read from the index per request: a few times a batch, so the rules still have choice. */
const AUDIO_CANDIDATES = 100;
const TAG_CANDIDATES = 100;
const CO_LISTEN_CANDIDATES = 50;
/** How often the stored vectors' stamp is read; another instance's or the analyser's writes show within this. */
const STAMP_CHECK_MS = 5000;
/**
 * A new index is built at most this often, and never sooner than BUILD_SPACING times the last build's length after
 * it: while the analysis writes vectors the stamp changes at every check, and a build of 100 000 vectors is seconds of
 * arithmetic (sliced, so requests are served meanwhile, but still this instance's CPU).
 */
const REBUILD_MIN_MS = 30_000;
const BUILD_SPACING = 10;
/** Neighbours read per waypoint of a sonic path beyond one per waypoint (those taken, those the listener may not play). */
const PATH_SPARE = 8;

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

/**
 * Issue 28's radio over the database: the index of the newest vectors (rebuilt when their stamp changes, which every
 * instance reads from the database, so several instances converge), the tag and co-listen candidates, and the rules.
 */
export function createRadioService(repository: RadioRepository, now: () => number = Date.now) {
  let index = VectorIndex.build([]);
  let stamp = '';
  let built = false;
  let checkedAt = -Infinity;
  let builtAt = -Infinity;
  let buildMs = 0;
  let refreshing: Promise<void> | null = null;

  async function refreshIndex(): Promise<void> {
    const current = await repository.vectorsStamp();
    checkedAt = now();
    if (current === stamp && built) return;
    const started = now();
    const vectors = await repository.latestVectors();
    const dim = vectors[0]?.values.length;
    index = await VectorIndex.buildInSlices(vectors, dim === FEATURE_LENGTH ? { weights: FEATURE_WEIGHTS } : {});
    [stamp, built, builtAt, buildMs] = [current, true, now(), now() - started];
  }

  /** One refresh at a time, shared by whoever asks meanwhile. */
  function refresh(): Promise<void> {
    refreshing ??= refreshIndex().finally(() => (refreshing = null));
    return refreshing;
  }

  /**
   * The index as last built. The first request waits for the first build; later, when the stamp is due for a check
   * and a rebuild is allowed, the check (and any rebuild) runs in the background and requests keep the index they have.
   */
  async function currentIndex(): Promise<VectorIndex> {
    if (!built) await refresh();
    const spacing = Math.max(REBUILD_MIN_MS, BUILD_SPACING * buildMs);
    if (now() - checkedAt >= STAMP_CHECK_MS && now() - builtAt >= spacing) void refresh().catch(() => undefined);
    return index;
  }

  async function candidates(request: RadioRequest, seedSongs: RadioSong[]): Promise<Candidate[]> {
    const vectors = await currentIndex();
    const seedIds = seedSongs.map((s) => s.songId);
    const query = vectors.centroidOf(seedIds);
    const audio = new Map(
      (query ? vectors.nearest(query, AUDIO_CANDIDATES) : []).map((n) => [n.songId, n.similarity] as const),
    );
    const profile = seedProfile(seedSongs);
    // The genres as the songs store them (the profile's are lower case, for the score): what songs_genre_plays_idx finds.
    const genres = new Set(seedSongs.flatMap((song) => (song.genre ? [song.genre] : [])));
    const [tagged, together] = await Promise.all([
      repository.byTags([...genres], [...profile.artistIds], request.hidden, TAG_CANDIDATES),
      repository.coListens(seedIds, CO_LISTEN_CANDIDATES),
    ]);
    const taggedIds = new Set(tagged.map((s) => s.songId));
    const ids = new Set([...audio.keys(), ...together.keys()]);
    const visible = await repository.songs(
      [...ids].filter((id) => !taggedIds.has(id)),
      request.hidden,
    );
    const songs = [...tagged, ...visible];
    const stats = await repository.playStats(songs.map((s) => s.songId));
    return songs.map((song) => {
      const played = stats.get(song.songId) ?? { starts: 0, listens: 0 };
      const similarity = audio.get(song.songId) ?? (query ? vectors.similarityTo(query, song.songId) : null);
      return {
        ...song,
        audio: similarity,
        coListens: together.get(song.songId) ?? 0,
        skips: Math.max(0, played.starts - played.listens),
        listens: played.listens,
      };
    });
  }

  /** The next songs of a radio; the seed songs the listener may not see are no seed. */
  async function next(request: RadioRequest): Promise<RadioSong[]> {
    const seen = await repository.songs(request.seedIds, request.hidden);
    const seenById = new Map(seen.map((s) => [s.songId, s]));
    const seedSongs = request.seedIds.flatMap((id) => seenById.get(id) ?? []);
    if (seedSongs.length === 0) return [];
    const history = await repository.songs(request.historyIds, []);
    const byId = new Map(history.map((s) => [s.songId, s]));
    return nextSongs({
      candidates: await candidates(request, seedSongs),
      seed: seedProfile(seedSongs),
      seedSongs,
      history: request.historyIds.flatMap((id) => byId.get(id) ?? []),
      count: request.count,
    });
  }

  /** The songs between the two ends of a path whose vectors are known (sonic-path.ts), in order. */
  async function between(vectors: VectorIndex, from: Float32Array, to: Float32Array, request: PathRequest) {
    const points = waypoints(from, to, request.length - 2);
    const ends = new Set([request.startId, request.endId]);
    const near = points.map((point) =>
      vectors.nearest(point, points.length + PATH_SPARE, (id) => ends.has(id)).map((n) => n.songId),
    );
    const playable = await repository.songs([...new Set(near.flat())], request.hidden);
    return pickPath(near, new Set(playable.map((song) => song.songId)));
  }

  return {
    next,

    /** Each song's audio similarity to `songId` (1 for itself), null where either has no vector. */
    async similarities(songId: number, songIds: readonly number[]): Promise<Map<number, number | null>> {
      const vectors = await currentIndex();
      const query = vectors.vectorOf(songId);
      const similarity = (id: number) => (id === songId ? 1 : query ? vectors.similarityTo(query, id) : null);
      return new Map(songIds.map((id) => [id, similarity(id)]));
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
      const vectors = await currentIndex();
      const [from, to] = [vectors.vectorOf(startId), vectors.vectorOf(endId)];
      const middle = from && to ? await between(vectors, from, to, request) : [];
      return [startId, ...middle, endId];
    },

    /** Reads the vectors now, building the index again if they changed (tests). */
    refresh,
    /** The refresh under way, if any (tests: a request started one in the background). */
    refreshed: () => refreshing ?? Promise.resolve(),
    indexBytes: () => index.bytes(),
    /** Whether the index holds a song's vector (what the last refresh read). */
    indexed: (songId: number) => index.has(songId),
  };
}

export type RadioService = ReturnType<typeof createRadioService>;
