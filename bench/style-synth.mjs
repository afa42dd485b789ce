// Songs of six styles, synthesised sample by sample for the radio's quality benchmark (bench/radio-quality.mjs) and
// the feature choice (bench/analysis-features.mjs). Each style has its own tempo range, instruments and rhythm; within
// a style every song draws its own key, mode, chord progression, tempo, drum pattern variant, instrument brightness,
// mix and loudness from its seed, so songs of one style are alike the way songs of a genre are, not copies.
//
//   ambient   55–80 BPM, no drums: slow detuned saw pads through a low-pass, a wind of filtered noise, long reverb
//   techno    122–136 BPM: four-on-the-floor kick, off-beat and 16th hats, clap on 2 and 4, a filtered 16th bassline
//   acoustic  88–116 BPM: plucked strings (Karplus–Strong) picking the chords' notes in 8ths, a soft bass, a shaker
//   rock      108–150 BPM: distorted power chords in 8ths, kick and snare backbeat, crash and ride cymbals
//   ballad    58–78 BPM: a piano (inharmonic partials decaying) playing bass notes and chords, a melody, reverb
//   hiphop    80–98 BPM: swung 16th hats, a syncopated boom-bap kick, a noisy snare, a sub bass, a muffled
//             electric piano loop and vinyl crackle
//
// renderSong(style, seed, seconds, sampleRate) answers mono float samples in [-1, 1]; nothing here touches the disk.

/** The styles, in table order. */
export const STYLES = ['ambient', 'techno', 'acoustic', 'rock', 'ballad', 'hiphop'];

/** A small fast seeded generator (mulberry32): the same seed draws the same song. */
export function rngOf(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (low, high) => low + (high - low) * next(),
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);

/** Chord progressions as scale degrees (0-based) of a major or minor scale. */
const MAJOR_SCALE = [0, 2, 4, 5, 7, 9, 11];
const MINOR_SCALE = [0, 2, 3, 5, 7, 8, 10];
const PROGRESSIONS = [
  [0, 4, 5, 3],
  [0, 3, 4, 3],
  [5, 3, 0, 4],
  [0, 5, 3, 4],
  [1, 4, 0, 5],
  [0, 6, 5, 4],
  [0, 3, 0, 4],
];

/** The song's harmony: a key, a mode and a progression, answering each bar's chord as MIDI notes. */
function harmonyOf(rng, low = 48) {
  const root = low + rng.int(0, 11);
  const scale = rng.chance(0.5) ? MAJOR_SCALE : MINOR_SCALE;
  const progression = rng.pick(PROGRESSIONS);
  const degree = (d) => root + scale[d % 7] + 12 * Math.floor(d / 7);
  return {
    root,
    scale,
    /** The triad of bar `bar` (every `barsPerChord` bars the next chord). */
    chord(bar, barsPerChord = 1) {
      const d = progression[Math.floor(bar / barsPerChord) % progression.length];
      return [degree(d), degree(d + 2), degree(d + 4)];
    },
    /** A note of the scale, `step` degrees above the root. */
    note: degree,
  };
}

// ---- Filters and effects --------------------------------------------------------------------------------------------

