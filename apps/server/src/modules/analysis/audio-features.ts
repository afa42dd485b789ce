/* eslint-disable @typescript-eslint/no-non-null-assertion -- DSP loops over typed arrays: every index is bounded by its loop, and `?? 0` in each inner loop would hide a real bug as a silent zero */
import { Series } from './frame-stats.js';
import { onsetRate, rhythmOf } from './rhythm.js';
import { applyBands, dctBasis, hannWindow, melBands, PowerSpectrum } from './spectrum.js';
import { addChroma, chromaChange, chromaMap, tonalityOf } from './tonal.js';

/*
 * A song's audio measured: mono float PCM in, named numbers out. Frames of 2048 samples (93 ms at 22 050 Hz) every 512
 * (23 ms): loudness and its spread, spectral shape (centroid, spread, roll-off, flatness, flux, zero crossings, the
 * energy below 150 Hz and above 4 kHz, octave-band contrast), timbre (MFCC 1–12 means and spreads from 40 mel bands),
 * rhythm (tempo, pulse clarity, onsets per second, in the whole spectrum and in the bass and treble bands) and key-free
 * tonal measures. Every candidate is computed and named here; feature-layout.ts picks the ones the vector keeps (chosen
 * by measurement on the style corpus, docs/radio.md). Deterministic: the same samples give the same numbers.
 */

/** The sample rate the analysis expects (decode-pcm.ts asks ffmpeg for it). */
export const ANALYSIS_SAMPLE_RATE = 22_050;

const FFT_SIZE = 2048;
const HOP = 512;
const MEL_BANDS = 40;
const MFCCS = 13;
/** Contrast bands (Hz): octaves from 200 Hz, the first below it. */
const CONTRAST_EDGES = [0, 200, 400, 800, 1600, 3200, 6400, 11_025];
/** Share of a band's bins taken as its peak and its valley. */
const CONTRAST_SHARE = 0.2;
/** A frame quieter than this (dBFS) is silence: it counts for loudness only. */
const SILENCE_DB = -60;
/** Mel bands that make the bass and the treble onset envelopes (kick drums, hi-hats). */
const BASS_BANDS = 5;
const TREBLE_FROM_BAND = 30;
/** Frames of chroma summed before the harmony's movement is measured (about half a second). */
const CHROMA_BLOCK = 22;

/** Thrown when there is nothing to measure (no samples, or digital silence throughout). */
export class NoAudio extends Error {
  constructor() {
    super('No audio to analyse');
    this.name = 'NoAudio';
  }
}

/** Every candidate measure, by name. */
export type Measures = Record<string, number>;

/** The reusable state of the frame loop for one frame size: window, FFT, filterbank, DCT, chroma map. */
class Analyser {
  readonly window = hannWindow(FFT_SIZE);
  readonly fft = new PowerSpectrum(FFT_SIZE);
  readonly mel = melBands(MEL_BANDS, FFT_SIZE, ANALYSIS_SAMPLE_RATE, 30, ANALYSIS_SAMPLE_RATE / 2);
  readonly dct = dctBasis(MEL_BANDS, MFCCS);
  readonly chroma = chromaMap(FFT_SIZE, ANALYSIS_SAMPLE_RATE);
  readonly binHz = ANALYSIS_SAMPLE_RATE / FFT_SIZE;
  readonly contrastBins = CONTRAST_EDGES.slice(0, -1).map((low, i) => [
    Math.max(1, Math.round(low / this.binHz)),
    Math.min(FFT_SIZE / 2, Math.round(CONTRAST_EDGES[i + 1]! / this.binHz)),
  ]);
}

let shared: Analyser | null = null;

/** Per-frame series and accumulators of one song. */
class SongFrames {
  readonly rmsDb = new Series();
  readonly zcr = new Series();
  readonly centroid = new Series();
  readonly spread = new Series();
  readonly rolloff = new Series();
  readonly flatness = new Series();
  readonly flux = new Series();
  readonly bassShare = new Series();
  readonly trebleShare = new Series();
  readonly mfcc = Array.from({ length: MFCCS }, () => new Series());
  readonly contrast = CONTRAST_EDGES.slice(0, -1).map(() => new Series());
  readonly onset: number[] = [];
  readonly bassOnset: number[] = [];
  readonly trebleOnset: number[] = [];
  readonly chroma = new Float64Array(12);
  readonly harmonicChange = new Series();
}

function zeroCrossings(frame: Float32Array): number {
  let count = 0;
  for (let i = 1; i < frame.length; i++) if (frame[i - 1]! >= 0 !== frame[i]! >= 0) count += 1;
  return count / frame.length;
}

