/**
 * Real media built in code (no binary files in the repo): audio and images that pass the magic-byte, duration and
 * image checks, and multipart bodies exactly as a browser sends them.
 */
import { deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { encodeWav } from '../src/demo/wav.js';

/** A real mono WAV of a sine tone; a distinct `frequency` gives distinct bytes (songs are deduplicated by hash). */
export function toneWav(frequency: number, seconds = 0.5, sampleRate = 8000): Buffer {
  const samples = new Float32Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < samples.length; i++) samples[i] = 0.4 * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return encodeWav(samples, sampleRate);
}

/** A small solid-colour picture in a real image format; a distinct `seed` gives distinct bytes. */
export async function picture(seed: number, format: 'png' | 'jpeg' | 'webp' = 'png', size = 96): Promise<Buffer> {
  const image = sharp({
    create: {
      width: size,
      height: size,
      channels: 3,
      background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 193) % 256 },
    },
  });
  return image.toFormat(format).toBuffer();
}

/** A real, decodable image of the given size and format (the same bytes for the same arguments). */
export async function imageFile(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png',
  exifOrientation?: number,
): Promise<Buffer> {
  let image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  if (exifOrientation !== undefined) image = image.withMetadata({ orientation: exifOrientation });
  return image.toFormat(format).toBuffer();
}

/** `frames` silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, CBR: 417 bytes, 1152 samples each). */
export function mp3File(frames: number, layerBits = 0b01): Buffer {
  const frame = Buffer.alloc(417);
  frame[0] = 0xff;
  frame[1] = 0xe0 | (0b11 << 3) | (layerBits << 1) | 1; // MPEG-1, the given layer, no CRC
  frame[2] = 0x90; // 128 kbit/s, 44.1 kHz, no padding
  frame[3] = 0xc4; // mono
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** A FLAC stream header announcing `totalSamples` samples (no audio frames: enough to type and time it). */
export function flacFile(totalSamples: number, sampleRate = 44_100): Buffer {
  const streamInfo = Buffer.alloc(34);
  streamInfo.writeUInt16BE(4096, 0);
  streamInfo.writeUInt16BE(4096, 2);
  // sample rate (20 bits) | channels - 1 (3) | bits per sample - 1 (5) | total samples (36)
  const packed = (BigInt(sampleRate) << 44n) | (1n << 41n) | (15n << 36n) | BigInt(totalSamples);
  streamInfo.writeBigUInt64BE(packed, 10);
  return Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.from([0x80, 0, 0, 34]), streamInfo]);
}

/** The first Ogg page of an Opus or a Vorbis stream. */
export function oggFile(codec: 'opus' | 'vorbis'): Buffer {
  const packet =
    codec === 'opus'
      ? Buffer.concat([Buffer.from('OpusHead', 'latin1'), Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0])])
      : Buffer.concat([
          Buffer.from('\x01vorbis', 'latin1'),
          Buffer.from([0, 0, 0, 0, 1, 0x44, 0xac, 0, 0]),
          Buffer.alloc(12),
          Buffer.from([0xb8, 1]),
        ]);
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'latin1');
  header[5] = 0x02; // first page of the stream
  header.writeUInt32LE(1, 14); // stream serial number
  header[26] = 1; // one segment
  header[27] = packet.length;
  return Buffer.concat([header, packet]);
}

/** An ADTS AAC frame header (MPEG-4, no CRC) and some payload. */
export function adtsFile(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), Buffer.alloc(9)]);
}

/**
 * A minimal ISO-BMFF file: `ftyp` with `brand`, and a `moov` with one 30 s track whose handler is `handler`
 * (`soun` for audio, `vide` for video).
 */
