/* eslint-disable @typescript-eslint/no-non-null-assertion -- DSP loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
/*
 * The spectral building blocks of the audio analysis (audio-features.ts): a radix-2 FFT of real frames, the Hann
 * window, a mel filterbank and the DCT that turns log mel energies into MFCCs. Plain typed-array code, no allocation
 * per frame: the analysis runs thousands of frames per song on a worker thread.
 */

/** A Hann window of `size` points (periodic: the form the FFT frames overlap with). */
export function hannWindow(size: number): Float32Array {
  const window = new Float32Array(size);
  for (let n = 0; n < size; n++) window[n] = 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / size);
  return window;
}

/**
 * Power spectra of real frames of one size (a power of two): `power(frame, out)` writes |X[k]|² for k = 0 … size/2.
 * The real frame is packed into a complex one of half the size (even samples real, odd imaginary), transformed by an
 * iterative radix-2 FFT and unpacked: half the work of a complex FFT of the whole frame. Twiddles and the bit
 * reversal are computed once per size.
 */
export class PowerSpectrum {
  readonly bins: number;
  private readonly half: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  /** Twiddles of the half-size FFT, e^(−2πik/half). */
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  /** Twiddles of the unpacking, e^(−2πik/size). */
  private readonly unpackCos: Float64Array;
  private readonly unpackSin: Float64Array;
  private readonly reversed: Uint32Array;

  constructor(readonly size: number) {
    if (size < 4 || (size & (size - 1)) !== 0) throw new Error(`FFT size ${size} is not a power of two`);
    const half = size / 2;
    this.half = half;
    this.bins = half + 1;
    this.re = new Float64Array(half);
    this.im = new Float64Array(half);
    this.cos = new Float64Array(half / 2);
    this.sin = new Float64Array(half / 2);
    for (let k = 0; k < half / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / half);
      this.sin[k] = -Math.sin((2 * Math.PI * k) / half);
    }
    this.unpackCos = new Float64Array(half + 1);
    this.unpackSin = new Float64Array(half + 1);
    for (let k = 0; k <= half; k++) {
      this.unpackCos[k] = Math.cos((2 * Math.PI * k) / size);
      this.unpackSin[k] = -Math.sin((2 * Math.PI * k) / size);
    }
    const bits = Math.log2(half);
    this.reversed = new Uint32Array(half);
    for (let i = 0; i < half; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reversed[i] = r;
    }
  }

  /** `frame` (already windowed, `size` samples) → `out[k]` = |X[k]|², k = 0 … size/2. */
  power(frame: Float32Array, out: Float32Array): void {
    const { half, re, im, reversed } = this;
    for (let i = 0; i < half; i++) {
      const at = reversed[i]!;
      re[at] = frame[2 * i]!;
      im[at] = frame[2 * i + 1]!;
    }
    this.transform();
    const { unpackCos, unpackSin } = this;
    for (let k = 0; k <= half; k++) {
      const a = k % half;
      const b = (half - k) % half;
      // Z[k] and conj(Z[half − k]) give the even samples' and the odd samples' spectra at k.
      const evenRe = 0.5 * (re[a]! + re[b]!);
      const evenIm = 0.5 * (im[a]! - im[b]!);
      const oddRe = 0.5 * (im[a]! + im[b]!);
      const oddIm = -0.5 * (re[a]! - re[b]!);
      const c = unpackCos[k]!;
      const s = unpackSin[k]!;
      const xRe = evenRe + oddRe * c - oddIm * s;
      const xIm = evenIm + oddRe * s + oddIm * c;
      out[k] = xRe * xRe + xIm * xIm;
    }
  }

  /** The in-place complex FFT of `re` + i·`im` (already in bit-reversed order). */
  private transform(): void {
    const { half, re, im, cos, sin } = this;
    for (let width = 1; width < half; width *= 2) {
      const step = half / (2 * width);
      for (let start = 0; start < half; start += 2 * width) {
        for (let k = 0; k < width; k++) {
          const c = cos[k * step]!;
          const s = sin[k * step]!;
          const a = start + k;
          const b = a + width;
          const tr = re[b]! * c - im[b]! * s;
          const ti = re[b]! * s + im[b]! * c;
          re[b] = re[a]! - tr;
          im[b] = im[a]! - ti;
          re[a] = re[a]! + tr;
          im[a] = im[a]! + ti;
        }
      }
    }
  }
}

const hzToMel = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const melToHz = (mel: number): number => 700 * (10 ** (mel / 2595) - 1);

/** One triangular mel band: the FFT bins it covers from `first`, with their weights. */
export interface MelBand {
  first: number;
  weights: Float32Array;
}

/**
 * `bands` triangular filters evenly spaced on the mel scale from `lowHz` to `highHz`, over the bins of an FFT of
 * `fftSize` at `sampleRate`; each filter's weights sum to 1 (so a band's energy does not grow with its width).
 */
export function melBands(bands: number, fftSize: number, sampleRate: number, lowHz: number, highHz: number): MelBand[] {
  const binHz = sampleRate / fftSize;
  const low = hzToMel(lowHz);
  const high = hzToMel(highHz);
  const edges = Array.from({ length: bands + 2 }, (_, i) => melToHz(low + ((high - low) * i) / (bands + 1)));
  const result: MelBand[] = [];
  for (let b = 0; b < bands; b++) {
    const [left, centre, right] = [edges[b]!, edges[b + 1]!, edges[b + 2]!];
    const first = Math.max(0, Math.ceil(left / binHz));
    const last = Math.min(fftSize / 2, Math.floor(right / binHz));
    const weights = new Float32Array(Math.max(1, last - first + 1));
    let sum = 0;
    for (let k = first; k <= last; k++) {
      const hz = k * binHz;
      const weight = hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre);
      weights[k - first] = Math.max(0, weight);
      sum += weights[k - first]!;
    }
    // A band narrower than a bin still takes the bin nearest its centre.
    if (sum === 0) {
      weights[0] = 1;
      result.push({ first: Math.min(fftSize / 2, Math.round(centre / binHz)), weights });
      continue;
    }
    for (let i = 0; i < weights.length; i++) weights[i] = weights[i]! / sum;
    result.push({ first, weights });
  }
  return result;
}

/** Each band's energy: the weighted sum of the power spectrum over its bins. */
export function applyBands(bands: readonly MelBand[], power: Float32Array, out: Float32Array): void {
  for (let b = 0; b < bands.length; b++) {
    const { first, weights } = bands[b]!;
    let sum = 0;
    for (let i = 0; i < weights.length; i++) sum += weights[i]! * power[first + i]!;
    out[b] = sum;
  }
}

/** The DCT-II basis (orthonormal) of `inputs` points, first `outputs` coefficients: `basis[c * inputs + n]`. */
export function dctBasis(inputs: number, outputs: number): Float32Array {
  const basis = new Float32Array(inputs * outputs);
  for (let c = 0; c < outputs; c++) {
    const scale = c === 0 ? Math.sqrt(1 / inputs) : Math.sqrt(2 / inputs);
    for (let n = 0; n < inputs; n++) basis[c * inputs + n] = scale * Math.cos((Math.PI * c * (n + 0.5)) / inputs);
  }
  return basis;
}
