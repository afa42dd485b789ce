// Inputs for the benchmarks: a real WAV of a given size and a ~30 KB cover image (both accepted by the upload checks).
import sharp from 'sharp';

/** A mono 16-bit 22050 Hz PCM WAV of exactly `bytes` bytes, filled with a rising tone (a real, playable file). */
export function makeWav(bytes) {
  const dataBytes = bytes - 44;
  const buffer = Buffer.alloc(bytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(bytes - 8, 4);
  buffer.write('WAVEfmt ', 8, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(22050, 24);
  buffer.writeUInt32LE(22050 * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < dataBytes / 2; i++) {
    const t = i / 22050;
    buffer.writeInt16LE(Math.round(8000 * Math.sin(2 * Math.PI * (220 + 20 * t) * t)), 44 + i * 2);
  }
  return buffer;
}

/** A 640×640 PNG of seeded noise over a gradient: noise keeps it near 30 KB after the server's re-encode. */
export async function makeCover() {
  const size = 96;
  const pixels = Buffer.alloc(size * size * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = ((i % (size * 3)) + (seed % 64)) & 0xff;
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .resize(640, 640, { kernel: 'nearest' })
    .png()
    .toBuffer();
}
