import { describe, expect, it } from 'vitest';
import { autocorrelation, onsetRate, rhythmOf } from './rhythm.js';
import {
  comparable,
  decodeStoredVector,
  decodeVector,
  encodeVector,
  FEATURE_LENGTH,
  FEATURE_NAMES,
  featureStats,
  similarity,
  vectorOf,
} from './feature-layout.js';

const vector = (seed: number) => Float32Array.from({ length: FEATURE_LENGTH }, (_, d) => Math.sin(seed * 7.1 + d));

describe('the feature layout', () => {
  it('names each dimension once', () => {
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_LENGTH);
  });

  it('stores a vector as little-endian float32 and reads it back; another length is not this layout', () => {
    const original = vector(1);
    const bytes = encodeVector(original);
    expect(bytes.length).toBe(FEATURE_LENGTH * 4);
    expect(bytes.readFloatLE(4)).toBe(original[1]);
    expect(decodeVector(bytes)).toEqual(original);
    expect(decodeVector(bytes.subarray(4))).toBeNull();
  });

  it('reads a stored vector of any length back, from any offset of its buffer', () => {
    const bytes = encodeVector([1.5, -2, 3.25]);
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0, 0, 0xc0, 0x3f]);
    expect(Array.from(decodeStoredVector(bytes))).toEqual([1.5, -2, 3.25]);
    const padded = Buffer.concat([Buffer.from([9]), bytes]).subarray(1);
    expect(Array.from(decodeStoredVector(padded))).toEqual([1.5, -2, 3.25]);
  });

  it('takes the named measures in order, a missing one as 0', () => {
    const measures = Object.fromEntries(
      FEATURE_NAMES.filter((_, i) => i !== 2).map((name) => [name, FEATURE_NAMES.indexOf(name) + 0.5]),
    );
    const taken = vectorOf({ ...measures, notInTheLayout: 99 });
    expect(taken[0]).toBe(0.5);
    expect(taken[2]).toBe(0);
    expect(taken.length).toBe(FEATURE_LENGTH);
  });

  it('compares standardised vectors by cosine: a song is most like itself, unit length, symmetric', () => {
    const library = [1, 2, 3, 4, 5].map(vector);
    const stats = featureStats(library);
    const [a, b] = [library[0] ?? vector(0), library[1] ?? vector(0)];
    expect(similarity(a, a, stats)).toBeCloseTo(1, 5);
    expect(similarity(a, b, stats)).toBeCloseTo(similarity(b, a, stats), 6);
    expect(similarity(a, b, stats)).toBeLessThan(1);
    const unit = comparable(a, stats).reduce((sum, x) => sum + x * x, 0);
    expect(unit).toBeCloseTo(1, 5);
  });

  it('leaves a dimension equal across the library at 0 instead of dividing by 0', () => {
    const flat = [vector(1), vector(1)];
    const stats = featureStats(flat);
    expect(Array.from(stats.std).every((std) => std === 1)).toBe(true);
    expect(Array.from(comparable(vector(1), stats)).every((x) => x === 0)).toBe(true);
  });
});

describe('rhythm from an onset envelope', () => {
  /** An envelope of pulses every `period` frames (plus a little steady ripple). */
  const pulses = (frames: number, period: number) =>
    Float64Array.from({ length: frames }, (_, i) => (i % period === 0 ? 10 : 0) + 0.01 * Math.sin(i));

  it('finds the period as the tempo: at 40 frames a second, a pulse every 26.7 frames is 90 BPM', () => {
    const beats = new Set(Array.from({ length: 60 }, (_, n) => Math.round((n * 40 * 60) / 90)));
    const rhythm = rhythmOf(
      Float64Array.from({ length: 1600 }, (_, i) => (beats.has(i) ? 10 : 0)),
      40,
    );
    expect(Math.abs(rhythm.tempo - 90)).toBeLessThan(2);
    expect(rhythm.pulseClarity).toBeGreaterThan(0.5);
  });

  it('prefers the tempo nearer 120 BPM between a beat and its double', () => {
    expect(Math.round(rhythmOf(pulses(2000, 20), 40).tempo)).toBe(120);
  });

  it('finds no pulse in a flat envelope', () => {
    expect(autocorrelation(new Float64Array(100).fill(3), 10).every((x) => x === 0)).toBe(true);
    expect(rhythmOf(new Float64Array(500).fill(1), 43)).toEqual({
      tempo: 0,
      pulseClarity: 0,
      halfBeat: 0,
      doubleBeat: 0,
    });
  });

  it('counts onsets a second, one per pulse', () => {
    expect(onsetRate(pulses(4000, 40), 40)).toBeCloseTo(1, 1);
    expect(onsetRate(new Float64Array(100), 40)).toBe(0);
  });
});
