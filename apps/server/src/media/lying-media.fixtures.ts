/**
 * Media whose headers lie, built byte by byte (WAV) or from a real image made by sharp with its header rewritten: what
 * the upload, the import and the transcoder must refuse cleanly. For tests only.
 */
import sharp from 'sharp';

/** 8 kHz 16-bit PCM, the rate of test/media.ts's toneWav. */
const SAMPLE_RATE = 8000;

/** A RIFF chunk: its id, its stated size (the real one unless `statedSize` lies) and its body, padded to even. */
function chunk(id: string, body: Buffer, statedSize = body.length): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(statedSize, 4);
  return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
}

/** A PCM `fmt ` body for `channels` channels (0 is a lie no decoder can work with). */
function fmtBody(channels: number): Buffer {
  const body = Buffer.alloc(16);
  body.writeUInt16LE(1, 0); // PCM
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(SAMPLE_RATE, 4);
  body.writeUInt32LE(SAMPLE_RATE * channels * 2, 8); // bytes per second
  body.writeUInt16LE(channels * 2, 12); // block align
  body.writeUInt16LE(16, 14); // bits per sample
  return body;
}

/** `seconds` of a 440 Hz mono tone as 16-bit little-endian samples. */
function tone(seconds: number): Buffer {
  const samples = Math.round(SAMPLE_RATE * seconds);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    data.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE)), i * 2);
  }
  return data;
}

/** RIFF/WAVE around `chunks`, with the true RIFF size. */
function riff(...chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** A WAV that tells the truth: mono, 8 kHz, `seconds` long; a distinct `salt` gives distinct bytes. */
export function honestWav(seconds = 1, salt = 0): Buffer {
  const data = tone(seconds);
  data.writeInt16LE(salt, 0);
  return riff(chunk('fmt ', fmtBody(1)), chunk('data', data));
}

/**
 * Three WAVs with a RIFF/WAVE signature (so their magic bytes pass) and a header that lies, each followed by a real
 * second of audio; ffmpeg cannot decode any of them:
 * - `zeroChannels`: the `fmt ` chunk says 0 channels;
 * - `hugeFmtChunk`: the `fmt ` chunk says it is 0xFFFFFFF0 bytes long;
 * - `hugeListChunk`: a `LIST` chunk before the data says it is 2 GB long.
 */
export function lyingWavs(): Record<'zeroChannels' | 'hugeFmtChunk' | 'hugeListChunk', Buffer> {
  const data = chunk('data', tone(1));
  const info = Buffer.concat([Buffer.from('INFOISFT', 'latin1'), Buffer.from([4, 0, 0, 0]), Buffer.from('lie\0')]);
  return {
    zeroChannels: riff(chunk('fmt ', fmtBody(0)), data),
    hugeFmtChunk: riff(chunk('fmt ', fmtBody(1), 0xfffffff0), data),
    hugeListChunk: riff(chunk('fmt ', fmtBody(1)), chunk('LIST', info, 0x80000000), data),
  };
}

/** A WAV cut short: its data chunk says `seconds` of audio, the file holds 40 % of it (a copy that stopped). */
export function truncatedWav(seconds = 1): Buffer {
  const whole = honestWav(seconds, 7);
  return whole.subarray(0, Math.floor(whole.length * 0.4));
}

/** A small real image in `format`, made by sharp (with alpha for WebP, so it has the extended VP8X header). */
function smallImage(format: 'png' | 'jpeg' | 'webp', alpha = false): Promise<Buffer> {
  const background = alpha ? { r: 200, g: 80, b: 40, alpha: 0.5 } : { r: 200, g: 80, b: 40 };
  return sharp({ create: { width: 16, height: 16, channels: alpha ? 4 : 3, background } })
    .toFormat(format)
    .toBuffer();
}

/** A real JPEG whose frame header (SOF) says `width` × `height`. */
export async function claimedJpeg(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await smallImage('jpeg'));
  for (let position = 2; position + 9 < jpeg.length;) {
    const marker = jpeg[position + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc2) {
      jpeg.writeUInt16BE(height, position + 5);
      jpeg.writeUInt16BE(width, position + 7);
      return jpeg;
    }
    position += 2 + jpeg.readUInt16BE(position + 2);
  }
  throw new Error('sharp made a JPEG without a frame header');
}

/** A real WebP whose header says `width` × `height`: the VP8X canvas (up to 2^24 a side), else the lossy frame's. */
export async function claimedWebp(width: number, height: number, header: 'VP8X' | 'VP8 '): Promise<Buffer> {
  const webp = Buffer.from(await smallImage('webp', header === 'VP8X'));
  if (webp.toString('latin1', 12, 16) !== header) throw new Error(`sharp made no ${header} WebP`);
  if (header === 'VP8X') {
    webp.writeUIntLE(width - 1, 24, 3);
    webp.writeUIntLE(height - 1, 27, 3);
  } else {
    webp.writeUInt16LE(width & 0x3fff, 26);
    webp.writeUInt16LE(height & 0x3fff, 28);
  }
  return webp;
}
