/* eslint-disable @typescript-eslint/no-non-null-assertion -- the index's loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
/*
 * Issue 28's nearest-neighbour index for song radio: an in-memory IVF (inverted file) over standardised vectors.
 * Each dimension is z-scored over the library's vectors (the analyser's raw features have unrelated scales), each
 * vector is then normalised to length 1, so cosine similarity is a dot product. k-means splits the vectors into about
 * √n cells; a query is compared with the centroids and then only with the songs of the `probes` nearest cells, so a
 * request costs about (√n + probes · √n) dot products instead of n. All vectors live in one Float32Array (n · dim · 4
 * bytes: 100 000 songs of 32 dimensions is 12.8 MB) so memory stays flat and predictable.
 */

export interface RawVector {
  songId: number;
  values: Float32Array;
}

export interface Neighbour {
  songId: number;
  similarity: number;
}

export interface IndexOptions {
  /** k-means rounds; a few are enough for the cells to be useful (recall is measured, not assumed). */
  rounds?: number;
  /** Cells a query looks into. */
  probes?: number;
  /** Seed of the deterministic random choices (initial centroids, sampling). */
  seed?: number;
  /** Each dimension's weight once z-scored (the analysis's FEATURES); 1 for a dimension it does not name. */
  weights?: ArrayLike<number>;
}

/** Vectors k-means trains on at most, per cell: the cells are then drawn from a sample, and every vector joins one. */
const TRAINING_PER_CELL = 32;
/** Dot products between two pauses of a sliced build (about 10 ms of work here), so requests are served meanwhile. */
const SLICE_WORK = 2_000_000;
/** Vectors standardised between two pauses. */
const STANDARDISE_SLICE = 20_000;

