/* eslint-disable @typescript-eslint/no-non-null-assertion -- DSP loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
/*
 * Tonal measures from a chroma profile (the energy of each of the 12 pitch classes). The profile itself depends on the
 * key, which says nothing about a song's style, so only key-free numbers leave this file: how clearly the profile
 * fits a key (Krumhansl–Kessler's major and minor profiles, at the best of 12 rotations), major against minor, and how
 * spread the profile is.
 */

/** Krumhansl–Kessler key profiles, from C. */
const MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

/** Lowest and highest frequencies given a pitch class (below, a bin spans several semitones). */
const CHROMA_LOW_HZ = 65;
const CHROMA_HIGH_HZ = 4200;

/** For each FFT bin, its pitch class (0 = C), or -1 outside the chroma range. */
export function chromaMap(fftSize: number, sampleRate: number): Int8Array {
  const map = new Int8Array(fftSize / 2 + 1).fill(-1);
  for (let k = 1; k < map.length; k++) {
    const hz = (k * sampleRate) / fftSize;
    if (hz < CHROMA_LOW_HZ || hz > CHROMA_HIGH_HZ) continue;
    const midi = 69 + 12 * Math.log2(hz / 440);
    map[k] = ((Math.round(midi) % 12) + 12) % 12;
  }
  return map;
}

/** Adds a frame's magnitudes (the square roots of its power spectrum) to `chroma` by pitch class. */
export function addChroma(map: Int8Array, power: Float32Array, chroma: Float64Array): void {
  for (let k = 0; k < map.length; k++) {
    const pitch = map[k]!;
    if (pitch >= 0) chroma[pitch] = chroma[pitch]! + Math.sqrt(power[k]!);
  }
}

function pearson(a: readonly number[] | Float64Array, b: readonly number[], rotation: number): number {
  const n = 12;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < n; i++) {
    meanA += a[i]!;
    meanB += b[i]!;
  }
  meanA /= n;
  meanB /= n;
  let cov = 0;
  let varA = 0;
  let varB = 0;
  for (let i = 0; i < n; i++) {
    const x = a[(i + rotation) % n]! - meanA;
    const y = b[i]! - meanB;
    cov += x * y;
    varA += x * x;
    varB += y * y;
  }
  return varA > 0 && varB > 0 ? cov / Math.sqrt(varA * varB) : 0;
}

export interface Tonality {
  /** The best correlation with a major or minor key profile (−1–1; 0 for a flat profile). */
  keyClarity: number;
  /** The best major key's correlation minus the best minor key's. */
  mode: number;
  /** The profile's entropy over the 12 classes, 0 (one class) to 1 (all equal). */
  entropy: number;
}

export function tonalityOf(chroma: Float64Array): Tonality {
  let major = -1;
  let minor = -1;
  for (let rotation = 0; rotation < 12; rotation++) {
    major = Math.max(major, pearson(chroma, MAJOR, rotation));
    minor = Math.max(minor, pearson(chroma, MINOR, rotation));
  }
  let total = 0;
  for (const value of chroma) total += value;
  let entropy = 0;
  if (total > 0) {
    for (const value of chroma) {
      const p = value / total;
      if (p > 0) entropy -= p * Math.log(p);
    }
    entropy /= Math.log(12);
  } else entropy = 1;
  return { keyClarity: Math.max(major, minor), mode: major - minor, entropy };
}

/** 1 − the cosine of two chroma frames: how much the harmony moved between them (0 when either is silent). */
export function chromaChange(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < 12; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? 1 - dot / Math.sqrt(na * nb) : 0;
}