/** Spectral centroid, spread, 85 % roll-off (Hz) and flatness (dB) of a power spectrum. */
function spectralShape(power: Float32Array, binHz: number): [number, number, number, number, number] {
  let total = 0;
  let weighted = 0;
  let logSum = 0;
  for (let k = 1; k < power.length; k++) {
    total += power[k]!;
    weighted += k * binHz * power[k]!;
    logSum += Math.log(power[k]! + 1e-12);
  }
  const centroid = weighted / total;
  let spread = 0;
  let rolloff = 0;
  let running = 0;
  for (let k = 1; k < power.length; k++) {
    spread += (k * binHz - centroid) ** 2 * power[k]!;
    running += power[k]!;
    if (rolloff === 0 && running >= 0.85 * total) rolloff = k * binHz;
  }
  const bins = power.length - 1;
  const flatness = Math.exp(logSum / bins) / (total / bins + 1e-12);
  return [centroid, Math.sqrt(spread / total), rolloff, 10 * Math.log10(flatness + 1e-12), total];
}

/** Each octave band's peak minus valley of log power (dB), from the top and bottom fifth of its bins. */
function addContrast(a: Analyser, power: Float32Array, frames: SongFrames, scratch: Float32Array): void {
  a.contrastBins.forEach(([low, high], band) => {
    const count = high! - low!;
    const values = scratch.subarray(0, count);
    for (let i = 0; i < count; i++) values[i] = 10 * Math.log10(power[low! + i]! + 1e-12);
    values.sort();
    const take = Math.max(1, Math.round(count * CONTRAST_SHARE));
    let peak = 0;
    let valley = 0;
    for (let i = 0; i < take; i++) {
      valley += values[i]!;
      peak += values[count - 1 - i]!;
    }
    frames.contrast[band]!.push((peak - valley) / take);
  });
}

function bandFlux(now: Float32Array, before: Float32Array, from: number, to: number): number {
  let sum = 0;
  for (let b = from; b < to; b++) sum += Math.max(0, now[b]! - before[b]!);
  return sum / (to - from);
}

/** Runs the frame loop over `pcm`, filling `frames`. */
function measureFrames(a: Analyser, pcm: Float32Array, frames: SongFrames): void {
  const frame = new Float32Array(FFT_SIZE);
  const power = new Float32Array(a.fft.bins);
  const bands = new Float32Array(MEL_BANDS);
  let logMel = new Float32Array(MEL_BANDS);
  let previous = new Float32Array(MEL_BANDS);
  let first = true;
  const scratch = new Float32Array(FFT_SIZE / 2 + 1);
  const block = new Float64Array(12);
  let lastBlock: Float64Array | null = null;
  let inBlock = 0;
  const bassLimit = Math.round(150 / a.binHz);
  const trebleFrom = Math.round(4000 / a.binHz);
  for (let start = 0, index = 0; start + FFT_SIZE <= pcm.length; start += HOP, index++) {
    const raw = pcm.subarray(start, start + FFT_SIZE);
    let energy = 0;
    for (let i = 0; i < FFT_SIZE; i++) {
      energy += raw[i]! * raw[i]!;
      frame[i] = raw[i]! * a.window[i]!;
    }
    const db = 10 * Math.log10(energy / FFT_SIZE + 1e-12);
    frames.rmsDb.push(db);
    a.fft.power(frame, power);
    applyBands(a.mel, power, bands);
    for (let b = 0; b < MEL_BANDS; b++) logMel[b] = 10 * Math.log10(bands[b]! + 1e-10);
    if (!first) {
      frames.onset.push(bandFlux(logMel, previous, 0, MEL_BANDS));
      frames.bassOnset.push(bandFlux(logMel, previous, 0, BASS_BANDS));
      frames.trebleOnset.push(bandFlux(logMel, previous, TREBLE_FROM_BAND, MEL_BANDS));
    }
    first = false;
    // This frame's log mel becomes the next one's "previous"; the old buffer is reused for the next frame.
    [previous, logMel] = [logMel, previous];
    const current = previous;
    if (db < SILENCE_DB) continue;
    frames.zcr.push(zeroCrossings(raw));
    const [centroid, spread, rolloff, flatness, total] = spectralShape(power, a.binHz);
    frames.centroid.push(Math.log2(centroid));
    frames.spread.push(Math.log2(spread));
    frames.rolloff.push(Math.log2(rolloff));
    frames.flatness.push(flatness);
    frames.flux.push(frames.onset.at(-1) ?? 0);
    let bass = 0;
    let treble = 0;
    for (let k = 1; k <= bassLimit; k++) bass += power[k]!;
    for (let k = trebleFrom; k < power.length; k++) treble += power[k]!;
    frames.bassShare.push(10 * Math.log10(bass / total + 1e-9));
    frames.trebleShare.push(10 * Math.log10(treble / total + 1e-9));
    for (let c = 1; c < MFCCS; c++) {
      let sum = 0;
      for (let b = 0; b < MEL_BANDS; b++) sum += a.dct[c * MEL_BANDS + b]! * current[b]!;
      frames.mfcc[c]!.push(sum);
    }
    // Contrast sorts each band's bins: every 4th frame (93 ms apart) is enough for a song's mean.
    if (index % 4 === 0) addContrast(a, power, frames, scratch);
    addChroma(a.chroma, power, block);
    if (++inBlock === CHROMA_BLOCK) {
      for (let p = 0; p < 12; p++) frames.chroma[p] = frames.chroma[p]! + block[p]!;
      if (lastBlock !== null) frames.harmonicChange.push(chromaChange(lastBlock, block));
      lastBlock = Float64Array.from(block);
      block.fill(0);
      inBlock = 0;
    }
  }
  for (let p = 0; p < 12; p++) frames.chroma[p] = frames.chroma[p]! + block[p]!;
}

