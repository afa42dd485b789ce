/* eslint-disable @typescript-eslint/no-non-null-assertion -- DSP loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
import { meanOf, stdOf, type Values } from './frame-stats.js';

/*
 * Rhythm from an onset-strength envelope (the positive change of the log mel spectrum, one value per frame): its
 * autocorrelation shows the beat period as a peak, how high the peak stands is how clear the pulse is, and how many
 * sharp onsets there are per second tells busy rhythms from sparse ones.
 */

/** The slowest and fastest beats looked for (BPM). */
const SLOWEST_BPM = 40;
const FASTEST_BPM = 240;
/** Where the tempo prior peaks, and its spread in octaves: most music sits near 120 BPM (as librosa's estimator). */
const PRIOR_BPM = 120;
const PRIOR_OCTAVES = 1;
/**
 * The least variance (dB²) of an envelope that has a rhythm: a steady tone's envelope moves by hundredths of a dB, and
 * normalised alone its ripples would look like a perfect pulse. Added to lag 0 before normalising.
 */
const VARIANCE_FLOOR_DB2 = 0.25;
/** The least height (dB) of an onset above the envelope's mean, for the same reason. */
const MIN_ONSET_DB = 1;

export interface Rhythm {
  /** The beat, in BPM (0 when the envelope is flat: no beat found). */
  tempo: number;
  /** The autocorrelation's highest peak within the tempo range, as a share of its value at lag 0 (0–1). */
  pulseClarity: number;
  /** The autocorrelation at half and at twice the beat period: how strong the subdivisions and the bar are. */
  halfBeat: number;
  doubleBeat: number;
}

/**
 * The envelope without its mean, autocorrelated for lags 0 … maxLag, normalised by lag 0 plus `varianceFloor` (all 0
 * when flat).
 */
export function autocorrelation(envelope: Values, maxLag: number, varianceFloor = 0): Float64Array {
  const mean = meanOf(envelope);
  const n = envelope.length;
  const centred = new Float64Array(n);
  for (let i = 0; i < n; i++) centred[i] = envelope[i]! - mean;
  const acf = new Float64Array(maxLag + 1);
  for (let lag = 0; lag <= Math.min(maxLag, n - 1); lag++) {
    let sum = 0;
    for (let i = lag; i < n; i++) sum += centred[i]! * centred[i - lag]!;
    // Unbiased: later lags have fewer pairs.
    acf[lag] = sum / (n - lag);
  }
  const zero = acf[0]! + varianceFloor;
  if (zero <= 0) return new Float64Array(maxLag + 1);
  for (let lag = 0; lag <= maxLag; lag++) acf[lag] = acf[lag]! / zero;
  return acf;
}

function priorWeight(bpm: number): number {
  return Math.exp(-0.5 * (Math.log2(bpm / PRIOR_BPM) / PRIOR_OCTAVES) ** 2);
}

/** The lag, refined between frames by a parabola through the peak and its neighbours. */
function refinedLag(acf: Float64Array, lag: number): number {
  const [left, peak, right] = [acf[lag - 1] ?? 0, acf[lag]!, acf[lag + 1] ?? 0];
  const curve = left - 2 * peak + right;
  return curve < 0 ? lag + (0.5 * (left - right)) / curve : lag;
}

/** Linear interpolation of the autocorrelation at a fractional lag. */
function acfAt(acf: Float64Array, lag: number): number {
  const low = Math.floor(lag);
  if (low < 0 || low + 1 >= acf.length) return 0;
  return acf[low]! + (acf[low + 1]! - acf[low]!) * (lag - low);
}

/** Tempo, pulse clarity and the beat's neighbours from an envelope sampled `framesPerSecond` times a second. */
export function rhythmOf(envelope: Values, framesPerSecond: number): Rhythm {
  const shortestLag = Math.max(1, Math.floor((60 * framesPerSecond) / FASTEST_BPM));
  const longestLag = Math.ceil((60 * framesPerSecond) / SLOWEST_BPM);
  const acf = autocorrelation(envelope, longestLag * 2 + 1, VARIANCE_FLOOR_DB2);
  let best = -1;
  let bestScore = 0;
  let clarity = 0;
  for (let lag = shortestLag; lag <= longestLag; lag++) {
    const value = acf[lag]!;
    // Only peaks count: a slope running down from lag 0 is not a beat.
    if (value <= (acf[lag - 1] ?? 0) || value < (acf[lag + 1] ?? 0)) continue;
    clarity = Math.max(clarity, value);
    const score = value * priorWeight((60 * framesPerSecond) / lag);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  if (best < 0) return { tempo: 0, pulseClarity: 0, halfBeat: 0, doubleBeat: 0 };
  const lag = refinedLag(acf, best);
  return {
    tempo: (60 * framesPerSecond) / lag,
    pulseClarity: clarity,
    halfBeat: acfAt(acf, lag / 2),
    doubleBeat: acfAt(acf, lag * 2),
  };
}

/**
 * Sharp onsets per second: the envelope's local maxima above its mean plus one spread (at least MIN_ONSET_DB), at
 * least `minGapSeconds` apart (a drum hit is one onset, not three frames).
 */
export function onsetRate(envelope: Values, framesPerSecond: number, minGapSeconds = 0.05): number {
  const n = envelope.length;
  if (n < 3) return 0;
  const threshold = meanOf(envelope) + Math.max(MIN_ONSET_DB, stdOf(envelope));
  const minGap = Math.max(1, Math.round(minGapSeconds * framesPerSecond));
  let count = 0;
  let last = -minGap;
  for (let i = 1; i < n - 1; i++) {
    const value = envelope[i]!;
    if (value > threshold && value >= envelope[i - 1]! && value > envelope[i + 1]! && i - last >= minGap) {
      count += 1;
      last = i;
    }
  }
  return count / (n / framesPerSecond);
}
