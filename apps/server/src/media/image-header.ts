import { open, type FileHandle } from 'node:fs/promises';

/** Width and height in pixels, as an image's header states them. */
export interface ClaimedSize {
  width: number;
  height: number;
}

/** JPEG segments looked at before giving up on finding the frame header (real files have a dozen or so). */
const MAX_JPEG_SEGMENTS = 1024;

/**
 * The size the header of a JPEG, PNG or WebP file (by the `ext` its magic bytes gave) claims, read without any decoder:
 * the pixel limit must answer the same whether or not libvips accepts such a header (libjpeg refuses a side over
 * 65 500 pixels, libpng one over its own limits, libwebp a VP8X canvas that does not match its frame). Null when the
 * header does not say (a damaged file: the decoder's check decides then).
 */
export async function claimedImageSize(filePath: string, ext: string): Promise<ClaimedSize | null> {
  const file = await open(filePath, 'r');
  try {
    if (ext === 'png' || ext === 'apng') return await pngSize(file);
    if (ext === 'webp') return await webpSize(file);
    if (ext === 'jpg') return await jpegSize(file);
    return null;
  } finally {
    await file.close();
  }
}

async function bytesAt(file: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : null;
}

/** IHDR, which must be the first chunk: width and height as 32-bit big-endian numbers. */
async function pngSize(file: FileHandle): Promise<ClaimedSize | null> {
  const head = await bytesAt(file, 0, 24);
  if (head?.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** The first chunk of the RIFF: a lossy (VP8) or lossless (VP8L) frame, or the extended header's canvas (VP8X). */
async function webpSize(file: FileHandle): Promise<ClaimedSize | null> {
  const head = await bytesAt(file, 0, 30);
  if (head === null) return null;
  switch (head.toString('latin1', 12, 16)) {
    case 'VP8 ':
      return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
    case 'VP8L': {
      const bits = head.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
    default:
      return null;
  }
}

/** The first start-of-frame segment (SOF0..SOF15 but DHT, JPG and DAC), found by walking the segments before the scan. */
async function jpegSize(file: FileHandle): Promise<ClaimedSize | null> {
  let position = 2;
  for (let segment = 0; segment < MAX_JPEG_SEGMENTS; segment += 1) {
    const marker = await bytesAt(file, position, 2);
    if (marker?.[0] !== 0xff) return null;
    const code = marker[1] ?? 0;
    if (code === 0xff) {
      // A fill byte before the marker.
      position += 1;
    } else if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      // A marker without a length (TEM, RSTn).
      position += 2;
    } else if (code === 0xd9 || code === 0xda) {
      // The end of the image, or the scan: no frame header before it.
      return null;
    } else {
      const segmentHead = await bytesAt(file, position + 2, 7);
      if (segmentHead === null) return null;
      if (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) {
        return { width: segmentHead.readUInt16BE(5), height: segmentHead.readUInt16BE(3) };
      }
      position += 2 + segmentHead.readUInt16BE(0);
    }
  }
  return null;
}
