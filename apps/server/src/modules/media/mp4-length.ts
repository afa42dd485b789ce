import { open } from 'node:fs/promises';

/**
 * How long an MP4's audio really is, from its gapless info: ffmpeg trims an AAC track's encoder delay (the edit list's
 * start, iTunes' priming) but decodes the padding after the last real sample, which a gapless join would play as a
 * click. The gapless stream (`?format=gapless`) cuts the decode to this length.
 */

/** A moov larger than this is not read (a one-hour AAC track's moov is about 1 MB). */
const MOOV_MAX_BYTES = 16 * 1024 * 1024;

interface Box {
  type: string;
  /** The box's content, without its header. */
  body: Buffer;
}

/** The boxes one after another in `data` (a truncated last box is left out). */
export function boxesOf(data: Buffer): Box[] {
  const boxes: Box[] = [];
  let at = 0;
  while (at + 8 <= data.length) {
    let size = data.readUInt32BE(at);
    let header = 8;
    if (size === 1 && at + 16 <= data.length) {
      size = Number(data.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = data.length - at;
    }
    if (size < header || at + size > data.length) break;
    boxes.push({ type: data.toString('latin1', at + 4, at + 8), body: data.subarray(at + header, at + size) });
    at += size;
  }
  return boxes;
}

function child(body: Buffer | undefined, type: string, skip = 0): Buffer | undefined {
  if (body === undefined) return undefined;
  return boxesOf(body.subarray(skip)).find((box) => box.type === type)?.body;
}

/** `mvhd` or `mdhd`: [timescale, duration] (version 0 or 1). */
function timing(header: Buffer | undefined): [number, number] | null {
  if (header === undefined || header.length < 20) return null;
  if (header[0] === 1) {
    if (header.length < 32) return null;
    return [header.readUInt32BE(20), Number(header.readBigUInt64BE(24))];
  }
  return [header.readUInt32BE(12), header.readUInt32BE(16)];
}

/** The first sound track's `trak` body. */
function soundTrack(moov: Buffer): Buffer | undefined {
  return boxesOf(moov)
    .filter((box) => box.type === 'trak')
    .map((box) => box.body)
    .find((trak) => {
      const handler = child(child(trak, 'mdia'), 'hdlr');
      return handler !== undefined && handler.length >= 12 && handler.toString('latin1', 8, 12) === 'soun';
    });
}

/** iTunes' `iTunSMPB` text: " 00000000 <priming> <padding> <sample count> …" (hexadecimal), its sample count. */
export function itunesSampleCount(text: string): number | null {
  const fields = text.trim().split(/\s+/);
  const count = fields[3] === undefined ? Number.NaN : Number.parseInt(fields[3], 16);
  return Number.isSafeInteger(count) && count > 0 ? count : null;
}

function itunesSmpb(moov: Buffer): string | null {
  const ilst = child(child(child(moov, 'udta'), 'meta', 4), 'ilst');
  if (ilst === undefined) return null;
  for (const item of boxesOf(ilst)) {
    if (item.type !== '----') continue;
    const parts = boxesOf(item.body);
    const name = parts.find((box) => box.type === 'name')?.body;
    const data = parts.find((box) => box.type === 'data')?.body;
    if (name && data && name.toString('latin1', 4) === 'iTunSMPB') return data.toString('latin1', 8);
  }
  return null;
}

/** The first edit that plays media (`media_time` not -1): its duration in the movie's timescale. */
function editDuration(elst: Buffer | undefined): number | null {
  if (elst === undefined || elst.length < 8) return null;
  const version = elst[0];
  const count = elst.readUInt32BE(4);
  const entrySize = version === 1 ? 20 : 12;
  for (let index = 0; index < count && 8 + (index + 1) * entrySize <= elst.length; index += 1) {
    const at = 8 + index * entrySize;
    const duration = version === 1 ? Number(elst.readBigUInt64BE(at)) : elst.readUInt32BE(at);
    const mediaTime = version === 1 ? elst.readBigInt64BE(at + 8) : BigInt(elst.readInt32BE(at + 4));
    if (mediaTime !== -1n) return duration > 0 ? duration : null;
  }
  return null;
}

/**
 * The audio's length in seconds from the `moov` box's body: iTunes' `iTunSMPB` sample count (exact), else the sound
 * track's edit list (as exact as the movie's timescale: ffmpeg writes milliseconds unless told otherwise), else null.
 */
export function mp4AudioSeconds(moov: Buffer): number | null {
  const trak = soundTrack(moov);
  const media = timing(child(child(trak, 'mdia'), 'mdhd'));
  const smpb = itunesSmpb(moov);
  const samples = smpb === null ? null : itunesSampleCount(smpb);
  if (samples !== null && media !== null && media[0] > 0) return samples / media[0];
  const movie = timing(child(moov, 'mvhd'));
  const edit = editDuration(child(child(trak, 'edts'), 'elst'));
  if (edit !== null && movie !== null && movie[0] > 0) return edit / movie[0];
  return null;
}

/** Reads the `moov` of an MP4 file (wherever it sits) and answers mp4AudioSeconds of it; null when there is none. */
export async function readMp4AudioSeconds(path: string): Promise<number | null> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(16);
    let at = 0;
    while (at + 8 <= size) {
      const { bytesRead } = await file.read(header, 0, 16, at);
      if (bytesRead < 8) return null;
      let boxSize = header.readUInt32BE(0);
      let headerSize = 8;
      if (boxSize === 1 && bytesRead === 16) {
        boxSize = Number(header.readBigUInt64BE(8));
        headerSize = 16;
      } else if (boxSize === 0) {
        boxSize = size - at;
      }
      if (boxSize < headerSize) return null;
      if (header.toString('latin1', 4, 8) === 'moov') {
        const length = boxSize - headerSize;
        if (length > MOOV_MAX_BYTES) return null;
        const moov = Buffer.alloc(length);
        await file.read(moov, 0, length, at + headerSize);
        return mp4AudioSeconds(moov);
      }
      at += boxSize;
    }
    return null;
  } finally {
    await file.close();
  }
}