/** An RBJ biquad over a buffer in place. */
function biquad(buffer, sampleRate, type, frequency, q = 0.707) {
  const w = (2 * Math.PI * Math.min(frequency, sampleRate * 0.45)) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  let b0, b1, b2;
  if (type === 'lowpass') [b0, b1, b2] = [(1 - cos) / 2, 1 - cos, (1 - cos) / 2];
  else if (type === 'highpass') [b0, b1, b2] = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
  else [b0, b1, b2] = [alpha, 0, -alpha];
  const [a0, a1, a2] = [1 + alpha, -2 * cos, 1 - alpha];
  let [x1, x2, y1, y2] = [0, 0, 0, 0];
  for (let i = 0; i < buffer.length; i++) {
    const x = buffer[i];
    const y = (b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    buffer[i] = y;
  }
  return buffer;
}

/** A Schroeder reverb (four combs, two all-passes) of `buffer`, mixed back in at `wet`. */
function reverb(buffer, sampleRate, wet, size = 1) {
  const combs = [1116, 1188, 1277, 1356].map((n) => Math.round((n * size * sampleRate) / 44_100));
  const out = new Float32Array(buffer.length);
  for (const delay of combs) {
    const line = new Float32Array(delay);
    let at = 0;
    for (let i = 0; i < buffer.length; i++) {
      const y = line[at];
      line[at] = buffer[i] + y * 0.84;
      out[i] += y / 4;
      at = (at + 1) % delay;
    }
  }
  for (const delay of [556, 441].map((n) => Math.round((n * sampleRate) / 44_100))) {
    const line = new Float32Array(delay);
    let at = 0;
    for (let i = 0; i < out.length; i++) {
      const stored = line[at];
      const x = out[i];
      line[at] = x + stored * 0.5;
      out[i] = stored - x * 0.5;
      at = (at + 1) % delay;
    }
  }
  for (let i = 0; i < buffer.length; i++) buffer[i] = buffer[i] * (1 - wet) + out[i] * wet;
  return buffer;
}

/** Adds `source` into `target` from sample `at`, times `gain`. */
function mixInto(target, source, at, gain = 1) {
  const end = Math.min(target.length, at + source.length);
  for (let i = Math.max(0, at); i < end; i++) target[i] += source[i - at] * gain;
}

// ---- Instruments: each returns a short buffer (a note or a hit) ----------------------------------------------------

function kick(sampleRate, rng, { high = 150, low = 48, decay = 0.22, click = 0.3 } = {}) {
  const n = Math.round(sampleRate * 0.5);
  const out = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const f = low + (high - low) * Math.exp(-t / 0.035);
    phase += (2 * Math.PI * f) / sampleRate;
    out[i] = Math.sin(phase) * Math.exp(-t / decay) + (i < 40 ? click * (rng.next() * 2 - 1) : 0);
  }
  return out;
}

function noiseHit(sampleRate, rng, { seconds, decay, type, frequency, q = 0.707 }) {
  const n = Math.round(sampleRate * seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rng.next() * 2 - 1) * Math.exp(-i / sampleRate / decay);
  return biquad(out, sampleRate, type, frequency, q);
}

function snare(sampleRate, rng, { tone = 190, decay = 0.12, noise = 0.8 } = {}) {
  const out = noiseHit(sampleRate, rng, { seconds: 0.35, decay, type: 'highpass', frequency: 1200 });
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    out[i] = out[i] * noise + 0.6 * Math.sin(2 * Math.PI * tone * t) * Math.exp(-t / 0.05);
  }
  return out;
}

function clap(sampleRate, rng) {
  const out = new Float32Array(Math.round(sampleRate * 0.3));
  for (const offset of [0, 0.011, 0.023]) {
    mixInto(
      out,
      noiseHit(sampleRate, rng, { seconds: 0.25, decay: 0.06, type: 'bandpass', frequency: 1500, q: 1.2 }),
      Math.round(offset * sampleRate),
      0.8,
    );
  }
  return out;
}

/** A naive saw (aliasing is filtered by the caller's low-pass) with a little vibrato. */
function sawInto(out, sampleRate, frequency, gain, vibrato = 0) {
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const f = frequency * (1 + vibrato * Math.sin((2 * Math.PI * 5 * i) / sampleRate));
    phase += f / sampleRate;
    phase -= Math.floor(phase);
    out[i] += (2 * phase - 1) * gain;
  }
}

/** A pad note: three detuned saws, attack and release of seconds, low-passed at `cutoff`. */
function padNote(sampleRate, frequency, seconds, { attack, release, cutoff, detune }) {
  const n = Math.round(sampleRate * (seconds + release));
  const out = new Float32Array(n);
  for (const d of [-detune, 0, detune]) sawInto(out, sampleRate, frequency * (1 + d), 1 / 3, 0.002);
  biquad(out, sampleRate, 'lowpass', cutoff, 0.8);
  const hold = Math.round(sampleRate * seconds);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const rise = Math.min(1, t / attack);
    const fall = i < hold ? 1 : Math.max(0, 1 - (i - hold) / (release * sampleRate));
    out[i] *= rise * fall;
  }
  return out;
}

/** A plucked string (Karplus–Strong): a noise burst circulating in a delay line of one period, damped. */
function pluck(sampleRate, rng, frequency, seconds, { brightness = 0.5, damping = 0.996 } = {}) {
  const n = Math.round(sampleRate * seconds);
  const out = new Float32Array(n);
  const period = Math.max(2, Math.round(sampleRate / frequency));
  const line = new Float32Array(period);
  let smooth = 0;
  for (let i = 0; i < period; i++) {
    smooth += (rng.next() * 2 - 1 - smooth) * (0.2 + 0.8 * brightness);
    line[i] = smooth;
  }
  let at = 0;
  for (let i = 0; i < n; i++) {
    const next = (at + 1) % period;
    const value = line[at];
    line[at] = damping * 0.5 * (value + line[next]);
    out[i] = value;
    at = next;
  }
  return out;
}

