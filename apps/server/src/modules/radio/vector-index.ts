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
}

/** Decodes a song_features.vector blob (little-endian float32). */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
  return values;
}

/** Encodes a vector as song_features stores it (tests and benches write their own vectors). */
export function encodeVector(values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] ?? 0, true);
  return bytes;
}

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
    const dim = commonLength(input);
    const vectors = input.filter((v) => v.values.length === dim && dim > 0 && v.values.every(Number.isFinite));
    const cellCount = Math.max(1, Math.round(Math.sqrt(vectors.length)));
    const index = new this(vectors, dim, Math.min(cellCount, options.probes ?? defaultProbes(cellCount)));
    index.standardise(vectors);
    index.cluster(cellCount, options.rounds ?? 6, seededRandom(options.seed ?? 1));
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
    for (const cell of cellOrder) {
      for (const row of this.cells[cell] ?? []) {
        const songId = this.ids[row] ?? 0;
        if (!skip(songId)) best.offer(songId, this.dotRow(row, query));
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

  private nearestCells(query: Float32Array): number[] {
    const scores = this.cells.map((_, cell) => ({
      cell,
      score: dot(this.centroids, cell * this.dim, query, this.dim),
    }));
    scores.sort((a, b) => b.score - a.score);
    return scores.slice(0, this.probes).map((s) => s.cell);
  }

  private dotRow(row: number, query: Float32Array): number {
    return dot(this.data, row * this.dim, query, this.dim);
  }

  private standardise(vectors: RawVector[]): void {
    const n = Math.max(1, vectors.length);
    for (const v of vectors)
      for (let d = 0; d < this.dim; d++) this.mean[d] = (this.mean[d] ?? 0) + (v.values[d] ?? 0) / n;
    for (const v of vectors)
      for (let d = 0; d < this.dim; d++)
        this.scale[d] = (this.scale[d] ?? 0) + ((v.values[d] ?? 0) - (this.mean[d] ?? 0)) ** 2 / n;
    // A constant dimension says nothing about similarity: scale 0 drops it instead of dividing by zero.
    for (let d = 0; d < this.dim; d++)
      this.scale[d] = (this.scale[d] ?? 0) > 1e-12 ? 1 / Math.sqrt(this.scale[d] ?? 0) : 0;
    vectors.forEach((v, row) => {
      const out = this.data.subarray(row * this.dim, (row + 1) * this.dim);
      for (let d = 0; d < this.dim; d++) out[d] = ((v.values[d] ?? 0) - (this.mean[d] ?? 0)) * (this.scale[d] ?? 0);
      normaliseInPlace(out);
    });
  }

  /** Spherical k-means: centroids are unit vectors, a vector joins the centroid of largest dot product. */
  private cluster(cellCount: number, rounds: number, random: () => number): void {
    const dim = this.dim;
    this.centroids = new Float32Array(cellCount * dim);
    for (let c = 0; c < cellCount && this.size > 0; c++) {
      const row = Math.floor(random() * this.size);
      this.centroids.set(this.data.subarray(row * dim, (row + 1) * dim), c * dim);
    }
    const assignment = new Int32Array(this.size);
    for (let round = 0; round < rounds; round++) {
      this.assign(assignment, cellCount);
      this.moveCentroids(assignment, cellCount, random);
    }
    this.assign(assignment, cellCount);
    const counts = new Int32Array(cellCount);
    for (const cell of assignment) counts[cell] = (counts[cell] ?? 0) + 1;
    this.cells = Array.from(counts, (count) => new Int32Array(count));
    const filled = new Int32Array(cellCount);
    assignment.forEach((cell, row) => {
      const at = filled[cell] ?? 0;
      filled[cell] = at + 1;
      const members = this.cells[cell];
      if (members) members[at] = row;
    });
  }

  private assign(assignment: Int32Array, cellCount: number): void {
    for (let row = 0; row < this.size; row++) {
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < cellCount; c++) {
        const score = dot(this.centroids, c * this.dim, this.data.subarray(row * this.dim), this.dim);
        if (score > bestScore) [best, bestScore] = [c, score];
      }
      assignment[row] = best;
    }
  }

  private moveCentroids(assignment: Int32Array, cellCount: number, random: () => number): void {
    const dim = this.dim;
    const sums = new Float32Array(cellCount * dim);
    const counts = new Int32Array(cellCount);
    assignment.forEach((cell, row) => {
      counts[cell] = (counts[cell] ?? 0) + 1;
      for (let d = 0; d < dim; d++)
        sums[cell * dim + d] = (sums[cell * dim + d] ?? 0) + (this.data[row * dim + d] ?? 0);
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

function defaultProbes(cellCount: number): number {
  return Math.max(8, Math.ceil(cellCount / 10));
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
  let sum = 0;
  for (let d = 0; d < dim; d++) sum += (a[offset + d] ?? 0) * (b[d] ?? 0);
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
