import { describe, expect, it } from 'vitest';
import { loudnessFactor } from './loudness.js';

describe('loudnessFactor', () => {
  it('turns a loud track down by its ReplayGain, and leaves untagged and quiet tracks at the chosen volume', () => {
    expect(loudnessFactor({ replayGainDb: -6.02, replayGainPeak: 0.98 })).toBeCloseTo(0.5, 2);
    expect(loudnessFactor({ replayGainDb: null, replayGainPeak: null })).toBe(1);
    expect(loudnessFactor(undefined)).toBe(1);
    expect(loudnessFactor({ replayGainDb: 4, replayGainPeak: 0.5 })).toBe(1);
  });

  it('never lets the peak clip', () => {
    expect(loudnessFactor({ replayGainDb: 3, replayGainPeak: 1.25 })).toBeCloseTo(0.8, 5);
  });
});
