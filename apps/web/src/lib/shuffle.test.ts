import { describe, expect, it } from 'vitest';
import { shuffle } from './shuffle.js';

describe('shuffle', () => {
  it('returns a permutation and leaves the input alone', () => {
    const input = Array.from({ length: 100 }, (_, i) => i);
    const result = shuffle(input);
    expect(result).not.toBe(input);
    expect([...result].sort((a, b) => a - b)).toEqual(input);
    expect(input[0]).toBe(0);
  });

  it('follows Fisher–Yates with the given random source', () => {
    // random() = 0 always swaps position i with position 0.
    expect(shuffle([1, 2, 3, 4], () => 0)).toEqual([2, 3, 4, 1]);
    // random() just below 1 always swaps i with itself: order kept.
    expect(shuffle([1, 2, 3, 4], () => 0.999)).toEqual([1, 2, 3, 4]);
  });

  it('handles empty and single lists', () => {
    expect(shuffle([])).toEqual([]);
    expect(shuffle(['a'])).toEqual(['a']);
  });
});