/** A piano-like note: partials slightly sharp (string stiffness), the higher ones dying sooner, a hammer attack. */
function pianoNote(sampleRate, frequency, seconds, { brightness = 1.2, decay = 1.6 } = {}) {
  const n = Math.round(sampleRate * seconds);
  const out = new Float32Array(n);
  const stiffness = 0.0004;
  for (let h = 1; h <= 10; h++) {
    const f = frequency * h * Math.sqrt(1 + stiffness * h * h);
    if (f > sampleRate * 0.45) break;
    const amplitude = 1 / h ** brightness;
    const tau = decay / (1 + 0.35 * (h - 1));
    // A damped sine by recurrence (two multiplications a sample instead of a sine and an exponential).
    const step = (2 * Math.PI * f) / sampleRate;
    const damping = Math.exp(-1 / sampleRate / tau);
    const coefficient = 2 * damping * Math.cos(step);
    let [previous, current] = [(-amplitude * Math.sin(step)) / damping, 0];
    for (let i = 0; i < n; i++) {
      out[i] += current;
      [previous, current] = [current, coefficient * current - damping * damping * previous];
    }
  }
  for (let i = 0; i < Math.min(n, 200); i++) out[i] *= i / 200;
  return out;
}

/** A power chord: root, fifth and octave as detuned saws, driven into a tanh, through a cabinet-like low-pass. */
function powerChord(sampleRate, root, seconds, { drive, cutoff, mute }) {
  const n = Math.round(sampleRate * seconds);
  const out = new Float32Array(n);
  for (const ratio of [1, 1.4983, 2]) {
    for (const d of [-0.003, 0.003]) sawInto(out, sampleRate, hz(root) * ratio * (1 + d), 0.2);
  }
  const release = mute ? 0.09 : seconds;
  for (let i = 0; i < n; i++) out[i] = Math.tanh(out[i] * drive * Math.exp(-i / sampleRate / release));
  biquad(out, sampleRate, 'lowpass', cutoff, 1);
  return biquad(out, sampleRate, 'highpass', 90);
}

function sineNote(sampleRate, frequency, seconds, decay) {
  const n = Math.round(sampleRate * seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    out[i] = Math.sin(2 * Math.PI * frequency * t) * Math.exp(-t / decay) * Math.min(1, i / 100);
  }
  return out;
}

// ---- Styles ----------------------------------------------------------------------------------------------------------

/** The grid of a song: seconds per beat, and where a step of `perBeat` steps a beat falls, with swing. */
function gridOf(bpm, sampleRate, swing = 0.5) {
  const beat = 60 / bpm;
  return {
    beat,
    /** Sample of step `i` of `perBeat` steps per beat; odd 16ths are pushed late by `swing`. */
    at(i, perBeat = 4) {
      const whole = Math.floor(i / 2) * 2;
      const inPair = i - whole;
      const step = beat / perBeat;
      const offset = inPair === 0 ? 0 : 2 * step * swing;
      return Math.round((whole * step + offset) * sampleRate);
    },
  };
}

function ambient(out, sampleRate, rng) {
  const bpm = rng.range(55, 80);
  const harmony = harmonyOf(rng, 45);
  const bar = (4 * 60) / bpm;
  const barsPerChord = rng.int(1, 2);
  const pad = { attack: rng.range(1.5, 3.5), release: rng.range(2, 4), cutoff: rng.range(600, 1800), detune: 0.006 };
  const layer = new Float32Array(out.length);
  for (let b = 0; b * bar < out.length / sampleRate; b += barsPerChord) {
    const start = Math.round(b * bar * sampleRate);
    for (const note of harmony.chord(b, barsPerChord)) {
      mixInto(layer, padNote(sampleRate, hz(note), bar * barsPerChord, pad), start, 0.25);
    }
    if (rng.chance(0.5)) {
      const high = harmony.note(rng.int(7, 11)) + 12;
      mixInto(layer, padNote(sampleRate, hz(high), bar, { ...pad, cutoff: pad.cutoff * 2 }), start, 0.08);
    }
  }
  const wind = new Float32Array(out.length);
  const windLevel = rng.range(0.02, 0.08);
  for (let i = 0; i < wind.length; i++) {
    wind[i] = (rng.next() * 2 - 1) * windLevel * (0.6 + 0.4 * Math.sin((2 * Math.PI * i) / sampleRate / 7));
  }
  biquad(wind, sampleRate, 'bandpass', rng.range(400, 1200), 0.7);
  mixInto(layer, wind, 0);
  reverb(layer, sampleRate, rng.range(0.4, 0.6), 1.3);
  mixInto(out, layer, 0);
  // Some ambient pieces keep a soft, slow pulse under the pads.
  if (rng.chance(0.3)) {
    const pulse = kick(sampleRate, rng, { high: 90, low: 45, decay: 0.4, click: 0 });
    const beat = 60 / bpm;
    for (let t = 0; t < out.length / sampleRate; t += beat * 2) mixInto(out, pulse, Math.round(t * sampleRate), 0.25);
  }
  return bpm;
}

