/**
 * A tiny deterministic synthesizer for the demo catalogue: chords, a bass line, a generated melody and drums made of
 * oscillators, envelopes and seeded noise. Same spec, same samples, on every machine (no Math.random, no time).
 */

export type Waveform = 'sine' | 'triangle' | 'saw' | 'square' | 'fm';
export type Mode = 'major' | 'minor' | 'dorian' | 'mixolydian';
export type BassPattern = 'eighths' | 'root-fifth' | 'syncopated' | 'whole' | 'arpeggio';
export type DrumPattern = 'four-on-floor' | 'backbeat' | 'half-time' | 'funk' | 'none';

export interface SongSound {
  seed: number;
  bpm: number;
  /** MIDI note of the tonic (57 = A3); chords sit here, the melody an octave up, the bass an octave down. */
  tonic: number;
  mode: Mode;
  /** The scale degree (0 = tonic) of each bar's chord, repeated through the song. */
  progression: readonly number[];
  /** Exact length of the rendered audio. */
  seconds: number;
  lead: Waveform;
  pad: Waveform;
  bass: BassPattern;
  drums: DrumPattern;
  /** 0 (straight) to 0.33 (hard shuffle): how late the off-beat eighths fall. */
  swing?: number;
  /** A dotted-eighth echo on the melody. */
  echo?: boolean;
  /** Lo-fi colour: a darker mix and vinyl crackle. */
  lofi?: boolean;
}

const SCALES: Record<Mode, readonly number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
};

const TAU = 2 * Math.PI;
const PEAK = 0.89;

/** A small, fast seeded PRNG (mulberry32): uniform floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Envelope {
  attack: number;
  /** Seconds for the level to fall by 1/e towards `sustain`. */
  decay: number;
  sustain: number;
  release: number;
}

interface Tone {
  start: number;
  duration: number;
  midi: number;
  wave: Waveform;
  gain: number;
  envelope: Envelope;
  /** One-pole low-pass cutoff in Hz, to soften bright waves. */
  cutoff?: number;
}

const PAD_ENVELOPE: Envelope = { attack: 0.08, decay: 1.2, sustain: 0.6, release: 0.35 };
const LEAD_ENVELOPE: Envelope = { attack: 0.01, decay: 0.25, sustain: 0.55, release: 0.12 };
const BASS_ENVELOPE: Envelope = { attack: 0.005, decay: 0.18, sustain: 0.5, release: 0.06 };
const ARPEGGIO_ENVELOPE: Envelope = { attack: 0.004, decay: 0.3, sustain: 0.2, release: 0.2 };

/** Renders a song to mono samples in [-PEAK, PEAK] at `sampleRate`. */
export function renderSong(sound: SongSound, sampleRate: number): Float32Array {
  const length = Math.round(sound.seconds * sampleRate);
  const mix = new Float32Array(length);
  const lead = sound.echo ? new Float32Array(length) : mix;
  const random = seededRandom(sound.seed);
  const beat = 60 / sound.bpm;
  const bar = 4 * beat;
  const bars = Math.ceil(sound.seconds / bar);
  const phrases = [makePhrase(sound, random), makePhrase(sound, random)];

  for (let index = 0; index < bars; index++) {
    const barStart = index * bar;
    const chord = sound.progression[index % sound.progression.length] ?? 0;
    const isIntro = index < 2;
    const isOutro = index >= bars - 2;
    addPad(mix, sampleRate, sound, chord, barStart, bar);
    addBass(mix, sampleRate, sound, chord, barStart, beat);
    if (!isIntro) addDrums(mix, sampleRate, sound, barStart, beat, random);
    if (!isIntro && !isOutro) {
      // Four-bar phrases in the order A A B A, each bar's notes moved onto the bar's chord.
      const phrase = phrases[Math.floor((index - 2) / 4) % 4 === 2 ? 1 : 0] ?? [];
      const phraseBar = phrase[(index - 2) % 4] ?? [];
      for (const note of phraseBar) {
        addTone(lead, sampleRate, {
          start: barStart + swung(note.start, beat, sound.swing ?? 0),
          duration: note.duration,
          midi: degreeToMidi(sound, chord + note.degree) + 12,
          wave: sound.lead,
          gain: 0.2,
          envelope: LEAD_ENVELOPE,
          cutoff: sound.lead === 'saw' || sound.lead === 'square' ? 2600 : undefined,
        });
      }
    }
  }

  if (sound.echo) {
    addEcho(lead, sampleRate, beat * 0.75);
    for (let i = 0; i < length; i++) mix[i] = (mix[i] ?? 0) + (lead[i] ?? 0);
  }
  if (sound.lofi) applyLofi(mix, sampleRate, random);
  fadeEdges(mix, sampleRate);
  normalize(mix);
  return mix;
}

