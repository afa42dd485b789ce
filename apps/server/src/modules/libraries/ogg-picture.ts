import type { IPicture } from 'music-metadata';
import type { FileWindows } from './file-windows.js';

/*
 * The cover of an Ogg Vorbis or Opus file: the first METADATA_BLOCK_PICTURE comment (base64 of a FLAC picture block)
 * of its comment header. music-metadata decodes that base64 one character at a time (atob, then a callback per byte):
 * 10–20 ms of the event loop for a cover of a few hundred KB, while listeners wait. Buffer decodes base64 natively, so
 * the scan has music-metadata skip Ogg pictures and reads them here.
 */

const PICTURE_KEY = 'METADATA_BLOCK_PICTURE=';
const PAGE_HEADER = 27;

/**
 * Whether the file is Ogg Vorbis or Opus: its first page's first packet begins `\x01vorbis` or `OpusHead`. Other Ogg
 * streams (FLAC in Ogg keeps its pictures in binary blocks) are left to music-metadata whole.
 */
export async function isOggVorbisOrOpus(windows: FileWindows): Promise<boolean> {
  const header = await read(windows, 0, PAGE_HEADER);
  if (header.length < PAGE_HEADER || header.toString('latin1', 0, 4) !== 'OggS') return false;
  const first = await read(windows, PAGE_HEADER + (header[26] ?? 0), 8);
  return first.toString('latin1', 0, 7) === '\x01vorbis' || first.toString('latin1') === 'OpusHead';
}

/**
 * The second packet of the first logical stream (the comment header of Vorbis and Opus), or null when the pages are
 * not Ogg or it would exceed `maxBytes`.
 */
async function commentPacket(windows: FileWindows, maxBytes: number): Promise<Buffer | null> {
  const parts: Uint8Array[] = [];
  let packet = 0;
  let length = 0;
  let serial: number | null = null;
  for (let position = 0; ;) {
    const header = await read(windows, position, PAGE_HEADER);
    if (header.length < PAGE_HEADER || header.toString('latin1', 0, 4) !== 'OggS') return null;
    const table = await read(windows, position + PAGE_HEADER, header[26] ?? 0);
    const payload = await read(
      windows,
      position + PAGE_HEADER + table.length,
      table.reduce((sum, size) => sum + size, 0),
    );
    const pageSerial = header.readUInt32LE(14);
    serial ??= pageSerial;
    let at = 0;
    for (const size of table) {
      if (at + size > payload.length) return null;
      if (pageSerial === serial && packet === 1) {
        length += size;
        if (length > maxBytes) return null;
        parts.push(payload.subarray(at, at + size));
      }
      at += size;
      if (pageSerial === serial && size < 255) {
        if (packet === 1) return Buffer.concat(parts);
        packet += 1;
      }
    }
    position += PAGE_HEADER + table.length + payload.length;
  }
}

/** `length` bytes at `position` in a buffer of their own (fewer at the end of the file), read through a window. */
async function read(windows: FileWindows, position: number, length: number): Promise<Buffer> {
  const target = Buffer.allocUnsafe(length);
  return target.subarray(0, await windows.copy(target, length, position));
}

/** The comments of a Vorbis (`\x03vorbis`) or Opus (`OpusTags`) comment header, as raw `KEY=value` bytes. */
function* comments(packet: Buffer): Generator<Buffer> {
  let at: number;
  if (packet.toString('latin1', 0, 7) === '\x03vorbis') at = 7;
  else if (packet.toString('latin1', 0, 8) === 'OpusTags') at = 8;
  else return;
  if (at + 4 > packet.length) return;
  at += 4 + packet.readUInt32LE(at);
  if (at + 4 > packet.length) return;
  const count = packet.readUInt32LE(at);
  at += 4;
  for (let index = 0; index < count && at + 4 <= packet.length; index += 1) {
    const size = packet.readUInt32LE(at);
    at += 4;
    if (at + size > packet.length) return;
    yield packet.subarray(at, at + size);
    at += size;
  }
}

/** A FLAC picture block: type, MIME type, description, width, height, depth, colours, then the image. */
function pictureBlock(block: Buffer): IPicture | null {
  let at = 4;
  const text = (encoding: BufferEncoding): string | null => {
    if (at + 4 > block.length) return null;
    const size = block.readUInt32BE(at);
    at += 4;
    if (at + size > block.length) return null;
    const value = block.toString(encoding, at, at + size);
    at += size;
    return value;
  };
  const format = text('latin1');
  const description = text('utf8');
  if (format === null || description === null) return null;
  at += 16;
  if (at + 4 > block.length) return null;
  const size = block.readUInt32BE(at);
  at += 4;
  if (size === 0 || at + size > block.length) return null;
  return { format, description, data: block.subarray(at, at + size) };
}

/** The first picture of an Ogg file's comment header (at most `maxBytes` of image), or null. */
export async function oggPicture(windows: FileWindows, maxBytes: number): Promise<IPicture | null> {
  // Base64 is 4/3 of the bytes; the picture block and the other comments a little more.
  const packet = await commentPacket(windows, Math.ceil((maxBytes * 4) / 3) + 64 * 1024);
  if (packet === null) return null;
  for (const comment of comments(packet)) {
    if (comment.length <= PICTURE_KEY.length) continue;
    if (comment.toString('latin1', 0, PICTURE_KEY.length).toUpperCase() !== PICTURE_KEY) continue;
    const block = Buffer.from(comment.toString('latin1', PICTURE_KEY.length), 'base64');
    const picture = pictureBlock(block);
    if (picture !== null) return picture;
  }
  return null;
}