function techno(out, sampleRate, rng) {
  const bpm = rng.range(122, 136);
  const grid = gridOf(bpm, sampleRate);
  const harmony = harmonyOf(rng, 33);
  const kickHit = kick(sampleRate, rng, { high: rng.range(130, 180), low: rng.range(42, 55), decay: 0.25 });
  const hat = noiseHit(sampleRate, rng, {
    seconds: 0.08,
    decay: rng.range(0.015, 0.035),
    type: 'highpass',
    frequency: 7000,
  });
  const openHat = noiseHit(sampleRate, rng, { seconds: 0.3, decay: 0.12, type: 'highpass', frequency: 6000 });
  const clapHit = clap(sampleRate, rng);
  const sixteenths = rng.chance(0.5);
  const cutoff = rng.range(300, 1200);
  const bassline = [0, 0, 12, 0, 0, 7, 0, 12].map((n) => (rng.chance(0.3) ? n + rng.pick([3, 5, 10]) : n));
  const steps = Math.floor(out.length / grid.at(1));
  for (let s = 0; s < steps; s++) {
    const at = grid.at(s);
    const bar = Math.floor(s / 16);
    const breakdown = bar % 16 >= 14;
    if (s % 4 === 0 && !breakdown) mixInto(out, kickHit, at, 0.9);
    if (s % 4 === 2) mixInto(out, rng.chance(0.15) ? openHat : hat, at, 0.35);
    else if (sixteenths) mixInto(out, hat, at, 0.15);
    if (s % 16 === 4 || s % 16 === 12) mixInto(out, clapHit, at, 0.4);
    if (s % 2 === 1) {
      const note = harmony.root + bassline[(s >> 1) % bassline.length];
      const tone = new Float32Array(Math.round(grid.beat * 0.45 * sampleRate));
      sawInto(tone, sampleRate, hz(note), 0.3);
      biquad(tone, sampleRate, 'lowpass', cutoff * (1 + 0.5 * Math.sin(bar / 2)), 4);
      for (let i = 0; i < tone.length; i++) tone[i] *= Math.exp(-i / sampleRate / 0.12);
      mixInto(out, tone, at);
    }
  }
  // Some tracks carry a chord pad over the groove.
  if (rng.chance(0.4)) {
    const bar = (4 * 60) / bpm;
    const pad = { attack: 0.3, release: 0.5, cutoff: rng.range(1000, 3000), detune: 0.008 };
    for (let b = 0; b * bar < out.length / sampleRate; b += 2) {
      for (const note of harmony.chord(b, 2)) {
        mixInto(out, padNote(sampleRate, hz(note + 24), bar * 2, pad), Math.round(b * bar * sampleRate), 0.06);
      }
    }
  }
  return bpm;
}