interface PhraseNote {
  /** Seconds from the start of the bar, before swing. */
  start: number;
  duration: number;
  /** Scale degrees above the bar's chord root. */
  degree: number;
}

/** Bar rhythms in eighth notes; a negative length is a rest. Each sums to a whole bar (8). */
const RHYTHMS: readonly (readonly number[])[] = [
  [2, 2, 2, 2],
  [3, 1, 2, 2],
  [1, 1, 2, 1, 1, 2],
  [2, 1, 1, 4],
  [4, -2, 2],
  [1, 1, 1, 1, 2, 2],
  [3, 3, 2],
  [-2, 2, 2, 2],
  [2, 2, 4],
  [1, 2, 1, 2, 2],
];

/** A four-bar melody: chord tones on strong eighths, stepwise motion in between. */
function makePhrase(sound: SongSound, random: () => number): PhraseNote[][] {
  const eighth = 30 / sound.bpm;
  let degree = pick(random, [0, 2, 4]);
  const phrase: PhraseNote[][] = [];
  for (let barIndex = 0; barIndex < 4; barIndex++) {
    const rhythm = pick(random, RHYTHMS);
    const notes: PhraseNote[] = [];
    let position = 0;
    for (const length of rhythm) {
      const eighths = Math.abs(length);
      if (length > 0) {
        degree = position % 4 === 0 ? nearestChordTone(degree, random) : degree + pick(random, [-2, -1, 1, 2]);
        degree = Math.max(-2, Math.min(7, degree));
        notes.push({ start: position * eighth, duration: eighths * eighth * 0.92, degree });
      }
      position += eighths;
    }
    phrase.push(notes);
  }
  return phrase;
}

function nearestChordTone(degree: number, random: () => number): number {
  const candidates = [-3, 0, 2, 4, 7].filter((tone) => Math.abs(tone - degree) <= 3);
  return candidates.length > 0 ? pick(random, candidates) : 0;
}

function addPad(out: Float32Array, sampleRate: number, sound: SongSound, chord: number, start: number, bar: number) {
  for (const offset of [0, 2, 4]) {
    addTone(out, sampleRate, {
      start,
      duration: bar,
      midi: degreeToMidi(sound, chord + offset),
      wave: sound.pad,
      gain: sound.pad === 'saw' || sound.pad === 'square' ? 0.045 : 0.07,
      envelope: PAD_ENVELOPE,
      cutoff: sound.pad === 'saw' || sound.pad === 'square' ? 1400 : undefined,
    });
  }
}

function addBass(out: Float32Array, sampleRate: number, sound: SongSound, chord: number, start: number, beat: number) {
  const root = degreeToMidi(sound, chord) - 12;
  const fifth = degreeToMidi(sound, chord + 4) - 12;
  const bassTone = (at: number, length: number, midi: number, gain = 0.3) => {
    addTone(out, sampleRate, {
      start: start + at * beat,
      duration: length * beat,
      midi,
      wave: 'triangle',
      gain,
      envelope: BASS_ENVELOPE,
      cutoff: 900,
    });
  };
  switch (sound.bass) {
    case 'eighths':
      for (let step = 0; step < 8; step++) bassTone(step / 2, 0.45, root, step % 2 === 0 ? 0.3 : 0.22);
      break;
    case 'root-fifth':
      [root, fifth, root, fifth].forEach((midi, step) => bassTone(step, 0.9, midi));
      break;
    case 'syncopated':
      bassTone(0, 0.7, root);
      bassTone(0.75, 0.25, root + 12, 0.2);
      bassTone(1.5, 0.45, fifth);
      bassTone(2.5, 0.45, root);
      bassTone(3, 0.4, fifth);
      bassTone(3.5, 0.45, root + 12, 0.2);
      break;
    case 'whole':
      bassTone(0, 3.9, root, 0.26);
      break;
    case 'arpeggio':
      bassTone(0, 3.9, root, 0.2);
      for (let step = 0; step < 8; step++) {
        addTone(out, sampleRate, {
          start: start + (step / 2) * beat,
          duration: beat * 0.5,
          midi: degreeToMidi(sound, chord + (BROKEN_CHORD[step] ?? 0)) + 12,
          wave: 'triangle',
          gain: 0.09,
          envelope: ARPEGGIO_ENVELOPE,
        });
      }
      break;
  }
}

