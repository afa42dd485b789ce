import { describe, expect, it } from 'vitest';
import { makeSong } from '../../test/fixtures.js';
import { crossfadeBetween, equalPowerGains, isAlbumContinuation } from './transitions.js';

const track = (albumId: number | null, trackNumber: number | null, discNumber: number | null = 1) =>
  makeSong(trackNumber ?? 0, { albumId, trackNumber, discNumber });

describe('album order', () => {
  it('is the next track of the same album, or the first of its next disc', () => {
    expect(isAlbumContinuation(track(1, 4), track(1, 5))).toBe(true);
    expect(isAlbumContinuation(track(1, 12, 1), track(1, 1, 2))).toBe(true);
    expect(isAlbumContinuation(track(1, 4, null), track(1, 5, null))).toBe(true);
  });

  it('is not a skip, a step back, another album or an unnumbered track', () => {
    expect(isAlbumContinuation(track(1, 4), track(1, 6))).toBe(false);
    expect(isAlbumContinuation(track(1, 5), track(1, 4))).toBe(false);
    expect(isAlbumContinuation(track(1, 4), track(2, 5))).toBe(false);
    expect(isAlbumContinuation(track(null, 4), track(null, 5))).toBe(false);
    expect(isAlbumContinuation(track(1, null), track(1, 1))).toBe(false);
    expect(isAlbumContinuation(track(1, 3, 1), track(1, 2, 2))).toBe(false);
  });
});

describe('the crossfade between two songs', () => {
  it('is the setting, except between consecutive album tracks (gapless) or when off', () => {
    expect(crossfadeBetween(track(1, 4), track(2, 1), 6)).toBe(6);
    expect(crossfadeBetween(track(1, 4), track(1, 5), 6)).toBe(0);
    expect(crossfadeBetween(track(1, 4), track(2, 1), 0)).toBe(0);
  });

  it('follows equal-power curves: cos out, sin in, their squares summing to one', () => {
    expect(equalPowerGains(0)).toEqual({ out: 1, in: 0 });
    const middle = equalPowerGains(0.5);
    expect(middle.out).toBeCloseTo(Math.SQRT1_2, 10);
    expect(middle.in).toBeCloseTo(Math.SQRT1_2, 10);
    for (const progress of [0.1, 0.33, 0.8]) {
      const { out, in: incoming } = equalPowerGains(progress);
      expect(out ** 2 + incoming ** 2).toBeCloseTo(1, 10);
    }
    expect(equalPowerGains(1).out).toBeCloseTo(0, 10);
    expect(equalPowerGains(2)).toEqual(equalPowerGains(1));
  });
});