function acoustic(out, sampleRate, rng) {
  const bpm = rng.range(88, 116);
  const grid = gridOf(bpm, sampleRate, rng.range(0.5, 0.56));
  const harmony = harmonyOf(rng, 40);
  const brightness = rng.range(0.3, 0.8);
  const pattern = rng.pick([
    [0, 1, 2, 1, 0, 1, 2, 1],
    [0, 2, 1, 2, 0, 2, 1, 2],
    [0, 1, 2, 3, 2, 1, 0, 1],
  ]);
  const shaker = noiseHit(sampleRate, rng, { seconds: 0.06, decay: 0.02, type: 'highpass', frequency: 5000 });
  const withShaker = rng.chance(0.6);
  // Some songs have a light kit: a soft kick on 1 and 3, a rim or snare on 2 and 4.
  const kit = rng.chance(0.4)
    ? {
        kick: kick(sampleRate, rng, { high: 100, low: 60, decay: 0.12, click: 0.1 }),
        snare: snare(sampleRate, rng, { decay: 0.08 }),
      }
    : null;
  const steps = Math.floor(out.length / grid.at(1, 2));
  for (let s = 0; s < steps; s++) {
    const at = grid.at(s, 2);
    const chord = harmony.chord(Math.floor(s / 8));
    const voices = [chord[0], chord[1] + 12, chord[2] + 12, chord[0] + 24];
    const note = voices[pattern[s % pattern.length]];
    mixInto(out, pluck(sampleRate, rng, hz(note), grid.beat * 1.5, { brightness }), at, 0.45);
    if (s % 8 === 0)
      mixInto(out, pluck(sampleRate, rng, hz(chord[0] - 12), grid.beat * 3, { brightness: 0.3 }), at, 0.5);
    if (withShaker) mixInto(out, shaker, at, s % 2 === 0 ? 0.08 : 0.05);
    if (kit !== null && s % 4 === 0) mixInto(out, kit.kick, at, 0.35);
    if (kit !== null && s % 4 === 2) mixInto(out, kit.snare, at, 0.15);
  }
  reverb(out, sampleRate, rng.range(0.1, 0.25));
  return bpm;
}

function rock(out, sampleRate, rng) {
  const bpm = rng.range(108, 150);
  const grid = gridOf(bpm, sampleRate);
  const harmony = harmonyOf(rng, 40);
  const guitar = { drive: rng.range(2, 14), cutoff: rng.range(2500, 5000) };
  const kickHit = kick(sampleRate, rng, { high: 120, low: rng.range(55, 70), decay: 0.12, click: 0.5 });
  const snareHit = snare(sampleRate, rng, { tone: rng.range(170, 230), decay: rng.range(0.1, 0.18) });
  const ride = noiseHit(sampleRate, rng, { seconds: 0.4, decay: 0.18, type: 'highpass', frequency: 5000 });
  const crash = noiseHit(sampleRate, rng, { seconds: 1.5, decay: 0.7, type: 'highpass', frequency: 4000 });
  const kicks = rng.pick([
    [0, 4],
    [0, 3, 4],
    [0, 4, 5],
  ]);
  const steps = Math.floor(out.length / grid.at(1, 2));
  for (let s = 0; s < steps; s++) {
    const at = grid.at(s, 2);
    const bar = Math.floor(s / 8);
    const root = harmony.chord(bar)[0];
    const mute = s % 8 !== 0 && rng.chance(0.7);
    mixInto(out, powerChord(sampleRate, root, grid.beat / 2, { ...guitar, mute }), at, 0.35);
    if (kicks.includes(s % 8)) mixInto(out, kickHit, at, 0.9);
    if (s % 8 === 2 || s % 8 === 6) mixInto(out, snareHit, at, 0.7);
    mixInto(out, s % 32 === 0 ? crash : ride, at, s % 32 === 0 ? 0.3 : 0.12);
  }
  return bpm;
}

function ballad(out, sampleRate, rng) {
  const bpm = rng.range(58, 78);
  const grid = gridOf(bpm, sampleRate);
  const harmony = harmonyOf(rng, 43);
  const piano = { brightness: rng.range(1, 1.6), decay: rng.range(1.2, 2.2) };
  // Some ballads have brushes: a soft kick on 1, a swish of noise on 2 and 4.
  const brushes = rng.chance(0.35)
    ? {
        kick: kick(sampleRate, rng, { high: 90, low: 50, decay: 0.2, click: 0 }),
        swish: noiseHit(sampleRate, rng, { seconds: 0.3, decay: 0.12, type: 'bandpass', frequency: 3000 }),
      }
    : null;
  const beats = Math.floor(out.length / grid.at(1, 1));
  for (let b = 0; b < beats; b++) {
    const at = grid.at(b, 1);
    const chord = harmony.chord(Math.floor(b / 4));
    if (brushes !== null && b % 4 === 0) mixInto(out, brushes.kick, at, 0.3);
    if (brushes !== null && b % 2 === 1) mixInto(out, brushes.swish, at, 0.12);
    if (b % 4 === 0) mixInto(out, pianoNote(sampleRate, hz(chord[0] - 12), grid.beat * 4, piano), at, 0.35);
    if (b % 2 === 1 || rng.chance(0.3)) {
      for (const note of chord) mixInto(out, pianoNote(sampleRate, hz(note + 12), grid.beat * 2, piano), at, 0.12);
    }
    if (rng.chance(0.7)) {
      const melody = harmony.note(rng.int(7, 13)) + 12;
      const offset = rng.chance(0.3) ? Math.round((grid.beat / 2) * sampleRate) : 0;
      mixInto(out, pianoNote(sampleRate, hz(melody), grid.beat * 2, piano), at + offset, 0.2);
    }
  }
  reverb(out, sampleRate, rng.range(0.25, 0.4), 1.1);
  return bpm;
}

