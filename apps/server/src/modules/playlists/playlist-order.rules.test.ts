import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPermutationOf, unknownIds } from './playlist-order.rules.js';

describe('isPermutationOf', () => {
  it('accepts the same songs in another order, and the empty list for an empty playlist', () => {
    expect(isPermutationOf([1, 2, 3], [3, 1, 2])).toBe(true);
    expect(isPermutationOf([], [])).toBe(true);
  });

  it('refuses a missing, extra, duplicated or foreign song', () => {
    expect(isPermutationOf([1, 2, 3], [1, 2])).toBe(false);
    expect(isPermutationOf([1, 2, 3], [1, 2, 3, 4])).toBe(false);
    expect(isPermutationOf([1, 2, 3], [1, 2, 2])).toBe(false);
    expect(isPermutationOf([1, 2, 3], [1, 2, 4])).toBe(false);
  });

  it('holds for every shuffle of a list of distinct ids and fails once one id is replaced', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 50 }),
        fc.nat(),
        (ids, seed) => {
          const shuffled = [...ids].sort((a, b) => ((a * 31 + seed) % 97) - ((b * 31 + seed) % 97));
          expect(isPermutationOf(ids, shuffled)).toBe(true);
          const replaced = [...shuffled];
          replaced[seed % replaced.length] = 10_001;
          expect(isPermutationOf(ids, replaced)).toBe(false);
        },
      ),
    );
  });
});

describe('unknownIds', () => {
  it('lists each id missing from the catalogue once, in request order', () => {
    expect(unknownIds([5, 1, 9, 5, 2], new Set([1, 2]))).toEqual([5, 9]);
    expect(unknownIds([1, 2], new Set([1, 2]))).toEqual([]);
  });
});