/** A small deterministic generator (mulberry32), so a rebuilt index is the same index. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class VectorIndex {
  readonly dim: number;
  readonly size: number;
  private readonly ids: Int32Array;
  private readonly rowOf = new Map<number, number>();
  private readonly data: Float32Array;
  private readonly mean: Float64Array;
  private readonly scale: Float64Array;
  private centroids: Float32Array = new Float32Array(0);
  private cells: Int32Array[] = [];
  private readonly probes: number;

  private constructor(vectors: RawVector[], dim: number, probes: number) {
    this.dim = dim;
    this.size = vectors.length;
    this.probes = probes;
    this.ids = new Int32Array(vectors.map((v) => v.songId));
    this.data = new Float32Array(this.size * dim);
    this.mean = new Float64Array(dim);
    this.scale = new Float64Array(dim);
    vectors.forEach((v, row) => this.rowOf.set(v.songId, row));
  }

  /**
   * Builds the index. Vectors of another length than the most common one are left out (a half-migrated analysis
   * version must not mix layouts); the length itself is read from the data.
   */
  static build(input: RawVector[], options: IndexOptions = {}): VectorIndex {
    const steps = this.steps(input, options);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /**
   * The same build, in slices of about SLICE_WORK dot products with a turn of the event loop between them: at 100 000
   * songs the build is a second or two of arithmetic, which must not hold every request back.
   */
  static async buildInSlices(input: RawVector[], options: IndexOptions = {}): Promise<VectorIndex> {
    const steps = this.steps(input, options);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private static *steps(input: RawVector[], options: IndexOptions): Generator<void, VectorIndex> {
    const dim = commonLength(input);
    const vectors = input.filter((v) => v.values.length === dim && dim > 0 && allFinite(v.values));
    yield;
    const cellCount = Math.max(1, Math.round(Math.sqrt(vectors.length)));
    const index = new this(vectors, dim, Math.min(cellCount, options.probes ?? defaultProbes(cellCount)));
    yield;
    yield* index.standardise(vectors, options.weights);
    yield* index.cluster(cellCount, options.rounds ?? 6, seededRandom(options.seed ?? 1));
    return index;
  }

  /** Approximate memory held, in bytes (the vectors, centroids, cell lists and id map). */
  bytes(): number {
    const cellBytes = this.cells.reduce((sum, cell) => sum + cell.byteLength, 0);
    return this.data.byteLength + this.centroids.byteLength + cellBytes + this.ids.byteLength + this.size * 40;
  }

  has(songId: number): boolean {
    return this.rowOf.has(songId);
  }

  /** The standardised unit vector of a song, or undefined if it has none in the index. */
  vectorOf(songId: number): Float32Array | undefined {
    const row = this.rowOf.get(songId);
    return row === undefined ? undefined : this.data.subarray(row * this.dim, (row + 1) * this.dim);
  }

  /** The cosine similarity of a song's vector to a unit query, or null when the song has none in the index. */
  similarityTo(query: Float32Array, songId: number): number | null {
    const row = this.rowOf.get(songId);
    return row === undefined ? null : this.dotRow(row, query);
  }

  /** The unit centroid of several songs' vectors (a radio seeded by an album, artist or playlist). */
  centroidOf(songIds: Iterable<number>): Float32Array | undefined {
    const sum = new Float32Array(this.dim);
    let count = 0;
    for (const id of songIds) {
      const vector = this.vectorOf(id);
      if (!vector) continue;
      for (let d = 0; d < this.dim; d++) sum[d] = (sum[d] ?? 0) + (vector[d] ?? 0);
      count++;
    }
    return count === 0 ? undefined : normalised(sum);
  }

  /** The `k` nearest songs to a unit query, from the `probes` nearest cells, most similar first. */
  nearest(query: Float32Array, k: number, skip: (songId: number) => boolean = () => false): Neighbour[] {
    const cellOrder = this.nearestCells(query);
    const best = new TopK(k);
    const { data, dim, ids } = this;
    for (const cell of cellOrder) {
      for (const row of this.cells[cell] ?? []) {
        // The hot loop, inline and by fours: the dot product of the row and the query.
        const at = row * dim;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let d = 0;
        for (; d + 3 < dim; d += 4) {
          s0 += data[at + d]! * query[d]!;
          s1 += data[at + d + 1]! * query[d + 1]!;
          s2 += data[at + d + 2]! * query[d + 2]!;
          s3 += data[at + d + 3]! * query[d + 3]!;
        }
        for (; d < dim; d++) s0 += data[at + d]! * query[d]!;
        const similarity = s0 + s1 + s2 + s3;
        if (!best.wants(similarity)) continue;
        const songId = ids[row] ?? 0;
        if (!skip(songId)) best.offer(songId, similarity);
      }
    }
    return best.sorted();
  }

  /** Exact search over every vector: the reference the index's recall is measured against. */
  exactNearest(query: Float32Array, k: number): Neighbour[] {
    const best = new TopK(k);
    for (let row = 0; row < this.size; row++) best.offer(this.ids[row] ?? 0, this.dotRow(row, query));
    return best.sorted();
  }

  /** The `probes` cells whose centroids are nearest the query, nearest first (a small sorted insert: no sort of all). */
  private nearestCells(query: Float32Array): number[] {
    const best = new TopK(this.probes);
    for (let cell = 0; cell < this.cells.length; cell++) {
      const score = dot(this.centroids, cell * this.dim, query, this.dim);
      if (best.wants(score)) best.offer(cell, score);
    }
    return best.sorted().map((n) => n.songId);
  }

  private dotRow(row: number, query: Float32Array): number {
    return dot(this.data, row * this.dim, query, this.dim);
  }

  /** Each dimension z-scored and weighed, each vector then of length 1; yields every STANDARDISE_SLICE vectors. */
  private *standardise(vectors: RawVector[], weights: ArrayLike<number> = []): Generator<void> {
    const dim = this.dim;
    const n = Math.max(1, vectors.length);
    for (let row = 0; row < vectors.length; row++) {
      for (let d = 0; d < dim; d++) this.mean[d]! += vectors[row]!.values[d]! / n;
      if ((row + 1) % STANDARDISE_SLICE === 0) yield;
    }
    for (let row = 0; row < vectors.length; row++) {
      for (let d = 0; d < dim; d++) this.scale[d]! += (vectors[row]!.values[d]! - this.mean[d]!) ** 2 / n;
      if ((row + 1) % STANDARDISE_SLICE === 0) yield;
    }
    // A constant dimension says nothing about similarity: scale 0 drops it instead of dividing by zero.
    for (let d = 0; d < dim; d++)
      this.scale[d] = this.scale[d]! > 1e-12 ? (weights[d] ?? 1) / Math.sqrt(this.scale[d]!) : 0;
    for (let row = 0; row < vectors.length; row++) {
      const values = vectors[row]!.values;
      const offset = row * dim;
      let length = 0;
      for (let d = 0; d < dim; d++) {
        const x = (values[d]! - this.mean[d]!) * this.scale[d]!;
        this.data[offset + d] = x;
        length += x * x;
      }
      const inverse = length > 0 ? 1 / Math.sqrt(length) : 0;
      for (let d = 0; d < dim; d++) this.data[offset + d]! *= inverse;
      if ((row + 1) % STANDARDISE_SLICE === 0) yield;
    }
  }

  /**
   * Spherical k-means: centroids are unit vectors, a vector joins the centroid of largest dot product. The centroids
   * are trained on a sample of TRAINING_PER_CELL vectors a cell (all of them in a small library), then every vector
   * joins its nearest; the work is yielded in slices (buildInSlices).
   */
  private *cluster(cellCount: number, rounds: number, random: () => number): Generator<void> {
    const dim = this.dim;
    this.centroids = new Float32Array(cellCount * dim);
    for (let c = 0; c < cellCount && this.size > 0; c++) {
      const row = Math.floor(random() * this.size);
      this.centroids.set(this.data.subarray(row * dim, (row + 1) * dim), c * dim);
    }
    const training = sampleRows(this.size, cellCount * TRAINING_PER_CELL, random);
    const assignment = new Int32Array(training.length);
    for (let round = 0; round < rounds; round++) {
      yield* this.assign(training, assignment, cellCount);
      this.moveCentroids(training, assignment, cellCount, random);
    }
    const everyRow = Int32Array.from({ length: this.size }, (_, row) => row);
    const final = new Int32Array(this.size);
    yield* this.assign(everyRow, final, cellCount);
    const counts = new Int32Array(cellCount);
    for (const cell of final) counts[cell] = (counts[cell] ?? 0) + 1;
    this.cells = Array.from(counts, (count) => new Int32Array(count));
    const filled = new Int32Array(cellCount);
    final.forEach((cell, row) => {
      const at = filled[cell] ?? 0;
      filled[cell] = at + 1;
      const members = this.cells[cell];
      if (members) members[at] = row;
    });
  }

  /** Each of `rows` to its nearest centroid (`assignment[i]` for `rows[i]`), a slice of SLICE_WORK at a time. */
  private *assign(rows: Int32Array, assignment: Int32Array, cellCount: number): Generator<void> {
    const dim = this.dim;
    const perSlice = Math.max(1, Math.floor(SLICE_WORK / Math.max(1, cellCount * dim)));
    for (let i = 0; i < rows.length; i++) {
      const offset = (rows[i] ?? 0) * dim;
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < cellCount; c++) {
        const score = dotAt(this.centroids, c * dim, this.data, offset, dim);
        if (score > bestScore) {
          best = c;
          bestScore = score;
        }
      }
      assignment[i] = best;
      if ((i + 1) % perSlice === 0) yield;
    }
  }

  private moveCentroids(rows: Int32Array, assignment: Int32Array, cellCount: number, random: () => number): void {
    const dim = this.dim;
    const sums = new Float32Array(cellCount * dim);
    const counts = new Int32Array(cellCount);
    assignment.forEach((cell, i) => {
      const offset = (rows[i] ?? 0) * dim;
      counts[cell] = (counts[cell] ?? 0) + 1;
      for (let d = 0; d < dim; d++) sums[cell * dim + d] = (sums[cell * dim + d] ?? 0) + (this.data[offset + d] ?? 0);
    });
    for (let c = 0; c < cellCount; c++) {
      // An empty cell restarts at a random vector rather than staying useless.
      const row = Math.floor(random() * this.size);
      const source =
        counts[c] === 0 ? this.data.subarray(row * dim, (row + 1) * dim) : sums.subarray(c * dim, (c + 1) * dim);
      this.centroids.set(normalised(Float32Array.from(source)), c * dim);
    }
  }
}

