/**
 * Writes ID3v2.4 tags (title, artist, genre, an embedded front cover) into a WAV file's `id3 ` chunk, the way Picard
 * and foobar2000 tag WAV files, and music-metadata reads them back. Used to build import test corpora: real, tagged
 * audio produced without any encoder.
 */

export interface AudioTags {
  title?: string;
  artist?: string;
  genre?: string;
  cover?: { mime: string; data: Buffer };
}

/** ID3v2 sizes are "synchsafe": 7 bits per byte, so no byte of the size can look like an MPEG frame sync. */
function synchsafe(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt8((value >> 21) & 0x7f, 0);
  bytes.writeUInt8((value >> 14) & 0x7f, 1);
  bytes.writeUInt8((value >> 7) & 0x7f, 2);
  bytes.writeUInt8(value & 0x7f, 3);
  return bytes;
}

function frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, 'latin1'), synchsafe(body.length), Buffer.alloc(2), body]);
}

const UTF8 = 3;
const FRONT_COVER = 3;

function textFrame(id: string, text: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([UTF8]), Buffer.from(text, 'utf8')]));
}

function pictureFrame(mime: string, data: Buffer): Buffer {
  return frame(
    'APIC',
    Buffer.concat([Buffer.from([UTF8]), Buffer.from(`${mime}\0`, 'latin1'), Buffer.from([FRONT_COVER, 0]), data]),
  );
}

/** A complete ID3v2.4 tag. */
export function id3v2Tag(tags: AudioTags): Buffer {
  const frames: Buffer[] = [];
  if (tags.title !== undefined) frames.push(textFrame('TIT2', tags.title));
  if (tags.artist !== undefined) frames.push(textFrame('TPE1', tags.artist));
  if (tags.genre !== undefined) frames.push(textFrame('TCON', tags.genre));
  if (tags.cover !== undefined) frames.push(pictureFrame(tags.cover.mime, tags.cover.data));
  const body = Buffer.concat(frames);
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0]), synchsafe(body.length), body]);
}

/** A copy of a RIFF/WAVE file with an `id3 ` chunk appended and the RIFF size updated. */
export function tagWav(wav: Buffer, tags: AudioTags): Buffer {
  if (wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('Not a RIFF/WAVE file');
  }
  const tag = id3v2Tag(tags);
  const header = Buffer.alloc(8);
  header.write('id3 ', 0, 'latin1');
  header.writeUInt32LE(tag.length, 4);
  // RIFF chunks are word-aligned: an odd-sized chunk is followed by one pad byte.
  const pad = Buffer.alloc(tag.length % 2);
  const tagged = Buffer.concat([wav, header, tag, pad]);
  tagged.writeUInt32LE(tagged.length - 8, 4);
  return tagged;
}