/** Alberti-style broken chord, in scale degrees above the chord root, one per eighth. */
const BROKEN_CHORD = [0, 4, 2, 4, 7, 4, 2, 4];

const DRUM_STEPS: Record<Exclude<DrumPattern, 'none'>, { kick: number[]; snare: number[]; hat: number[] }> = {
  'four-on-floor': { kick: [0, 4, 8, 12], snare: [4, 12], hat: [2, 6, 10, 14] },
  backbeat: { kick: [0, 7, 8, 10], snare: [4, 12], hat: [0, 2, 4, 6, 8, 10, 12, 14] },
  'half-time': { kick: [0, 7, 10], snare: [8], hat: [0, 2, 4, 6, 8, 10, 12, 14] },
  funk: { kick: [0, 3, 10], snare: [4, 12, 15], hat: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] },
};

function addDrums(
  out: Float32Array,
  sampleRate: number,
  sound: SongSound,
  start: number,
  beat: number,
  random: () => number,
) {
  if (sound.drums === 'none') return;
  const steps = DRUM_STEPS[sound.drums];
  const at = (step: number) => start + swung((step * beat) / 4, beat, sound.swing ?? 0);
  for (const step of steps.kick) addKick(out, sampleRate, at(step));
  for (const step of steps.snare) addSnare(out, sampleRate, at(step), random);
  for (const step of steps.hat) addHat(out, sampleRate, at(step), step % 4 === 2 ? 0.09 : 0.05, random);
}

/** Delays every off-beat eighth (and what follows it within the eighth) by `swing` of an eighth. */
function swung(time: number, beat: number, swing: number): number {
  if (swing === 0) return time;
  const eighth = beat / 2;
  const index = Math.floor(time / eighth + 1e-9);
  return index % 2 === 1 ? time + swing * eighth : time;
}

function addKick(out: Float32Array, sampleRate: number, start: number) {
  const first = Math.round(start * sampleRate);
  const end = Math.min(out.length, first + Math.round(0.32 * sampleRate));
  let phase = 0;
  for (let i = first; i < end; i++) {
    const t = (i - first) / sampleRate;
    phase += (45 + 110 * Math.exp(-t * 28)) / sampleRate;
    out[i] = (out[i] ?? 0) + Math.sin(TAU * phase) * Math.exp(-t * 9) * 0.5;
  }
}

function addSnare(out: Float32Array, sampleRate: number, start: number, random: () => number) {
  const first = Math.round(start * sampleRate);
  const end = Math.min(out.length, first + Math.round(0.2 * sampleRate));
  for (let i = first; i < end; i++) {
    const t = (i - first) / sampleRate;
    const noise = (random() * 2 - 1) * Math.exp(-t * 20) * 0.22;
    const body = Math.sin(TAU * 185 * t) * Math.exp(-t * 30) * 0.18;
    out[i] = (out[i] ?? 0) + noise + body;
  }
}

function addHat(out: Float32Array, sampleRate: number, start: number, gain: number, random: () => number) {
  const first = Math.round(start * sampleRate);
  const end = Math.min(out.length, first + Math.round(0.05 * sampleRate));
  let previous = 0;
  for (let i = first; i < end; i++) {
    const t = (i - first) / sampleRate;
    const noise = random() * 2 - 1;
    // The first difference of white noise keeps only the hiss: a poor man's high-pass.
    out[i] = (out[i] ?? 0) + (noise - previous) * Math.exp(-t * 70) * gain;
    previous = noise;
  }
}

