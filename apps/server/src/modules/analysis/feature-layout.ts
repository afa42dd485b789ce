/* eslint-disable @typescript-eslint/no-non-null-assertion -- DSP loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
import type { Measures } from './audio-features.js';

/*
 * The one description of a song's feature vector (`song_features.vector`): which measures it holds, in which order,
 * and how two vectors are compared. Whatever reads the vectors (the radio) imports this, never a copy of it.
 *
 * - A stored vector is FEATURE_LENGTH little-endian float32 values in FEATURE_NAMES' order, written by analysis version
 *   FEATURE_VERSION (a row of another version is not comparable, and is analysed again). The values are raw measures
 *   (dB, log2 Hz, shares, log2 BPM…), NOT standardised: their scales differ.
 * - To compare: standardise each dimension over the library (featureStats over the vectors at hand), then
 *   `comparable(vector, stats)` answers a unit-length vector (z-scores times each feature's weight); the similarity of
 *   two songs is the dot product of their comparable vectors (cosine, 1 = alike, 0 = unrelated, −1 = opposite), so an
 *   index of comparable vectors answers nearest neighbours by inner product. `similarity(a, b, stats)` does it for one
 *   pair.
 * The measures and weights were chosen by measurement on the style corpus (bench:analysis-features, docs/radio.md).
 */

/** The version of the analysis (measures, layout, excerpt): bump it when any of them changes. */
export const FEATURE_VERSION = 1;

/** Seconds of audio analysed, from the middle of the song. */
export const ANALYSIS_EXCERPT_SECONDS = 60;

/** A dimension of the vector: the measure it holds and its weight in the comparison. */
export interface FeatureDimension {
  name: string;
  weight: number;
}

/** The weight of the rhythm measures (the others weigh 1). */
const RHYTHM = 1.5;

const mfccs = (suffix: string, weight: number): FeatureDimension[] =>
  Array.from({ length: 12 }, (_, i) => ({ name: `mfcc${i + 1}${suffix}`, weight }));

/** The vector's dimensions, in order. */
export const FEATURES: readonly FeatureDimension[] = [
  // Dynamics (not the level itself: that tells how a record was mastered more than how it sounds).
  { name: 'loudnessSpread', weight: 1 },
  { name: 'dynamicRange', weight: 1 },
  // Spectral shape.
  { name: 'zcr', weight: 1 },
  { name: 'zcrSpread', weight: 1 },
  { name: 'centroid', weight: 1 },
  { name: 'centroidSpread', weight: 1 },
  { name: 'spread', weight: 1 },
  { name: 'rolloff', weight: 1 },
  { name: 'rolloffSpread', weight: 1 },
  { name: 'flatness', weight: 1 },
  { name: 'flatnessSpread', weight: 1 },
  { name: 'flux', weight: 1 },
  { name: 'fluxSpread', weight: 1 },
  { name: 'bass', weight: 1 },
  { name: 'treble', weight: 1 },
  ...Array.from({ length: 7 }, (_, band) => ({ name: `contrast${band}`, weight: 1 })),
  // Timbre.
  ...mfccs('', 1),
  ...mfccs('Spread', 1),
  // Rhythm, weighed half as much again as the rest (measured: the worst style's share rises, docs/radio.md).
  ...['tempo', 'pulseClarity', 'halfBeat', 'doubleBeat', 'bassPulse', 'treblePulse'].map((name) => ({
    name,
    weight: RHYTHM,
  })),
  ...['onsetRate', 'bassOnsetRate', 'trebleOnsetRate'].map((name) => ({ name, weight: RHYTHM })),
  // Tonal (key-free).
  { name: 'keyClarity', weight: 1 },
  { name: 'mode', weight: 1 },
  { name: 'chromaEntropy', weight: 1 },
  { name: 'harmonicChange', weight: 1 },
];

export const FEATURE_NAMES: readonly string[] = FEATURES.map((feature) => feature.name);
export const FEATURE_LENGTH = FEATURES.length;
/** Each dimension's weight in a comparison (the radio's index weighs its z-scores by them too). */
export const FEATURE_WEIGHTS: readonly number[] = FEATURES.map((feature) => feature.weight);
const WEIGHTS = Float32Array.from(FEATURE_WEIGHTS);

/** The layout's measures out of all the candidates, in order (a missing one is 0). */
export function vectorOf(measures: Measures): Float32Array<ArrayBuffer> {
  return Float32Array.from(FEATURE_NAMES.map((name) => measures[name] ?? 0));
}

const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

/** The stored form (song_features.vector): little-endian float32 values, of any length (tests write short ones). */
export function encodeVector(vector: ArrayLike<number>): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i] ?? 0, i * 4);
  return bytes;
}

/** A stored vector back, whatever its length (the radio's index reads every stored vector). */
export function decodeStoredVector(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  // The stored order is the machine's own almost everywhere: then a copy of the bytes is the vector.
  if (LITTLE_ENDIAN) {
    const end = bytes.byteOffset + bytes.byteLength - (bytes.byteLength % 4);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, end) as ArrayBuffer);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: Math.floor(bytes.byteLength / 4) }, (_, i) => view.getFloat32(i * 4, true));
}

/** A stored vector of this layout back; null when its length is not this version's (written by another layout). */
export function decodeVector(bytes: Uint8Array): Float32Array | null {
  return bytes.length === FEATURE_LENGTH * 4 ? decodeStoredVector(bytes) : null;
}

/** Each dimension's mean and standard deviation over a library's vectors. */
export interface FeatureStats {
  mean: Float32Array;
  std: Float32Array;
}

export function featureStats(vectors: Iterable<Float32Array>): FeatureStats {
  const sum = new Float64Array(FEATURE_LENGTH);
  const squares = new Float64Array(FEATURE_LENGTH);
  let count = 0;
  for (const vector of vectors) {
    for (let d = 0; d < FEATURE_LENGTH; d++) {
      sum[d] = sum[d]! + vector[d]!;
      squares[d] = squares[d]! + vector[d]! * vector[d]!;
    }
    count += 1;
  }
  const mean = new Float32Array(FEATURE_LENGTH);
  const std = new Float32Array(FEATURE_LENGTH);
  for (let d = 0; d < FEATURE_LENGTH; d++) {
    mean[d] = count === 0 ? 0 : sum[d]! / count;
    const variance = count === 0 ? 0 : squares[d]! / count - mean[d]! * mean[d]!;
    // A dimension equal across the library tells songs apart by nothing: 1 keeps it at 0 instead of dividing by 0.
    std[d] = variance > 1e-12 ? Math.sqrt(variance) : 1;
  }
  return { mean, std };
}

/** The vector standardised (z-scores), weighted, and scaled to unit length (zero stays zero). */
export function comparable(vector: Float32Array, stats: FeatureStats): Float32Array {
  const out = new Float32Array(FEATURE_LENGTH);
  let norm = 0;
  for (let d = 0; d < FEATURE_LENGTH; d++) {
    out[d] = ((vector[d]! - stats.mean[d]!) / stats.std[d]!) * WEIGHTS[d]!;
    norm += out[d]! * out[d]!;
  }
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let d = 0; d < FEATURE_LENGTH; d++) out[d] = out[d]! * scale;
  return out;
}

/** How alike two songs sound, −1 to 1: the cosine of their comparable vectors. */
export function similarity(a: Float32Array, b: Float32Array, stats: FeatureStats): number {
  const x = comparable(a, stats);
  const y = comparable(b, stats);
  let dot = 0;
  for (let d = 0; d < FEATURE_LENGTH; d++) dot += x[d]! * y[d]!;
  return dot;
}
