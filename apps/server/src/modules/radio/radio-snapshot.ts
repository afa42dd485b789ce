/*
 * Issue 28's radio: the vectors and the songs' facts as they cross to the radio's thread (radio-thread.ts), packed in
 * a few typed arrays whose buffers are transferred, not copied: 100 000 songs as objects would be cloned on the event
 * loop for a tenth of a second, and would weigh on the main thread's garbage collector for as long as they live.
 */
import type { RadioFact } from './radio-facts.js';
import type { RawVector } from './vector-index.js';

export interface PackedVectors {
  ids: Int32Array<ArrayBuffer>;
  /** Vector i is values[offsets[i] … offsets[i + 1]). */
  offsets: Int32Array<ArrayBuffer>;
  values: Float32Array<ArrayBuffer>;
}

/** RadioFact's columns; null is -1 in the number columns (ids, years and libraries are never negative). */
export interface PackedFacts {
  ints: Int32Array<ArrayBuffer>;
  /** Index into `genres`, -1 for none. */
  genreOf: Int32Array<ArrayBuffer>;
  genres: string[];
}

/** RadioFact's number columns in `ints`, one row of FACT_COLUMNS per song. */
const FACT_COLUMNS = 9;
const NONE = -1;

export function packVectors(vectors: readonly RawVector[]): PackedVectors {
  const offsets = new Int32Array(vectors.length + 1);
  vectors.forEach((vector, i) => (offsets[i + 1] = (offsets[i] ?? 0) + vector.values.length));
  const values = new Float32Array(offsets[vectors.length] ?? 0);
  vectors.forEach((vector, i) => values.set(vector.values, offsets[i]));
  return { ids: Int32Array.from(vectors, (vector) => vector.songId), offsets, values };
}

/** The vectors again, each a view into the packed values. */
export function unpackVectors(packed: PackedVectors): RawVector[] {
  return Array.from(packed.ids, (songId, i) => ({
    songId,
    values: packed.values.subarray(packed.offsets[i] ?? 0, packed.offsets[i + 1] ?? 0),
  }));
}

export function packFacts(facts: readonly RadioFact[]): PackedFacts {
  const ints = new Int32Array(facts.length * FACT_COLUMNS);
  const genreOf = new Int32Array(facts.length);
  const genreIndex = new Map<string, number>();
  facts.forEach((fact, i) => {
    ints.set(
      [
        fact.songId,
        fact.artistId ?? NONE,
        fact.albumId ?? NONE,
        fact.year ?? NONE,
        fact.libraryId ?? NONE,
        fact.missing ? 1 : 0,
        fact.playCount,
        fact.starts,
        fact.listens,
      ],
      i * FACT_COLUMNS,
    );
    if (fact.genre === null) genreOf[i] = NONE;
    else genreOf[i] = genreIndex.get(fact.genre) ?? genreIndex.set(fact.genre, genreIndex.size).size - 1;
  });
  return { ints, genreOf, genres: [...genreIndex.keys()] };
}

export function unpackFacts(packed: PackedFacts): RadioFact[] {
  const { ints, genreOf, genres } = packed;
  const orNull = (value: number) => (value === NONE ? null : value);
  return Array.from(genreOf, (genre, i) => {
    const at = i * FACT_COLUMNS;
    const column = (c: number) => ints[at + c] ?? NONE;
    return {
      songId: column(0),
      artistId: orNull(column(1)),
      albumId: orNull(column(2)),
      year: orNull(column(3)),
      libraryId: orNull(column(4)),
      missing: column(5) === 1,
      playCount: column(6),
      starts: column(7),
      listens: column(8),
      genre: genre === NONE ? null : (genres[genre] ?? null),
    };
  });
}

/** The buffers to transfer with a snapshot. */
export function transferables(snapshot: { vectors?: PackedVectors | null; facts?: PackedFacts | null }): ArrayBuffer[] {
  const { vectors, facts } = snapshot;
  return [
    ...(vectors ? [vectors.ids.buffer, vectors.offsets.buffer, vectors.values.buffer] : []),
    ...(facts ? [facts.ints.buffer, facts.genreOf.buffer] : []),
  ];
}