export function mp4File(brand: string, handler: 'soun' | 'vide'): Buffer {
  const mp4a = box(
    'mp4a',
    Buffer.alloc(6),
    u16(1),
    u32(0, 0),
    Buffer.from([0, 2, 0, 16, 0, 0, 0, 0]),
    u32((44_100 << 16) >>> 0),
  );
  const stbl = box(
    'stbl',
    box('stsd', u32(0, 1), mp4a),
    box('stts', u32(0, 1, 1292, 1024)),
    box('stsc', u32(0, 1, 1, 2, 1)),
    box('stsz', u32(0, 0, 2, 50, 50)),
    box('stco', u32(0, 1, 0)),
  );
  const trak = box(
    'trak',
    box('tkhd', u32(7, 0, 0, 1, 0, 30_000), Buffer.alloc(60)),
    box(
      'mdia',
      box('mdhd', u32(0, 0, 0, 44_100, 44_100 * 30), Buffer.from([0x55, 0xc4, 0, 0])),
      box('hdlr', u32(0, 0), Buffer.from(handler, 'latin1'), u32(0, 0, 0), Buffer.from('x\0', 'latin1')),
      box('minf', stbl),
    ),
  );
  return Buffer.concat([
    box('ftyp', Buffer.from(brand.padEnd(4), 'latin1'), u32(512), Buffer.from('isomiso2mp41', 'latin1')),
    box('moov', box('mvhd', u32(0, 0, 0, 1000, 30_000), Buffer.alloc(80)), trak),
    box('mdat', Buffer.alloc(100)),
  ]);
}

function box(type: string, ...payloads: Buffer[]): Buffer {
  const body = Buffer.concat(payloads);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

function u32(...values: number[]): Buffer {
  const bytes = Buffer.alloc(4 * values.length);
  values.forEach((value, index) => bytes.writeUInt32BE(value, 4 * index));
  return bytes;
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value, 0);
  return bytes;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of a few hundred bytes whose header claims `width` × `height` pixels (a decompression bomb's shape): only a
 * check of the header can refuse it for its size, since decoding it would fail on the missing pixel data.
 */
export function claimedPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface FilePart {
  data: Buffer;
  /** `""` with no bytes is what a browser sends for a file input left empty. */
  filename: string;
  /** The client's claimed type (application/octet-stream when left out): the server must not trust it. */
  type?: string;
}

/** A form field: text, or a file. */
export type FormValue = string | FilePart;

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
}

function newBoundary(): string {
  return `----tonearm${randomBytes(8).toString('hex')}`;
}

function textPart(boundary: string, name: string, value: string): Buffer {
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

function fileHead(boundary: string, name: string, filename: string, type = 'application/octet-stream'): Buffer {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
}

function* fieldParts(boundary: string, fields: Record<string, FormValue>): Generator<Buffer> {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      yield textPart(boundary, name, value);
    } else {
      yield fileHead(boundary, name, value.filename, value.type);
      yield value.data;
      yield Buffer.from('\r\n');
    }
  }
}

/** A multipart/form-data body and its content-type, as a browser's FormData sends it, for app.inject or fetch. */
export function multipartBody(fields: Record<string, FormValue>): MultipartBody {
  const boundary = newBoundary();
  const payload = Buffer.concat([...fieldParts(boundary, fields), Buffer.from(`--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A streamed multipart body: the `fields` (text and small files) first, then one file part carrying `fileBytes`
 * generated bytes that start with `head`, for the size limits. Nothing of that size is ever held in memory.
 */
export function streamedMultipart(
  fields: Record<string, FormValue>,
  file: { field: string; filename: string; head: Buffer; fileBytes: number },
): { stream: Readable; contentType: string } {
  const boundary = newBoundary();
  const chunk = Buffer.alloc(1024 * 1024, 0x55);
  function* body(): Generator<Buffer> {
    yield* fieldParts(boundary, fields);
    yield fileHead(boundary, file.field, file.filename);
    yield file.head;
    let left = file.fileBytes - file.head.length;
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      yield piece;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { stream: Readable.from(body()), contentType: `multipart/form-data; boundary=${boundary}` };
}
