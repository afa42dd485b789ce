/* eslint-disable @typescript-eslint/no-non-null-assertion -- DSP loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
/*
 * Running statistics of per-frame values (mean, spread, percentiles), kept in plain arrays: the analysis pushes one
 * value per frame and reads a few numbers at the end.
 */

/** Values of one per-frame measure over a song. */
export class Series {
  private values: number[] = [];

  push(value: number): void {
    if (Number.isFinite(value)) this.values.push(value);
  }

  get length(): number {
    return this.values.length;
  }

  mean(): number {
    return meanOf(this.values);
  }

  std(): number {
    return stdOf(this.values);
  }

  /** The value below which `q` (0–1) of them lie (nearest rank); 0 when empty. */
  quantile(q: number): number {
    if (this.values.length === 0) return 0;
    const sorted = Float64Array.from(this.values).sort();
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  }

  /** The share of values below `threshold`. */
  shareBelow(threshold: number): number {
    if (this.values.length === 0) return 0;
    let below = 0;
    for (const value of this.values) if (value < threshold) below += 1;
    return below / this.values.length;
  }

  toArray(): Float64Array {
    return Float64Array.from(this.values);
  }
}

/** Numbers in a row: a plain or a typed array. */
export type Values = readonly number[] | Float64Array | Float32Array;

export function meanOf(values: Values): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function stdOf(values: Values): number {
  if (values.length < 2) return 0;
  const mean = meanOf(values);
  let sum = 0;
  for (const value of values) sum += (value - mean) ** 2;
  return Math.sqrt(sum / values.length);
}
