/**
 * Tags that ffmpeg cannot write, put into real files made by ffmpeg (audio-formats.ts): ID3v2 frames with several
 * NUL-separated values, TIPL/TMCL and UFID; repeated Vorbis comments in FLAC, Ogg Vorbis and Opus (ffmpeg joins a
 * repeated key into one "a;b" value); MP4 freeform atoms (`----:com.apple.iTunes:NAME`), which ffmpeg's muxer does
 * not write. Each helper rewrites only the tag part of the bytes it is handed and leaves the audio as it was.
 */

// ---- ID3v2 -------------------------------------------------------------------------------------------------------

/**
 * One ID3v2 frame: a text frame (TPE1, TIPL…), a TXXX frame by its description, a UFID frame, or any frame by its id
 * and body bytes (USLT, SYLT: usltFrame, syltFrame).
 */
export type Id3Frame =
  | { id: string; values: string[] }
  | { txxx: string; values: string[] }
  | { ufid: string; identifier: string }
  | { raw: string; body: Buffer };

/** Seven bits a byte, as ID3v2 writes the tag's size (and, in v2.4, each frame's). */
function syncsafe(size: number): Buffer {
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

/** A frame's body: UTF-8 text (encoding byte 3, a v2.4 encoding that music-metadata reads in v2.3 too). */
function frameBody(frame: Id3Frame): { id: string; body: Buffer } {
  if ('raw' in frame) return { id: frame.raw, body: frame.body };
  if ('ufid' in frame) {
    return { id: 'UFID', body: Buffer.from(`${frame.ufid}\0${frame.identifier}`, 'latin1') };
  }
  const text = 'txxx' in frame ? `${frame.txxx}\0${frame.values.join('\0')}` : frame.values.join('\0');
  return { id: 'txxx' in frame ? 'TXXX' : frame.id, body: Buffer.concat([Buffer.from([3]), Buffer.from(text)]) };
}

/** An ID3v2.3 or v2.4 tag holding `frames`, several values of a frame separated by NUL as v2.4 writes them. */
export function id3v2Tag(version: 3 | 4, frames: readonly Id3Frame[]): Buffer {
  const encoded = frames.map((frame) => {
    const { id, body } = frameBody(frame);
    const header = Buffer.alloc(10);
    header.write(id, 0, 'latin1');
    if (version === 4) syncsafe(body.length).copy(header, 4);
    else header.writeUInt32BE(body.length, 4);
    return Buffer.concat([header, body]);
  });
  const all = Buffer.concat(encoded);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, version, 0, 0]), syncsafe(all.length), all]);
}

/** A USLT frame (unsynchronised lyrics): UTF-8, a three-letter language, an empty descriptor, the text. */
export function usltFrame(language: string, text: string): Id3Frame {
  return { raw: 'USLT', body: Buffer.concat([Buffer.from([3]), Buffer.from(`${language}\0${text}`)]) };
}

/**
 * A SYLT frame (synchronised lyrics, ID3v2.4 §4.9): UTF-8, a language, the time format (2: milliseconds, 1: MPEG
 * frames), content type 1 (lyrics), an empty descriptor, then each text with its time (32 bits, big-endian).
 */
export function syltFrame(language: string, format: 1 | 2, entries: readonly [text: string, time: number][]): Id3Frame {
  const head = Buffer.concat([Buffer.from([3]), Buffer.from(language), Buffer.from([format, 1, 0])]);
  const body = entries.map(([text, time]) => {
    const stamp = Buffer.alloc(4);
    stamp.writeUInt32BE(time);
    return Buffer.concat([Buffer.from(`${text}\0`), stamp]);
  });
  return { raw: 'SYLT', body: Buffer.concat([head, ...body]) };
}

/** An MP3 with `tag` in place of the ID3v2 tag ffmpeg put in front of it (if any). */
export function mp3WithId3v2(mp3: Buffer, tag: Buffer): Buffer {
  const tagged = mp3.toString('latin1', 0, 3) === 'ID3';
  const size = tagged ? 10 + (((mp3[6] ?? 0) << 21) | ((mp3[7] ?? 0) << 14) | ((mp3[8] ?? 0) << 7) | (mp3[9] ?? 0)) : 0;
  return Buffer.concat([tag, mp3.subarray(size)]);
}

// ---- Vorbis comments ---------------------------------------------------------------------------------------------

export type Comments = readonly (readonly [key: string, value: string])[];

