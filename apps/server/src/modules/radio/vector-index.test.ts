import { describe, expect, it } from 'vitest';
import { seededRandom, VectorIndex, type RawVector } from './vector-index.js';

/** Random vectors around `styles` random centres, on unrelated scales per dimension (like raw audio features). */
function styledVectors(count: number, dim: number, styles: number, seed: number): RawVector[] {
  const random = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const scales = Array.from({ length: dim }, (_, d) => 10 ** (d % 4));
  const centres = Array.from({ length: styles }, () => Array.from({ length: dim }, () => gauss() * 2));
  return Array.from({ length: count }, (_, i) => {
    const centre = centres[i % styles] ?? [];
    return { songId: i + 1, values: Float32Array.from(centre, (c, d) => (c + gauss()) * (scales[d] ?? 1) + 5) };
  });
}

function recallAt(index: VectorIndex, queries: number[], k: number): number {
  let found = 0;
  for (const songId of queries) {
    const query = index.vectorOf(songId) ?? new Float32Array(index.dim);
    const exact = new Set(index.exactNearest(query, k).map((n) => n.songId));
    found += index.nearest(query, k).filter((n) => exact.has(n.songId)).length;
  }
  return found / (queries.length * k);
}

describe('the radio’s vector index', () => {
  it('finds at least 90 % of the exact 50 nearest songs on random styled data', () => {
    const index = VectorIndex.build(styledVectors(20_000, 24, 12, 7));
    const queries = Array.from({ length: 40 }, (_, i) => 1 + i * 487);
    expect(recallAt(index, queries, 50)).toBeGreaterThanOrEqual(0.9);
  });

  it('finds at least 90 % of the exact 50 nearest on uniform random data too', () => {
    const random = seededRandom(3);
    const vectors = Array.from({ length: 5000 }, (_, i) => ({
      songId: i + 1,
      values: Float32Array.from({ length: 16 }, () => random()),
    }));
    const index = VectorIndex.build(vectors, { probes: 24 });
    expect(recallAt(index, [1, 500, 1000, 2500, 4999], 50)).toBeGreaterThanOrEqual(0.9);
  });

  it('builds the same index in slices, letting the event loop turn between them', async () => {
    const vectors = styledVectors(6000, 24, 8, 13);
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const sliced = await VectorIndex.buildInSlices(vectors);
    clearInterval(ticking);
    const whole = VectorIndex.build(vectors);
    for (const songId of [1, 777, 5999]) {
      const query = whole.vectorOf(songId) ?? new Float32Array(whole.dim);
      expect(sliced.nearest(query, 20)).toEqual(whole.nearest(query, 20));
    }
    expect(turns).toBeGreaterThan(0);
  });

  it('is exact when every cell is probed, and its answers are sorted and skip what is asked', () => {
    const index = VectorIndex.build(styledVectors(900, 8, 5, 11), { probes: 1000 });
    const query = index.vectorOf(10) ?? new Float32Array(index.dim);
    expect(index.nearest(query, 30)).toEqual(index.exactNearest(query, 30));
    const skipped = index.nearest(query, 30, (id) => id % 2 === 0);
    expect(skipped.every((n) => n.songId % 2 === 1)).toBe(true);
    expect(skipped.map((n) => n.similarity)).toEqual([...skipped.map((n) => n.similarity)].sort((a, b) => b - a));
    expect(index.nearest(query, 1)[0]?.songId).toBe(10);
  });

  it('z-scores each dimension: a dimension on a huge scale does not drown the others', () => {
    // Songs 1 and 2 differ only in the big dimension by one of its standard deviations; 1 and 3 differ in the small
    // one by ten of its standard deviations. Unscaled, 3 would look nearer to 1.
    const random = seededRandom(5);
    const filler = Array.from({ length: 200 }, (_, i) => ({
      songId: 100 + i,
      values: Float32Array.of(random() * 1000, random(), random()),
    }));
    const index = VectorIndex.build([
      { songId: 1, values: Float32Array.of(500, 0.5, 0.9) },
      { songId: 2, values: Float32Array.of(800, 0.5, 0.9) },
      { songId: 3, values: Float32Array.of(500, 0.5, -2) },
      ...filler,
    ]);
    const near = index.exactNearest(index.vectorOf(1) ?? new Float32Array(3), 203).map((n) => n.songId);
    expect(near.indexOf(2)).toBeLessThan(near.indexOf(3));
  });

  it('reads the vector length from the data and leaves out vectors of another length or with NaN', () => {
    const index = VectorIndex.build([
      { songId: 1, values: Float32Array.of(1, 2, 3) },
      { songId: 2, values: Float32Array.of(3, 2, 1) },
      { songId: 3, values: Float32Array.of(1, 2) },
      { songId: 4, values: Float32Array.of(1, Number.NaN, 3) },
    ]);
    expect(index.dim).toBe(3);
    expect([1, 2, 3, 4].map((id) => index.has(id))).toEqual([true, true, false, false]);
  });

  it('builds an empty index from no vectors and answers nothing', () => {
    const index = VectorIndex.build([]);
    expect(index.size).toBe(0);
    expect(index.centroidOf([1, 2])).toBeUndefined();
  });
});