function hiphop(out, sampleRate, rng) {
  const bpm = rng.range(80, 98);
  const grid = gridOf(bpm, sampleRate, rng.range(0.58, 0.66));
  const harmony = harmonyOf(rng, 36);
  const kickHit = kick(sampleRate, rng, { high: 110, low: rng.range(45, 55), decay: 0.3, click: 0.2 });
  const snareHit = snare(sampleRate, rng, { tone: rng.range(160, 200), decay: 0.2, noise: 1.1 });
  const hat = noiseHit(sampleRate, rng, { seconds: 0.06, decay: 0.025, type: 'highpass', frequency: 8000 });
  const kicks = rng.pick([
    [0, 7, 10],
    [0, 3, 10],
    [0, 6, 9, 11],
  ]);
  const keys = { brightness: 2, decay: 0.9 };
  // The loop: a muffled electric piano, or a plucked guitar sample.
  const plucked = rng.chance(0.4);
  const steps = Math.floor(out.length / grid.at(1));
  for (let s = 0; s < steps; s++) {
    const at = grid.at(s);
    const bar = Math.floor(s / 16);
    if (kicks.includes(s % 16)) {
      mixInto(out, kickHit, at, 0.9);
      mixInto(out, sineNote(sampleRate, hz(harmony.chord(bar)[0] - 12), grid.beat, 0.4), at, 0.4);
    }
    if (s % 16 === 4 || s % 16 === 12) mixInto(out, snareHit, at, 0.6);
    mixInto(out, hat, at, s % 2 === 0 ? 0.18 : 0.1);
    if (s % 16 === 0 || s % 16 === 6) {
      const keysNote = new Float32Array(Math.round(grid.beat * 1.5 * sampleRate));
      for (const note of harmony.chord(bar)) {
        const tone = plucked
          ? pluck(sampleRate, rng, hz(note + 12), grid.beat * 1.5, { brightness: 0.4 })
          : pianoNote(sampleRate, hz(note + 12), grid.beat * 1.5, keys);
        mixInto(keysNote, tone, 0, 0.15);
      }
      mixInto(out, biquad(keysNote, sampleRate, 'lowpass', 1800), at);
    }
  }
  const crackle = rng.range(0.01, 0.03);
  for (let i = 0; i < out.length; i++) {
    out[i] += (rng.next() * 2 - 1) * crackle * 0.3 + (rng.chance(0.0004) ? (rng.next() - 0.5) * crackle * 20 : 0);
  }
  return bpm;
}

const RENDERERS = { ambient, techno, acoustic, rock, ballad, hiphop };

/**
 * A production of its own for each song, so that a style is not one sound: a high-pass, often a duller top (an older
 * or darker recording), sometimes a loud master driven into saturation, and a noise floor (hiss) of its own level.
 */
function master(samples, sampleRate, rng) {
  biquad(samples, sampleRate, 'highpass', rng.range(20, 120));
  if (rng.chance(0.5)) biquad(samples, sampleRate, 'lowpass', rng.range(5000, 14_000));
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  if (peak === 0) return;
  const drive = rng.chance(0.4) ? rng.range(1.5, 4) : 0;
  const hiss = peak * 10 ** (-rng.range(45, 70) / 20);
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] / peak;
    samples[i] = (drive > 0 ? Math.tanh(x * drive) / Math.tanh(drive) : x) + (rng.next() * 2 - 1) * hiss;
  }
}

/**
 * One song of `style` from `seed`: mono float samples at `sampleRate`, peak-normalised to a level drawn from the seed
 * (−1 to −10 dBFS, so loudness alone tells no style), and its tempo.
 */
export function renderSong(style, seed, seconds, sampleRate) {
  const render = RENDERERS[style];
  if (render === undefined) throw new Error(`Unknown style ${style}`);
  const rng = rngOf(seed);
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  const bpm = render(samples, sampleRate, rng);
  master(samples, sampleRate, rngOf(seed ^ 0x5bd1e995));
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  const level = 10 ** (-rng.range(1, 10) / 20);
  const gain = peak > 0 ? level / peak : 0;
  for (let i = 0; i < samples.length; i++) samples[i] *= gain;
  return { samples, bpm };
}
