// The tag writers of the scan corpus (bench/scan-corpus.mjs). A corpus file is a base clip's audio, exactly as ffmpeg
// encoded it, with new tags written around it here, without an encoder and without a process per file:
// - MP3: an ID3v2.4 tag in front of the MPEG frames (the Info/Xing frame first, as LAME writes it);
// - FLAC: STREAMINFO (and SEEKTABLE) kept, a new VORBIS_COMMENT and PICTURE block, then the frames;
// - Ogg Vorbis and Opus: a new comment header packet (a cover as METADATA_BLOCK_PICTURE), the header packets paged
//   again, and every audio page renumbered with its CRC computed again (granule positions do not change);
// - M4A (AAC): the `moov` box, which ffmpeg writes after `mdat`, rebuilt with a new udta/meta/ilst, so no chunk offset
//   moves.
// `parseFile` reads any of these files back into the base and tag payload that `assemble` writes, which is how
// `retitle` changes a title in place of a tagger.

/** The formats, by the corpus name: file extension and how many header packets an Ogg stream has. */
export const FORMATS = {
  mp3: { ext: 'mp3' },
  flac: { ext: 'flac' },
  ogg: { ext: 'ogg', headerPackets: 3 },
  opus: { ext: 'opus', headerPackets: 2 },
  m4a: { ext: 'm4a' },
};

const VENDOR = 'Tonearm scan corpus';

const utf8 = (text) => Buffer.from(text, 'utf8');
const latin1 = (text) => Buffer.from(text, 'latin1');

