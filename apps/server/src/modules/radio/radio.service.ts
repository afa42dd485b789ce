import { RADIO_BATCH_MAX } from '@tonearm/contract';
import type { RadioRepository } from './radio.repository.js';
import { FEATURE_LENGTH, FEATURE_WEIGHTS } from '../analysis/feature-layout.js';
import { RadioFacts } from './radio-facts.js';
import { nextSongs, rankArtists, seedProfile, type Candidate, type RadioSong } from './radio-rules.js';
import { pickPath, waypoints } from './sonic-path.js';
import { VectorIndex } from './vector-index.js';

/** Neighbours read from the index per request: a few times a batch, so the rules still have choice. */
const AUDIO_CANDIDATES = 100;
const TAG_CANDIDATES = 100;
const CO_LISTEN_CANDIDATES = 50;
/** Genres of a seed whose songs are read as tag candidates (an album or a playlist may span many). */
const TAG_GENRES_MAX = 4;
/** Times a batch is chosen again when the database says some of its songs may no longer be played. */
const CHECK_ROUNDS = 3;
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
  let facts = new RadioFacts([]);
  let stamp = '';
  let songsStamp = '';
  let built = false;
  let checkedAt = -Infinity;
  let builtAt = -Infinity;
  let buildMs = 0;
  let refreshing: Promise<void> | null = null;

  async function refreshIndex(): Promise<void> {
    const [current, currentSongs] = [await repository.vectorsStamp(), await repository.songsStamp()];
    checkedAt = now();
    if (current === stamp && currentSongs === songsStamp && built) return;
    const started = now();
    if (current !== stamp || !built) {
      const vectors = await repository.latestVectors();
      const dim = vectors[0]?.values.length;
      index = await VectorIndex.buildInSlices(vectors, dim === FEATURE_LENGTH ? { weights: FEATURE_WEIGHTS } : {});
    }
    if (currentSongs !== songsStamp || !built) facts = await RadioFacts.buildInSlices(await repository.radioFacts());
    [stamp, songsStamp, built, builtAt, buildMs] = [current, currentSongs, true, now(), now() - started];
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
    const known = facts;
    const seedIds = seedSongs.map((s) => s.songId);
    const query = vectors.centroidOf(seedIds);
    const audio = new Map(
      (query ? vectors.nearest(query, AUDIO_CANDIDATES) : []).map((n) => [n.songId, n.similarity] as const),
    );
    const profile = seedProfile(seedSongs);
    // The genres as the songs store them (the profile's are lower case, for the score).
    const genres = new Set(seedSongs.flatMap((song) => (song.genre ? [song.genre] : [])));
    const tagged = known.byTags([...genres], [...profile.artistIds], request.hidden, TAG_CANDIDATES, TAG_GENRES_MAX);
    const together = await repository.coListens(seedIds, CO_LISTEN_CANDIDATES);
    const candidates: Candidate[] = [];
    const add = (song: RadioSong, starts: number, listens: number) => {
      const similarity = audio.get(song.songId) ?? (query ? vectors.similarityTo(query, song.songId) : null);
      candidates.push({
        songId: song.songId,
        artistId: song.artistId,
        albumId: song.albumId,
        genre: song.genre,
        year: song.year,
        audio: similarity,
        coListens: together.get(song.songId) ?? 0,
        skips: Math.max(0, starts - listens),
        listens,
      });
    };
    const taken = new Set<number>();
    for (const fact of tagged) {
      taken.add(fact.songId);
      add(fact, fact.starts, fact.listens);
    }
    // Songs added since the facts were read are asked of the database (their plays are few: none counted).
    const unknown: number[] = [];
    for (const id of [...audio.keys(), ...together.keys()]) {
      if (taken.has(id)) continue;
      taken.add(id);
      const fact = known.get(id);
      if (fact === undefined) unknown.push(id);
      else if (known.seen(fact, request.hidden)) add(fact, fact.starts, fact.listens);
    }
    for (const song of await repository.songs(unknown, request.hidden)) add(song, 0, 0);
    return candidates;
  }

  /** The songs of these ids as the facts know them (the database for those it does not), visibility aside. */
  async function anySongs(ids: readonly number[]): Promise<RadioSong[]> {
    const known = facts;
    const unknown = ids.filter((id) => known.get(id) === undefined);
    const read = new Map((await repository.songs(unknown, [])).map((s) => [s.songId, s]));
    return ids.flatMap((id) => known.get(id) ?? read.get(id) ?? []);
  }

  /**
   * The next songs of a radio; the seed songs the listener may not see are no seed. The candidates come from facts
   * as last read, so the chosen songs are checked against the database (seen, not missing), and the batch chosen
   * again without those that fail.
   */
  async function next(request: RadioRequest): Promise<RadioSong[]> {
    const seen = await repository.songs(request.seedIds, request.hidden);
    const seenById = new Map(seen.map((s) => [s.songId, s]));
    const seedSongs = request.seedIds.flatMap((id) => seenById.get(id) ?? []);
    if (seedSongs.length === 0) return [];
    const history = await anySongs(request.historyIds);
    let pool = await candidates(request, seedSongs);
    const seed = seedProfile(seedSongs);
    for (let round = 0; ; round++) {
      const chosen = nextSongs({ candidates: pool, seed, seedSongs, history, count: request.count });
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
      const dropped = new Set(gone.map((s) => s.songId));
      pool = pool.filter((c) => !dropped.has(c.songId));
    }
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
