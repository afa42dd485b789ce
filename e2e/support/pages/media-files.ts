import sharp from 'sharp';
import { encodeWav } from '../../../apps/server/src/demo/wav.js';

/**
 * A real, playable 16-bit PCM mono WAV of a sine tone, built in memory (with the server's own WAV encoder) so no binary
 * fixture lives in the repo. `frequency` lets callers make files with different bytes: the server refuses the same
 * audio twice (409).
 */
export function sineWav({ seconds = 2, frequency = 440, sampleRate = 8000 } = {}): Buffer {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++) samples[i] = 0.4 * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return encodeWav(samples, sampleRate);
}

/** A square PNG cover with a diagonal two-colour gradient (so thumbnails are not a flat, suspicious block). */
export async function gradientPng({ size = 320, from = '#1db954', to = '#3b1d7a' } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