/** Every candidate measure of the samples (mono, ANALYSIS_SAMPLE_RATE); throws NoAudio when there is none. */
export function measureAudio(pcm: Float32Array): Measures {
  const a = (shared ??= new Analyser());
  const frames = new SongFrames();
  measureFrames(a, pcm, frames);
  if (frames.centroid.length === 0) throw new NoAudio();
  const framesPerSecond = ANALYSIS_SAMPLE_RATE / HOP;
  const loudness = frames.rmsDb.mean();
  const measures: Measures = {
    loudness,
    loudnessSpread: frames.rmsDb.std(),
    dynamicRange: frames.rmsDb.quantile(0.95) - frames.rmsDb.quantile(0.1),
    quietFrames: frames.rmsDb.shareBelow(loudness),
    zcr: frames.zcr.mean(),
    zcrSpread: frames.zcr.std(),
    centroid: frames.centroid.mean(),
    centroidSpread: frames.centroid.std(),
    spread: frames.spread.mean(),
    rolloff: frames.rolloff.mean(),
    rolloffSpread: frames.rolloff.std(),
    flatness: frames.flatness.mean(),
    flatnessSpread: frames.flatness.std(),
    flux: frames.flux.mean(),
    fluxSpread: frames.flux.std(),
    bass: frames.bassShare.mean(),
    treble: frames.trebleShare.mean(),
  };
  frames.contrast.forEach((series, band) => {
    measures[`contrast${band}`] = series.mean();
  });
  for (let c = 1; c < MFCCS; c++) {
    measures[`mfcc${c}`] = frames.mfcc[c]!.mean();
    measures[`mfcc${c}Spread`] = frames.mfcc[c]!.std();
  }
  Object.assign(measures, rhythmMeasures(frames, framesPerSecond), tonalMeasures(frames));
  return measures;
}

function rhythmMeasures(frames: SongFrames, framesPerSecond: number): Measures {
  const rhythm = rhythmOf(frames.onset, framesPerSecond);
  const bass = rhythmOf(frames.bassOnset, framesPerSecond);
  const treble = rhythmOf(frames.trebleOnset, framesPerSecond);
  return {
    tempo: rhythm.tempo > 0 ? Math.log2(rhythm.tempo) : 0,
    pulseClarity: rhythm.pulseClarity,
    halfBeat: rhythm.halfBeat,
    doubleBeat: rhythm.doubleBeat,
    bassPulse: bass.pulseClarity,
    treblePulse: treble.pulseClarity,
    onsetRate: onsetRate(frames.onset, framesPerSecond),
    bassOnsetRate: onsetRate(frames.bassOnset, framesPerSecond),
    trebleOnsetRate: onsetRate(frames.trebleOnset, framesPerSecond),
  };
}

function tonalMeasures(frames: SongFrames): Measures {
  const tonality = tonalityOf(frames.chroma);
  return {
    keyClarity: tonality.keyClarity,
    mode: tonality.mode,
    chromaEntropy: tonality.entropy,
    harmonicChange: frames.harmonicChange.mean(),
  };
}

/** The tempo measure back in BPM (the vector keeps its log2, so that 60 → 120 weighs as 120 → 240). */
export function tempoBpm(measures: Measures): number {
  const tempo = measures.tempo ?? 0;
  return tempo > 0 ? 2 ** tempo : 0;
}