function uint32le(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

/** A Vorbis comment list: vendor, count, then each KEY=value (a key may repeat). */
function commentList(comments: Comments): Buffer {
  const vendor = Buffer.from('Tonearm tests');
  const entries = comments.map(([key, value]) => Buffer.from(`${key}=${value}`));
  return Buffer.concat([
    uint32le(vendor.length),
    vendor,
    uint32le(entries.length),
    ...entries.flatMap((entry) => [uint32le(entry.length), entry]),
  ]);
}

/** A FLAC file with its VORBIS_COMMENT block replaced by `comments` (the other blocks and the frames kept). */
export function flacWithComments(flac: Buffer, comments: Comments): Buffer {
  if (flac.toString('latin1', 0, 4) !== 'fLaC') throw new Error('not a FLAC file');
  const blocks: { type: number; body: Buffer }[] = [];
  let offset = 4;
  let last = false;
  while (!last) {
    const header = flac[offset] ?? 0;
    const length = flac.readUIntBE(offset + 1, 3);
    last = (header & 0x80) !== 0;
    blocks.push({ type: header & 0x7f, body: flac.subarray(offset + 4, offset + 4 + length) });
    offset += 4 + length;
  }
  const VORBIS_COMMENT = 4;
  const kept = blocks.filter((block) => block.type !== VORBIS_COMMENT);
  kept.splice(1, 0, { type: VORBIS_COMMENT, body: commentList(comments) });
  const encoded = kept.map((block, index) => {
    const header = Buffer.alloc(4);
    header[0] = block.type | (index === kept.length - 1 ? 0x80 : 0);
    header.writeUIntBE(block.body.length, 1, 3);
    return Buffer.concat([header, block.body]);
  });
  return Buffer.concat([flac.subarray(0, 4), ...encoded, flac.subarray(offset)]);
}

// ---- Ogg ---------------------------------------------------------------------------------------------------------

interface OggPage {
  flags: number;
  granule: Buffer;
  serial: number;
  sequence: number;
  segments: number[];
  data: Buffer;
}

function readPages(ogg: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  let offset = 0;
  while (offset < ogg.length) {
    if (ogg.toString('latin1', offset, offset + 4) !== 'OggS') throw new Error(`no Ogg page at ${offset}`);
    const count = ogg[offset + 26] ?? 0;
    const segments = [...ogg.subarray(offset + 27, offset + 27 + count)];
    const start = offset + 27 + count;
    const size = segments.reduce((sum, length) => sum + length, 0);
    pages.push({
      flags: ogg[offset + 5] ?? 0,
      granule: ogg.subarray(offset + 6, offset + 14),
      serial: ogg.readUInt32LE(offset + 14),
      sequence: ogg.readUInt32LE(offset + 18),
      segments,
      data: ogg.subarray(start, start + size),
    });
    offset = start + size;
  }
  return pages;
}

/** The CRC of an Ogg page: CRC-32, polynomial 0x04c11db7, not reflected, starting at 0. */
const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let crc = index << 24;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  return crc >>> 0;
});

function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