function u32be(value) {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function u32le(value) {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

/** The tag fields every format writes, in the order written: [key, value] where the file has them. */
function fields(tags) {
  const mb = tags.musicbrainz;
  return {
    title: tags.title,
    artist: tags.artist,
    album: tags.album,
    albumArtist: tags.albumArtist,
    track: [tags.track, tags.trackTotal],
    disc: [tags.disc, tags.discTotal],
    year: String(tags.year),
    genre: tags.genre,
    composer: tags.composer ?? null,
    compilation: tags.compilation === true,
    mb: mb ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// MP3: ID3v2.4

/** ID3v2 sizes are "synchsafe": 7 bits a byte, so no byte of a size looks like an MPEG frame sync. */
function synchsafe(value) {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}

function readSynchsafe(buffer, offset) {
  return (
    ((buffer[offset] & 0x7f) << 21) |
    ((buffer[offset + 1] & 0x7f) << 14) |
    ((buffer[offset + 2] & 0x7f) << 7) |
    (buffer[offset + 3] & 0x7f)
  );
}

function id3Frame(id, ...parts) {
  const body = Buffer.concat(parts);
  return Buffer.concat([latin1(id), synchsafe(body.length), Buffer.alloc(2), body]);
}

const ID3_UTF8 = Buffer.from([3]);
const id3Text = (id, text) => id3Frame(id, ID3_UTF8, utf8(text));
const id3Txxx = (description, value) => id3Frame('TXXX', ID3_UTF8, utf8(description), Buffer.alloc(1), utf8(value));

function id3Frames(tags, cover) {
  const f = fields(tags);
  const frames = [
    id3Text('TIT2', f.title),
    id3Text('TPE1', f.artist),
    id3Text('TALB', f.album),
    id3Text('TPE2', f.albumArtist),
    id3Text('TRCK', f.track.join('/')),
    id3Text('TPOS', f.disc.join('/')),
    id3Text('TDRC', f.year),
    id3Text('TCON', f.genre),
  ];
  if (f.composer !== null) frames.push(id3Text('TCOM', f.composer));
  if (f.compilation) frames.push(id3Text('TCMP', '1'));
  if (f.mb !== null) {
    // As Picard writes them: the recording in UFID, the rest in TXXX frames.
    frames.push(
      id3Frame('UFID', latin1('http://musicbrainz.org\0'), latin1(f.mb.recordingId)),
      id3Txxx('MusicBrainz Release Track Id', f.mb.trackId),
      id3Txxx('MusicBrainz Album Id', f.mb.albumId),
      id3Txxx('MusicBrainz Artist Id', f.mb.artistId),
      id3Txxx('MusicBrainz Album Artist Id', f.mb.albumArtistId),
    );
  }
  if (cover !== null) {
    // UTF-8 description (empty, one terminating byte), picture type 3: the front cover.
    frames.push(id3Frame('APIC', ID3_UTF8, latin1('image/jpeg\0'), Buffer.from([3, 0]), cover.data));
  }
  return frames;
}

function id3FrameText(frame) {
  const encoding = frame[10];
  const body = frame.subarray(11);
  if (encoding === 3) return body.toString('utf8').replace(/\0+$/, '');
  if (encoding === 0) return body.toString('latin1').replace(/\0+$/, '');
  throw new Error(`an ID3 text frame in encoding ${encoding}: not written by this corpus`);
}

function parseMp3(buffer) {
  const frames = [];
  let audioStart = 0;
  if (buffer.toString('latin1', 0, 3) === 'ID3') {
    const version = buffer[3];
    const size = readSynchsafe(buffer, 6);
    const footer = buffer[5] & 0x10 ? 10 : 0;
    if ((version === 3 || version === 4) && (buffer[5] & 0x40) === 0) {
      for (let offset = 10; offset + 10 <= 10 + size && buffer[offset] !== 0;) {
        const length = version === 4 ? readSynchsafe(buffer, offset + 4) : buffer.readUInt32BE(offset + 4);
        frames.push(buffer.subarray(offset, offset + 10 + length));
        offset += 10 + length;
      }
    }
    audioStart = 10 + size + footer;
  }
  return { base: { audio: buffer.subarray(audioStart) }, payload: frames };
}

function assembleMp3(base, frames) {
  const length = frames.reduce((sum, frame) => sum + frame.length, 0);
  return Buffer.concat([latin1('ID3'), Buffer.from([4, 0, 0]), synchsafe(length), ...frames, base.audio]);
}

function retitleMp3(frames, change) {
  return frames.map((frame) =>
    frame.toString('latin1', 0, 4) === 'TIT2' ? id3Text('TIT2', change(id3FrameText(frame))) : frame,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Vorbis comments (FLAC, Ogg Vorbis, Opus) and the FLAC picture

function vorbisComments(tags, cover, pictureAsComment) {
  const f = fields(tags);
  const comments = [
    `TITLE=${f.title}`,
    `ARTIST=${f.artist}`,
    `ALBUM=${f.album}`,
    `ALBUMARTIST=${f.albumArtist}`,
    `TRACKNUMBER=${f.track[0]}`,
    `TRACKTOTAL=${f.track[1]}`,
    `DISCNUMBER=${f.disc[0]}`,
    `DISCTOTAL=${f.disc[1]}`,
    `DATE=${f.year}`,
    `GENRE=${f.genre}`,
  ];
  if (f.composer !== null) comments.push(`COMPOSER=${f.composer}`);
  if (f.compilation) comments.push('COMPILATION=1');
  if (f.mb !== null) {
    comments.push(
      `MUSICBRAINZ_TRACKID=${f.mb.recordingId}`,
      `MUSICBRAINZ_RELEASETRACKID=${f.mb.trackId}`,
      `MUSICBRAINZ_ALBUMID=${f.mb.albumId}`,
      `MUSICBRAINZ_ARTISTID=${f.mb.artistId}`,
      `MUSICBRAINZ_ALBUMARTISTID=${f.mb.albumArtistId}`,
    );
  }
  if (cover !== null && pictureAsComment) {
    comments.push(`METADATA_BLOCK_PICTURE=${flacPicture(cover).toString('base64')}`);
  }
  return comments;
}

/** The body of a FLAC PICTURE block (also, base64, an Ogg METADATA_BLOCK_PICTURE): a JPEG front cover. */
function flacPicture(cover) {
  const mime = latin1('image/jpeg');
  return Buffer.concat([
    u32be(3),
    u32be(mime.length),
    mime,
    u32be(0),
    u32be(cover.width),
    u32be(cover.height),
    u32be(24),
    u32be(0),
    u32be(cover.data.length),
    cover.data,
  ]);
}

function commentBody(comments) {
  const parts = [u32le(Buffer.byteLength(VENDOR)), utf8(VENDOR), u32le(comments.length)];
  for (const comment of comments) {
    const bytes = utf8(comment);
    parts.push(u32le(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

function parseCommentBody(buffer, offset) {
  let at = offset + 4 + buffer.readUInt32LE(offset);
  const count = buffer.readUInt32LE(at);
  at += 4;
  const comments = [];
  for (let i = 0; i < count; i++) {
    const length = buffer.readUInt32LE(at);
    comments.push(buffer.toString('utf8', at + 4, at + 4 + length));
    at += 4 + length;
  }
  return comments;
}

function retitleComments(comments, change) {
  return comments.map((comment) =>
    comment.slice(0, 6).toUpperCase() === 'TITLE=' ? `TITLE=${change(comment.slice(6))}` : comment,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// FLAC

const STREAMINFO = 0;
const SEEKTABLE = 3;
const VORBIS_COMMENT = 4;
const PICTURE = 6;

function parseFlac(buffer) {
  if (buffer.toString('latin1', 0, 4) !== 'fLaC') throw new Error('not a FLAC file');
  const kept = [];
  const pictures = [];
  let comments = [];
  let offset = 4;
  for (let last = false; !last;) {
    last = (buffer[offset] & 0x80) !== 0;
    const type = buffer[offset] & 0x7f;
    const length = buffer.readUIntBE(offset + 1, 3);
    const body = buffer.subarray(offset + 4, offset + 4 + length);
    if (type === STREAMINFO || type === SEEKTABLE) kept.push({ type, body });
    else if (type === VORBIS_COMMENT) comments = parseCommentBody(body, 0);
    else if (type === PICTURE) pictures.push(body);
    offset += 4 + length;
  }
  return { base: { kept, frames: buffer.subarray(offset) }, payload: { comments, pictures } };
}

function assembleFlac(base, { comments, pictures }) {
  const blocks = [
    ...base.kept,
    { type: VORBIS_COMMENT, body: commentBody(comments) },
    ...pictures.map((body) => ({ type: PICTURE, body })),
  ];
  const parts = [latin1('fLaC')];
  blocks.forEach(({ type, body }, index) => {
    const header = Buffer.alloc(4);
    header[0] = type | (index === blocks.length - 1 ? 0x80 : 0);
    header.writeUIntBE(body.length, 1, 3);
    parts.push(header, body);
  });
  parts.push(base.frames);
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------------------------
// Ogg (Vorbis and Opus)

const CRC_TABLE = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let r = i << 24;
  for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  CRC_TABLE[i] = r >>> 0;
}

/** The Ogg page checksum (CRC-32, polynomial 0x04c11db7, not reflected, initial 0) of a page whose CRC field is 0. */
function oggCrc(page) {
  let crc = 0;
  for (let i = 0; i < page.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ page[i]) & 0xff]) >>> 0;
  return crc;
}

/** Sets a page's serial number and sequence number, and its CRC. */
function sealPage(page, serial, sequence) {
  page.writeUInt32LE(serial, 14);
  page.writeUInt32LE(sequence, 18);
  page.writeUInt32LE(0, 22);
  page.writeUInt32LE(oggCrc(page), 22);
}

function oggPages(buffer) {
  const pages = [];
  for (let offset = 0; offset < buffer.length;) {
    if (buffer.toString('latin1', offset, offset + 4) !== 'OggS') throw new Error(`no Ogg page at byte ${offset}`);
    const segments = buffer[offset + 26];
    const lacing = buffer.subarray(offset + 27, offset + 27 + segments);
    const dataLength = lacing.reduce((sum, value) => sum + value, 0);
    const end = offset + 27 + segments + dataLength;
    pages.push({ raw: buffer.subarray(offset, end), lacing, data: buffer.subarray(offset + 27 + segments, end) });
    offset = end;
  }
  return pages;
}

function parseOgg(buffer, format) {
  const headerCount = FORMATS[format].headerPackets;
  const pages = oggPages(buffer);
  const packets = [];
  let parts = [];
  let firstAudioPage = -1;
  for (let p = 0; p < pages.length && firstAudioPage < 0; p++) {
    const { lacing, data } = pages[p];
    let at = 0;
    for (let s = 0; s < lacing.length; s++) {
      parts.push(data.subarray(at, at + lacing[s]));
      at += lacing[s];
      if (lacing[s] < 255) {
        packets.push(Buffer.concat(parts));
        parts = [];
        if (packets.length === headerCount) {
          if (s !== lacing.length - 1) throw new Error('audio data on the last header page');
          firstAudioPage = p + 1;
          break;
        }
      }
    }
  }
  if (firstAudioPage < 0) throw new Error('the Ogg header packets never end');
  const comment = packets[1];
  const prefix = format === 'ogg' ? 7 : 8;
  const expected = format === 'ogg' ? '\x03vorbis' : 'OpusTags';
  if (comment.toString('latin1', 0, prefix) !== expected) throw new Error(`no ${expected} packet`);
  return {
    base: {
      serial: pages[0].raw.readUInt32LE(14),
      ident: packets[0],
      setup: packets.slice(2),
      audioPages: pages.slice(firstAudioPage).map((page) => page.raw),
    },
    payload: parseCommentBody(comment, prefix),
  };
}

/** Header packets as pages: granule 0 on a page where a packet ends, -1 where none does; 255 segments at most. */
function headerPages(packets, firstPageFlags) {
  const pages = [];
  let lacing = [];
  let chunks = [];
  let ends = false;
  // Whether the page being filled starts with the rest of a packet begun on the page before.
  let continued = false;
  const flush = () => {
    const data = Buffer.concat(chunks);
    const page = Buffer.alloc(27 + lacing.length + data.length);
    page.write('OggS', 0, 'latin1');
    page[5] = (pages.length === 0 ? firstPageFlags : 0) | (continued ? 0x01 : 0);
    if (ends) page.writeBigUInt64LE(0n, 6);
    else page.writeBigInt64LE(-1n, 6);
    page[26] = lacing.length;
    Buffer.from(lacing).copy(page, 27);
    data.copy(page, 27 + lacing.length);
    pages.push(page);
    lacing = [];
    chunks = [];
    ends = false;
  };
  for (const packet of packets) {
    let at = 0;
    for (;;) {
      const size = Math.min(255, packet.length - at);
      lacing.push(size);
      chunks.push(packet.subarray(at, at + size));
      at += size;
      const done = size < 255;
      if (done) ends = true;
      if (lacing.length === 255) {
        flush();
        continued = !done;
      }
      if (done) break;
    }
  }
  if (lacing.length > 0) flush();
  return pages;
}

function commentPacket(format, comments) {
  if (format === 'ogg') return Buffer.concat([latin1('\x03vorbis'), commentBody(comments), Buffer.from([1])]);
  return Buffer.concat([latin1('OpusTags'), commentBody(comments)]);
}

function assembleOgg(format, base, comments, serial = base.serial) {
  // The identification header alone on the first page (beginning of stream); the comment header (and Vorbis's setup
  // header) on the next pages, ending with the last header; then the audio pages as they were, renumbered.
  const pages = [
    ...headerPages([base.ident], 0x02),
    ...headerPages([commentPacket(format, comments), ...base.setup], 0),
  ];
  const total = pages.reduce((sum, page) => sum + page.length, 0) + base.audioPages.reduce((s, p) => s + p.length, 0);
  const output = Buffer.allocUnsafe(total);
  let offset = 0;
  let sequence = 0;
  for (const page of [...pages, ...base.audioPages]) {
    page.copy(output, offset);
    sealPage(output.subarray(offset, offset + page.length), serial, sequence++);
    offset += page.length;
  }
  return output;
}

// ---------------------------------------------------------------------------------------------------------------
// M4A: the iTunes ilst in moov/udta/meta

function box(type, ...parts) {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32be(8 + body.length), latin1(type), body]);
}

function boxes(buffer, start, end) {
  const found = [];
  for (let offset = start; offset + 8 <= end;) {
    let size = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(buffer.readBigUInt64BE(offset + 8));
    else if (size === 0) size = end - offset;
    if (size < 8 || offset + size > end) throw new Error(`a ${type} box of ${size} bytes at ${offset} overruns`);
    found.push({ type, start: offset, end: offset + size, raw: buffer.subarray(offset, offset + size) });
    offset += size;
  }
  return found;
}

const dataBox = (type, ...value) => box('data', u32be(type), u32be(0), ...value);
const DATA_UTF8 = 1;
const DATA_IMPLICIT = 0;
const DATA_JPEG = 13;
const DATA_INTEGER = 21;

const textItem = (type, text) => box(type, dataBox(DATA_UTF8, utf8(text)));

function pairItem(type, number, total, trailing) {
  const value = Buffer.alloc(4 + trailing);
  value.writeUInt16BE(number, 2);
  value.writeUInt16BE(total, 4);
  return box(type, dataBox(DATA_IMPLICIT, value));
}

function freeformItem(name, text) {
  return box(
    '----',
    box('mean', Buffer.alloc(4), latin1('com.apple.iTunes')),
    box('name', Buffer.alloc(4), latin1(name)),
    dataBox(DATA_UTF8, utf8(text)),
  );
}

function ilstItems(tags, cover) {
  const f = fields(tags);
  const items = [
    textItem('\xa9nam', f.title),
    textItem('\xa9ART', f.artist),
    textItem('\xa9alb', f.album),
    textItem('aART', f.albumArtist),
    pairItem('trkn', f.track[0], f.track[1], 4),
    pairItem('disk', f.disc[0], f.disc[1], 2),
    textItem('\xa9day', f.year),
    textItem('\xa9gen', f.genre),
  ];
  if (f.composer !== null) items.push(textItem('\xa9wrt', f.composer));
  if (f.compilation) items.push(box('cpil', dataBox(DATA_INTEGER, Buffer.from([1]))));
  if (f.mb !== null) {
    items.push(
      freeformItem('MusicBrainz Track Id', f.mb.recordingId),
      freeformItem('MusicBrainz Release Track Id', f.mb.trackId),
      freeformItem('MusicBrainz Album Id', f.mb.albumId),
      freeformItem('MusicBrainz Artist Id', f.mb.artistId),
      freeformItem('MusicBrainz Album Artist Id', f.mb.albumArtistId),
    );
  }
  if (cover !== null) items.push(box('covr', dataBox(DATA_JPEG, cover.data)));
  return items;
}

function parseM4a(buffer) {
  const top = boxes(buffer, 0, buffer.length);
  const moov = top.find((b) => b.type === 'moov');
  const mdat = top.find((b) => b.type === 'mdat');
  // With moov after the media data, a bigger moov moves no sample: the chunk offsets stay right.
  if (moov === undefined || mdat === undefined || moov.start < mdat.start) throw new Error('moov must follow mdat');
  const children = boxes(buffer, moov.start + 8, moov.end);
  let items = [];
  const udta = children.find((b) => b.type === 'udta');
  const meta = udta && boxes(buffer, udta.start + 8, udta.end).find((b) => b.type === 'meta');
  const ilst = meta && boxes(buffer, meta.start + 12, meta.end).find((b) => b.type === 'ilst');
  if (ilst) items = boxes(buffer, ilst.start + 8, ilst.end).map((b) => b.raw);
  return {
    base: {
      head: buffer.subarray(0, moov.start),
      moov: children.filter((b) => b.type !== 'udta').map((b) => b.raw),
      tail: buffer.subarray(moov.end),
    },
    payload: items,
  };
}

/** The handler box of an iTunes metadata `meta`: handler type mdir, manufacturer appl. */
const MDIR_HANDLER = box('hdlr', Buffer.alloc(8), latin1('mdirappl'), Buffer.alloc(9));

function assembleM4a(base, items) {
  const udta = box('udta', box('meta', Buffer.alloc(4), MDIR_HANDLER, box('ilst', ...items)));
  return Buffer.concat([base.head, box('moov', ...base.moov, udta), base.tail]);
}

function retitleM4a(items, change) {
  return items.map((item) => {
    if (item.toString('latin1', 4, 8) !== '\xa9nam') return item;
    // item header (8), data header (8), type (4), locale (4), then the text.
    const data = boxes(item, 8, item.length).find((b) => b.type === 'data');
    return textItem('\xa9nam', change(data.raw.toString('utf8', 16)));
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** Splits a file of this format into the audio part kept as is and its tag payload. */
export function parseAudio(format, buffer) {
  if (format === 'mp3') return parseMp3(buffer);
  if (format === 'flac') return parseFlac(buffer);
  if (format === 'ogg' || format === 'opus') return parseOgg(buffer, format);
  if (format === 'm4a') return parseM4a(buffer);
  throw new Error(`no format ${format}`);
}

/** The tag payload of a file: the tags (see scan-corpus-plan.mjs) and a cover ({ data, width, height }) or null. */
export function tagPayload(format, tags, cover) {
  if (format === 'mp3') return id3Frames(tags, cover);
  if (format === 'flac') {
    return { comments: vorbisComments(tags, null, false), pictures: cover === null ? [] : [flacPicture(cover)] };
  }
  if (format === 'ogg' || format === 'opus') return vorbisComments(tags, cover, true);
  if (format === 'm4a') return ilstItems(tags, cover);
  throw new Error(`no format ${format}`);
}

/** A file: the audio part of `base` (from parseAudio) with `payload` as its tags; `serial` names an Ogg stream. */
export function assemble(format, base, payload, serial) {
  if (format === 'mp3') return assembleMp3(base, payload);
  if (format === 'flac') return assembleFlac(base, payload);
  if (format === 'ogg' || format === 'opus') return assembleOgg(format, base, payload, serial);
  if (format === 'm4a') return assembleM4a(base, payload);
  throw new Error(`no format ${format}`);
}

/** The same file with its title tag changed by `change(title)`, everything else kept. */
export function retitle(format, buffer, change) {
  const { base, payload } = parseAudio(format, buffer);
  if (format === 'mp3') return assembleMp3(base, retitleMp3(payload, change));
  if (format === 'flac') return assembleFlac(base, { ...payload, comments: retitleComments(payload.comments, change) });
  if (format === 'ogg' || format === 'opus') return assembleOgg(format, base, retitleComments(payload, change));
  if (format === 'm4a') return assembleM4a(base, retitleM4a(payload, change));
  throw new Error(`no format ${format}`);
}

/** The corpus format of a file name, by its extension. */
export function formatOf(file) {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  const format = Object.keys(FORMATS).find((name) => FORMATS[name].ext === ext);
  if (format === undefined) throw new Error(`${file}: not a corpus format`);
  return format;
}