/** `count` distinct rows of `size` drawn at random (every row, in order, when count ≥ size). */
function sampleRows(size: number, count: number, random: () => number): Int32Array {
  const rows = Int32Array.from({ length: size }, (_, row) => row);
  if (count >= size) return rows;
  // A partial Fisher–Yates shuffle: the first `count` places end up a uniform sample.
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (size - i));
    [rows[i], rows[j]] = [rows[j] ?? 0, rows[i] ?? 0];
  }
  return rows.slice(0, count);
}

function allFinite(values: Float32Array): boolean {
  for (const value of values) if (!Number.isFinite(value)) return false;
  return true;
}

/**
 * Cells a query looks into: 8, or one in 40 at a library of more than 320 cells (100 000 songs): about 2.5 % of the
 * songs. One in 20 (16 cells at 100 000 songs) found no more of the exact 100 nearest in bench:radio's library
 * (recall 1.0 both) and took twice as long (1.5 ms a query here, against 0.85 ms).
 */
function defaultProbes(cellCount: number): number {
  return Math.max(8, Math.ceil(cellCount / 40));
}

function commonLength(vectors: RawVector[]): number {
  const counts = new Map<number, number>();
  for (const v of vectors) counts.set(v.values.length, (counts.get(v.values.length) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [length, count] of counts) if (count > bestCount) [best, bestCount] = [length, count];
  return best;
}

function dot(a: Float32Array, offset: number, b: Float32Array, dim: number): number {
  return dotAt(a, offset, b, 0, dim);
}

/** The hot loop of the index (both offsets are in range: rows and cells of `dim` values). */
function dotAt(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, dim: number): number {
  let sum = 0;
  for (let d = 0; d < dim; d++) sum += a[aOffset + d]! * b[bOffset + d]!;
  return sum;
}

function normaliseInPlace(v: Float32Array): Float32Array {
  let length = 0;
  for (const x of v) length += x * x;
  const inverse = length > 0 ? 1 / Math.sqrt(length) : 0;
  for (let d = 0; d < v.length; d++) v[d] = (v[d] ?? 0) * inverse;
  return v;
}

/** A copy of `v` of length 1 (all zeros for the zero vector). */
export function normalised(v: Float32Array): Float32Array {
  return normaliseInPlace(Float32Array.from(v));
}

/** The k best (songId, similarity) pairs seen, kept in a small sorted array (k is tens, not thousands). */
class TopK {
  private readonly items: Neighbour[] = [];
  constructor(private readonly k: number) {}

  /** Whether a song of this similarity would be kept (so the caller may skip its other checks). */
  wants(similarity: number): boolean {
    return this.k > 0 && (this.items.length < this.k || similarity > (this.items.at(-1)?.similarity ?? -Infinity));
  }

  offer(songId: number, similarity: number): void {
    if (this.k <= 0) return;
    if (this.items.length === this.k && similarity <= (this.items.at(-1)?.similarity ?? -Infinity)) return;
    let at = this.items.length;
    while (at > 0 && (this.items[at - 1]?.similarity ?? Infinity) < similarity) at--;
    this.items.splice(at, 0, { songId, similarity });
    if (this.items.length > this.k) this.items.pop();
  }

  sorted(): Neighbour[] {
    return this.items;
  }
}