function writePage(page: OggPage): Buffer {
  const header = Buffer.alloc(27 + page.segments.length);
  header.write('OggS', 0, 'latin1');
  header[5] = page.flags;
  page.granule.copy(header, 6);
  header.writeUInt32LE(page.serial, 14);
  header.writeUInt32LE(page.sequence, 18);
  header[26] = page.segments.length;
  Buffer.from(page.segments).copy(header, 27);
  const bytes = Buffer.concat([header, page.data]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

/** The whole packets that `pages` hold, in order (a packet still open after the last page is left out). */
function packetsOf(pages: readonly OggPage[]): Buffer[] {
  const packets: Buffer[] = [];
  let parts: Buffer[] = [];
  for (const page of pages) {
    let offset = 0;
    for (const length of page.segments) {
      parts.push(page.data.subarray(offset, offset + length));
      offset += length;
      if (length < 255) {
        packets.push(Buffer.concat(parts));
        parts = [];
      }
    }
  }
  return packets;
}

/** Pages for header packets: lacing values of 255 for each full segment, at most 255 segments a page. */
function headerPages(packets: readonly Buffer[], serial: number, firstSequence: number): OggPage[] {
  const laced = packets.flatMap((packet) => {
    const segments: { bytes: Buffer; ends: boolean }[] = [];
    for (let offset = 0; offset <= packet.length; offset += 255) {
      const bytes = packet.subarray(offset, offset + 255);
      segments.push({ bytes, ends: bytes.length < 255 });
    }
    return segments;
  });
  const pages: OggPage[] = [];
  for (let start = 0; start < laced.length; start += 255) {
    const chunk = laced.slice(start, start + 255);
    const continued = start > 0 && !(laced[start - 1]?.ends ?? true);
    const granule = Buffer.alloc(8, chunk.some((segment) => segment.ends) ? 0 : 0xff);
    pages.push({
      flags: continued ? 1 : 0,
      granule,
      serial,
      sequence: firstSequence + pages.length,
      segments: chunk.map((segment) => segment.bytes.length),
      data: Buffer.concat(chunk.map((segment) => segment.bytes)),
    });
  }
  return pages;
}

/**
 * An Ogg Vorbis or Opus file whose comment header holds `comments`: the header packets are laid out on new pages and
 * the audio pages after them are renumbered (and their CRC computed again); the audio itself is untouched.
 */
export function oggWithComments(ogg: Buffer, comments: Comments): Buffer {
  const pages = readPages(ogg);
  const first = pages[0];
  if (first === undefined) throw new Error('an empty Ogg file');
  const opus = first.data.toString('latin1', 0, 8) === 'OpusHead';
  const headerCount = opus ? 2 : 3;
  let headerPageCount = 1;
  while (packetsOf(pages.slice(0, headerPageCount)).length < headerCount) {
    if (++headerPageCount > pages.length) throw new Error('the Ogg file ends inside its headers');
  }
  const packets = packetsOf(pages.slice(0, headerPageCount));
  if (packets.length !== headerCount) throw new Error('the last header page also holds audio');
  const comment = opus
    ? Buffer.concat([Buffer.from('OpusTags'), commentList(comments)])
    : Buffer.concat([Buffer.from([3]), Buffer.from('vorbis'), commentList(comments), Buffer.from([1])]);
  const headers = headerPages([comment, ...packets.slice(2)], first.serial, 1);
  const shift = 1 + headers.length - headerPageCount;
  const audio = pages.slice(headerPageCount).map((page) => ({ ...page, sequence: page.sequence + shift }));
  return Buffer.concat([first, ...headers, ...audio].map(writePage));
}

// ---- MP4 ---------------------------------------------------------------------------------------------------------

interface Box {
  type: string;
  start: number;
  size: number;
}

function childBoxes(file: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  for (let offset = from; offset + 8 <= to;) {
    const size = file.readUInt32BE(offset);
    if (size < 8) throw new Error(`an MP4 box of size ${size} (64-bit sizes are not handled here)`);
    boxes.push({ type: file.toString('latin1', offset + 4, offset + 8), start: offset, size });
    offset += size;
  }
  return boxes;
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** A freeform `----` atom: its mean and name, then one UTF-8 `data` atom per value (as Picard writes lists). */
function freeformAtom(name: string, values: readonly string[]): Buffer {
  const fullBox = (type: string, text: string) => box(type, Buffer.alloc(4), Buffer.from(text));
  const data = values.map((value) => box('data', Buffer.from([0, 0, 0, 1]), Buffer.alloc(4), Buffer.from(value)));
  return box('----', fullBox('mean', 'com.apple.iTunes'), fullBox('name', name), ...data);
}

/**
 * An M4A file made by ffmpeg with freeform atoms added to moov/udta/meta/ilst. ffmpeg puts the moov box after the
 * audio (no faststart), so growing it moves no sample offset; a file laid out otherwise is refused.
 */
export function m4aWithFreeform(m4a: Buffer, atoms: Readonly<Record<string, readonly string[]>>): Buffer {
  const top = childBoxes(m4a, 0, m4a.length);
  const moov = top.find((candidate) => candidate.type === 'moov');
  const mdat = top.find((candidate) => candidate.type === 'mdat');
  if (moov === undefined || mdat === undefined || moov.start < mdat.start) throw new Error('moov must follow mdat');
  const find = (parent: Box, type: string, skip = 0) => {
    const found = childBoxes(m4a, parent.start + 8 + skip, parent.start + parent.size).find((b) => b.type === type);
    if (found === undefined) throw new Error(`no ${type} box in ${parent.type}`);
    return found;
  };
  const udta = find(moov, 'udta');
  const meta = find(udta, 'meta');
  const ilst = find(meta, 'ilst', 4);
  const added = Buffer.concat(Object.entries(atoms).map(([name, values]) => freeformAtom(name, values)));
  const end = ilst.start + ilst.size;
  const grown = Buffer.concat([m4a.subarray(0, end), added, m4a.subarray(end)]);
  for (const parent of [moov, udta, meta, ilst]) grown.writeUInt32BE(parent.size + added.length, parent.start);
  return grown;
}
