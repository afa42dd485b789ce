/*
 * Issue 28's radio: what the blend reads of every song, held in memory beside the vector index and read again with it
 * (radio.service.ts), so a radio request reads only co-listens, its seed and its final check from the database.
 * Stale by up to one rebuild: the service checks its chosen songs against the database before answering them.
 */
import { seesLibrary } from '../../db/library-visibility.js';
import type { RadioSong } from './radio-rules.js';

/** One song's facts, as radio.repository's `radioFacts` reads them. */
export interface RadioFact extends RadioSong {
  /** Its library (null: the blob store's): whether a listener with hidden libraries sees it. */
  libraryId: number | null;
  /** Its file is gone: never offered. */
  missing: boolean;
  /** `songs.play_count`: the tag candidates' order, the most played first. */
  playCount: number;
  /** Play starts (`plays`) and counted listens (`listens`): the skip share. */
  starts: number;
  listens: number;
}

/** Songs indexed (or sorted) between two turns of the event loop. */
const SLICE = 5000;

/** Most played first, then by id: the order of radio.repository's tag queries. */
const byPlays = (a: RadioFact, b: RadioFact) => b.playCount - a.playCount || a.songId - b.songId;

export class RadioFacts {
  private readonly byId = new Map<number, RadioFact>();
  private readonly byGenre = new Map<string, RadioFact[]>();
  private readonly byArtist = new Map<number, RadioFact[]>();

  /** Facts indexed at once (tests, and small libraries); the service builds them in slices. */
  constructor(facts: readonly RadioFact[] = []) {
    const steps = this.fill(facts);
    while (steps.next().done !== true);
  }

  /**
   * The facts indexed in slices of about SLICE songs with a turn of the event loop between them, as the vector index
   * is built: 100 000 songs at once held the event loop for some 330 ms here, sliced its longest turn is about 13 ms.
   */
  static async buildInSlices(facts: readonly RadioFact[]): Promise<RadioFacts> {
    const built = new RadioFacts();
    const steps = built.fill(facts);
    while (steps.next().done !== true) await new Promise((resolve) => setImmediate(resolve));
    return built;
  }

  /** Indexes the facts, yielding after every SLICE songs added or sorted. */
  private *fill(facts: readonly RadioFact[]): Generator<void> {
    for (const [i, fact] of facts.entries()) {
      if (!this.byId.has(fact.songId)) {
        this.byId.set(fact.songId, fact);
        if (!fact.missing && fact.genre !== null) push(this.byGenre, fact.genre, fact);
        if (!fact.missing && fact.artistId !== null) push(this.byArtist, fact.artistId, fact);
      }
      if ((i + 1) % SLICE === 0) yield;
    }
    let sorted = 0;
    for (const list of [...this.byGenre.values(), ...this.byArtist.values()]) {
      list.sort(byPlays);
      sorted += list.length;
      if (sorted >= SLICE) {
        sorted = 0;
        yield;
      }
    }
  }

  get size(): number {
    return this.byId.size;
  }

  /** The song's facts as last read, whatever its visibility; undefined when it was not there then. */
  get(songId: number): RadioFact | undefined {
    return this.byId.get(songId);
  }

  /** Whether the song was there, not missing, and outside the `hidden` libraries, as last read. */
  seen(fact: RadioFact | undefined, hidden: readonly number[]): fact is RadioFact {
    return fact !== undefined && !fact.missing && (hidden.length === 0 || seesLibrary(hidden, fact.libraryId));
  }

  /**
   * The most played songs of each genre (as stored, at most `genresMax` of them) and of the artists, `limit` of each,
   * that the listener sees: radio.repository's former tag queries, from memory.
   */
  byTags(
    genres: readonly string[],
    artistIds: readonly number[],
    hidden: readonly number[],
    limit: number,
    genresMax: number,
  ): RadioFact[] {
    const found = new Map<number, RadioFact>();
    const take = (list: readonly RadioFact[]) => {
      let taken = 0;
      for (const fact of list) {
        if (taken >= limit) return;
        if (!this.seen(fact, hidden)) continue;
        found.set(fact.songId, fact);
        taken++;
      }
    };
    for (const genre of genres.slice(0, genresMax)) take(this.byGenre.get(genre) ?? []);
    const artists = [...new Set(artistIds)].flatMap((id) => this.byArtist.get(id) ?? []);
    take(artistIds.length > 1 ? artists.sort(byPlays) : artists);
    return [...found.values()];
  }
}

function push<K>(map: Map<K, RadioFact[]>, key: K, fact: RadioFact): void {
  const list = map.get(key);
  if (list) list.push(fact);
  else map.set(key, [fact]);
}
