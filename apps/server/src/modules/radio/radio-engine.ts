/*
 * Issue 28's radio, the part that needs no database: the vector index and every song's facts in memory, and the
 * choice of a batch from them (candidates from the index, the tags and the co-listens the caller read; then the
 * rules). It runs on a thread of its own in the server (radio-thread.ts), so its arithmetic uses the second core and
 * its 100 000 objects are not the event loop's garbage collector's; tests run it in their own thread.
 */
import { FEATURE_LENGTH, FEATURE_WEIGHTS } from '../analysis/feature-layout.js';
import { RadioFacts } from './radio-facts.js';
import { nextSongs, seedProfile, type Candidate, type RadioSong, type SeedProfile } from './radio-rules.js';
import { waypoints } from './sonic-path.js';
import { unpackFacts, unpackVectors, type PackedFacts, type PackedVectors } from './radio-snapshot.js';
import { VectorIndex } from './vector-index.js';

/** Neighbours read from the index per request: a few times a batch, so the rules still have choice. */
const AUDIO_CANDIDATES = 100;
const TAG_CANDIDATES = 100;
/** Genres of the seed whose songs are tag candidates (an album or playlist seed may have many). */
const TAG_GENRES_MAX = 4;
/** Neighbours read per waypoint of a sonic path beyond one per waypoint (those taken, those the listener may not play). */
const PATH_SPARE = 8;

export interface ChooseRequest {
  /** The seed songs the listener sees, as the database has them now. */
  seedSongs: RadioSong[];
  /** Played or queued so far in this radio, oldest first. */
  historyIds: number[];
  hidden: number[];
  /** Songs played in the same sessions as the seed, with how many sessions (radio.repository's coListens). */
  together: [songId: number, sessions: number][];
  count: number;
  /** Songs the database check dropped from an earlier choice of this request: never chosen again. */
  exclude: number[];
  /**
   * The songs the facts did not know in the previous answer (`unknown`), as the database has them (those the listener
   * sees); null on the first call.
   */
  extra: RadioSong[] | null;
}

/** The batch, or the songs to read from the database first (songs added since the facts were read). */
export type ChooseAnswer = { chosen: RadioSong[] } | { unknown: number[] };

export interface Snapshot {
  /** Null: keep the index as it is. */
  vectors: PackedVectors | null;
  facts: PackedFacts | null;
}

export class RadioEngine {
  private index = VectorIndex.build([]);
  private facts = new RadioFacts([]);

  /** Builds from a snapshot, a slice at a time (requests are answered between slices from the previous one). */
  async load(snapshot: Snapshot): Promise<void> {
    if (snapshot.vectors) {
      const vectors = unpackVectors(snapshot.vectors);
      const dim = vectors[0]?.values.length;
      this.index = await VectorIndex.buildInSlices(vectors, dim === FEATURE_LENGTH ? { weights: FEATURE_WEIGHTS } : {});
    }
    if (snapshot.facts) this.facts = await RadioFacts.buildInSlices(unpackFacts(snapshot.facts));
  }

  choose(request: ChooseRequest): ChooseAnswer {
    const { facts } = this;
    const history = request.historyIds.map((id) => facts.get(id));
    const unknownHistory = request.historyIds.filter((_, i) => history[i] === undefined);
    const seed = seedProfile(request.seedSongs);
    const pool = this.candidates(request, seed);
    const unknown = [...new Set([...pool.unknown, ...unknownHistory])];
    if (unknown.length > 0 && request.extra === null) return { unknown };
    const extra = new Map((request.extra ?? []).map((song) => [song.songId, song]));
    const excluded = new Set(request.exclude);
    return {
      chosen: nextSongs({
        candidates: pool.candidates.filter((candidate) => !excluded.has(candidate.songId)),
        seed,
        seedSongs: request.seedSongs,
        // A song of the history the facts do not know and the listener may not see counts for the repeats alone.
        history: request.historyIds.map((songId, i) => history[i] ?? extra.get(songId) ?? idOnly(songId)),
        count: request.count,
      }),
    };
  }

  /** Each song's audio similarity to `songId` (1 for itself), null where either has no vector. */
  similarities(songId: number, songIds: readonly number[]): (number | null)[] {
    const query = this.index.vectorOf(songId);
    return songIds.map((id) => (id === songId ? 1 : query ? this.index.similarityTo(query, id) : null));
  }

  /** Each waypoint's nearest songs on the way between two songs (sonic-path.ts), or null when either has no vector. */
  pathNeighbours(startId: number, endId: number, length: number): number[][] | null {
    const [from, to] = [this.index.vectorOf(startId), this.index.vectorOf(endId)];
    if (!from || !to) return null;
    const points = waypoints(from, to, length - 2);
    const ends = new Set([startId, endId]);
    return points.map((point) =>
      this.index.nearest(point, points.length + PATH_SPARE, (id) => ends.has(id)).map((n) => n.songId),
    );
  }

  indexed(songId: number): boolean {
    return this.index.has(songId);
  }

  bytes(): number {
    return this.index.bytes();
  }

  /**
   * The candidates the facts know and the listener sees: the seed's nearest neighbours, the most played songs of its
   * genres and artists, its co-listens, and the `extra` songs; and the ids of neighbours and co-listens the facts do
   * not know.
   */
  private candidates(request: ChooseRequest, profile: SeedProfile): { candidates: Candidate[]; unknown: number[] } {
    const { index, facts } = this;
    const seedIds = request.seedSongs.map((s) => s.songId);
    const query = index.centroidOf(seedIds);
    const audio = new Map(
      (query ? index.nearest(query, AUDIO_CANDIDATES) : []).map((n) => [n.songId, n.similarity] as const),
    );
    const together = new Map(request.together);
    // The genres as the songs store them (the profile's are lower case, for the score).
    const genres = new Set(request.seedSongs.flatMap((song) => (song.genre ? [song.genre] : [])));
    const tagged = facts.byTags([...genres], [...profile.artistIds], request.hidden, TAG_CANDIDATES, TAG_GENRES_MAX);
    const candidates: Candidate[] = [];
    const add = (song: RadioSong, starts: number, listens: number) => {
      const similarity = audio.get(song.songId) ?? (query ? index.similarityTo(query, song.songId) : null);
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
    const unknown: number[] = [];
    for (const id of [...audio.keys(), ...together.keys()]) {
      if (taken.has(id)) continue;
      taken.add(id);
      const fact = facts.get(id);
      if (fact === undefined) unknown.push(id);
      else if (facts.seen(fact, request.hidden)) add(fact, fact.starts, fact.listens);
    }
    // Songs added since the facts were read, as the caller read them (its plays are few: none counted).
    const asked = new Set(unknown);
    for (const song of request.extra ?? []) if (asked.has(song.songId)) add(song, 0, 0);
    return { candidates, unknown };
  }
}

function idOnly(songId: number): RadioSong {
  return { songId, artistId: null, albumId: null, genre: null, year: null };
}
