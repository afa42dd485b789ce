// Writes public/welcome-chime.wav: the audio of the default welcome song (SPEC §3).
// A soft four-note bell arpeggio (C5 E5 G5 C6), 3.5 s, 12 kHz mono 16-bit PCM, about 84 KB.
// Deterministic: running it again produces the same bytes. Usage: node apps/web/scripts/generate-welcome-chime.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SAMPLE_RATE = 12_000;
const SECONDS = 3.5;
const NOTES = [
  { hz: 523.25, at: 0.0 },
  { hz: 659.25, at: 0.22 },
  { hz: 783.99, at: 0.44 },
  { hz: 1046.5, at: 0.66 },
];

function bell(t, hz) {
  // A struck bell: fundamental plus a quieter, faster-decaying inharmonic partial.
  const body = Math.sin(2 * Math.PI * hz * t) * Math.exp(-2.2 * t);
  const shimmer = 0.35 * Math.sin(2 * Math.PI * hz * 2.76 * t) * Math.exp(-5 * t);
  const attack = Math.min(1, t / 0.006);
  return attack * (body + shimmer);
}

const frames = Math.round(SAMPLE_RATE * SECONDS);
const samples = new Float64Array(frames);
for (let i = 0; i < frames; i += 1) {
  const t = i / SAMPLE_RATE;
  let value = 0;
  for (const note of NOTES) if (t >= note.at) value += bell(t - note.at, note.hz);
  const fadeOut = Math.min(1, (SECONDS - t) / 0.4);
  samples[i] = value * fadeOut;
}

const peak = samples.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
const gain = (0.7 * 32767) / peak;

const dataBytes = frames * 2;
const wav = Buffer.alloc(44 + dataBytes);
wav.write('RIFF', 0, 'ascii');
wav.writeUInt32LE(36 + dataBytes, 4);
wav.write('WAVE', 8, 'ascii');
wav.write('fmt ', 12, 'ascii');
wav.writeUInt32LE(16, 16); // fmt chunk size
wav.writeUInt16LE(1, 20); // PCM
wav.writeUInt16LE(1, 22); // mono
wav.writeUInt32LE(SAMPLE_RATE, 24);
wav.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
wav.writeUInt16LE(2, 32); // block align
wav.writeUInt16LE(16, 34); // bits per sample
wav.write('data', 36, 'ascii');
wav.writeUInt32LE(dataBytes, 40);
for (let i = 0; i < frames; i += 1) wav.writeInt16LE(Math.round(samples[i] * gain), 44 + i * 2);

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'welcome-chime.wav');
writeFileSync(out, wav);
console.log(`wrote ${out} (${wav.length} bytes)`);