function addTone(out: Float32Array, sampleRate: number, tone: Tone) {
  const { attack, decay, sustain, release } = tone.envelope;
  const first = Math.round(tone.start * sampleRate);
  const held = Math.round(tone.duration * sampleRate);
  const end = Math.min(out.length, first + held + Math.round(release * sampleRate));
  const increment = midiToHz(tone.midi) / sampleRate;
  const attackSamples = Math.max(1, attack * sampleRate);
  const releaseSamples = Math.max(1, release * sampleRate);
  const decayFactor = Math.exp(-1 / (decay * sampleRate));
  const smoothing = tone.cutoff ? 1 - Math.exp((-TAU * tone.cutoff) / sampleRate) : 1;
  let phase = 0;
  let decaying = 1;
  let filtered = 0;
  for (let i = first; i < end; i++) {
    const n = i - first;
    const gate = n < held ? 1 : 1 - (n - held) / releaseSamples;
    const level = Math.min(1, n / attackSamples) * (sustain + (1 - sustain) * decaying) * gate;
    filtered += smoothing * (oscillate(tone.wave, phase, increment, decaying) - filtered);
    out[i] = (out[i] ?? 0) + filtered * level * tone.gain;
    decaying *= decayFactor;
    phase += increment;
    if (phase >= 1) phase -= 1;
  }
}

function oscillate(wave: Waveform, phase: number, increment: number, brightness: number): number {
  switch (wave) {
    case 'sine':
      return Math.sin(TAU * phase);
    case 'triangle':
      return 1 - 4 * Math.abs(phase - 0.5);
    case 'saw':
      return 2 * phase - 1 - polyBlep(phase, increment);
    case 'square':
      return (phase < 0.5 ? 1 : -1) + polyBlep(phase, increment) - polyBlep((phase + 0.5) % 1, increment);
    case 'fm':
      // An electric-piano-like tone: the modulation fades with the note, as a struck tine's overtones do.
      return Math.sin(TAU * phase + (0.4 + 1.6 * brightness) * Math.sin(TAU * 2 * phase));
  }
}

/** Rounds off the jump of a saw or square wave, which would otherwise alias audibly at 22 kHz. */
function polyBlep(phase: number, increment: number): number {
  if (phase < increment) {
    const x = phase / increment;
    return x + x - x * x - 1;
  }
  if (phase > 1 - increment) {
    const x = (phase - 1) / increment;
    return x * x + x + x + 1;
  }
  return 0;
}

function addEcho(samples: Float32Array, sampleRate: number, delaySeconds: number) {
  const delay = Math.round(delaySeconds * sampleRate);
  for (let i = delay; i < samples.length; i++) samples[i] = (samples[i] ?? 0) + (samples[i - delay] ?? 0) * 0.35;
}

function applyLofi(samples: Float32Array, sampleRate: number, random: () => number) {
  const smoothing = 1 - Math.exp((-TAU * 3200) / sampleRate);
  let filtered = 0;
  for (let i = 0; i < samples.length; i++) {
    filtered += smoothing * ((samples[i] ?? 0) - filtered);
    const crackle = random() < 0.0006 ? (random() * 2 - 1) * 0.12 : 0;
    samples[i] = filtered + crackle;
  }
}

function fadeEdges(samples: Float32Array, sampleRate: number) {
  const fadeIn = Math.min(samples.length, Math.round(0.02 * sampleRate));
  const fadeOut = Math.min(samples.length, Math.round(2 * sampleRate));
  for (let i = 0; i < fadeIn; i++) samples[i] = (samples[i] ?? 0) * (i / fadeIn);
  for (let i = 0; i < fadeOut; i++) {
    const index = samples.length - 1 - i;
    samples[index] = (samples[index] ?? 0) * (i / fadeOut);
  }
}

function normalize(samples: Float32Array) {
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  if (peak === 0) return;
  const scale = PEAK / peak;
  for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] ?? 0) * scale;
}

function degreeToMidi(sound: SongSound, degree: number): number {
  const scale = SCALES[sound.mode];
  const octave = Math.floor(degree / 7);
  const step = degree - octave * 7;
  return sound.tonic + 12 * octave + (scale[step] ?? 0);
}

function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick() needs at least one item');
  return item;
}
