import sharp from 'sharp';

const WAV_HEADER_BYTES = 44;

/**
 * A real, playable 16-bit PCM mono WAV of a sine tone, built in memory so no binary fixture lives in the repo.
 * `frequency` lets callers make files with different bytes: the server refuses the same audio twice (409).
 */
export function sineWav({ seconds = 2, frequency = 440, sampleRate = 8000 } = {}): Buffer {
  const sampleCount = Math.round(seconds * sampleRate);
  const dataBytes = sampleCount * 2;
  const wav = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(WAV_HEADER_BYTES - 8 + dataBytes, 4);
  wav.write('WAVE', 8, 'latin1');
  wav.write('fmt ', 12, 'latin1');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < sampleCount; i++) {
    const sample = 0.4 * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
    wav.writeInt16LE(Math.round(sample * 32767), WAV_HEADER_BYTES + i * 2);
  }
  return wav;
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
