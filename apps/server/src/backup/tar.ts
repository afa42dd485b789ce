import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

/*
 * Just enough of the POSIX tar format (ustar, with a pax header for long names) for a backup archive: regular files
 * only, written and read by position in a file, so `tar tf` and `tar xf` can open a Tonearm backup too.
 */

const BLOCK = 512;
/** The largest size the 11 octal digits of ustar hold; past it the size is written base-256 (GNU, bsdtar and star). */
const MAX_OCTAL_SIZE = 0o77777777777;
const USTAR_NAME = 100;

export interface TarEntry {
  name: string;
  size: number;
  /** Byte offset of the entry's content in the archive. */
  offset: number;
}

export interface WrittenEntry {
  size: number;
  sha256: string;
}

/** Thrown when an archive is not a tar file this code wrote, or is cut short. */
export class DamagedArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedArchiveError';
  }
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'ascii');
}

function writeSize(block: Buffer, value: number): void {
  if (value <= MAX_OCTAL_SIZE) {
    writeOctal(block, 124, 12, value);
    return;
  }
  block[124] = 0x80;
  block.writeBigUInt64BE(BigInt(value), 128);
}

function header(name: string, size: number, type: '0' | 'x', mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, USTAR_NAME, 'utf8');
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeSize(block, size);
  writeOctal(block, 136, 12, Math.floor(mtime / 1000));
  block.write(type, 156, 1, 'ascii');
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  block.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeOctal(block, 148, 7, sum);
  block[155] = 0x20;
  return block;
}

/** The pax record `<length> path=<name>\n`, whose length counts its own digits. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return Buffer.from(`${length}${body}`);
}

/** The header blocks of one file: a pax header first when the name does not fit ustar's 100 bytes. */
function headerBlocks(name: string, size: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) <= USTAR_NAME) return header(name, size, '0', mtime);
  const pax = paxPath(name);
  return Buffer.concat([
    header('PaxHeader', pax.length, 'x', mtime),
    pax,
    Buffer.alloc(padding(pax.length)),
    header(name.slice(-USTAR_NAME), size, '0', mtime),
  ]);
}

/** Writes a tar archive entry by entry; each entry is hashed on the way. */
export class TarWriter {
  private position = 0;

  private constructor(private readonly file: FileHandle) {}

  /** Creates `path`, failing when it exists. */
  static async create(path: string): Promise<TarWriter> {
    return new TarWriter(await open(path, 'wx', 0o600));
  }

  /**
   * Appends `source` as the file `name`. The header is written after the bytes, once their count is known, so a source
   * that fails leaves nothing behind: the archive is cut back to where the entry began and the error is rethrown.
   */
  async add(name: string, source: Readable | Buffer): Promise<WrittenEntry> {
    const start = this.position;
    const headerLength = headerBlocks(name, 0, 0).length;
    let at = start + headerLength;
    const hash = createHash('sha256');
    try {
      const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(source) ? [source] : source;
      for await (const chunk of chunks) {
        hash.update(chunk);
        await this.writeAt(chunk, at);
        at += chunk.length;
      }
    } catch (error) {
      await this.file.truncate(start);
      throw error;
    }
    const size = at - start - headerLength;
    await this.writeAt(headerBlocks(name, size, Date.now()), start);
    await this.writeAt(Buffer.alloc(padding(size)), at);
    this.position = at + padding(size);
    return { size, sha256: hash.digest('hex') };
  }

  /** Ends the archive (two zero blocks), flushes it to disk and closes it. */
  async finish(): Promise<void> {
    await this.writeAt(Buffer.alloc(BLOCK * 2), this.position);
    await this.file.sync();
    await this.file.close();
  }

  /** Closes the file without ending the archive (after a failure). */
  async abandon(): Promise<void> {
    await this.file.close().catch(() => undefined);
  }

  private async writeAt(bytes: Buffer, position: number): Promise<void> {
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await this.file.write(bytes, written, bytes.length - written, position + written);
      written += bytesWritten;
    }
  }
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = block
    .toString('ascii', offset, offset + length)
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) throw new DamagedArchiveError('The archive has a damaged tar header');
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function readSize(block: Buffer): number {
  if ((block[124] ?? 0) & 0x80) return Number(block.readBigUInt64BE(128));
  return readOctal(block, 124, 12);
}

function checksumMatches(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  return readOctal(block, 148, 8) === sum;
}

function cString(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

function paxPathOf(data: Buffer): string | null {
  for (const record of data.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/s.exec(record);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

/** Lists the regular files of the tar archive at `path` (reading headers only) with where their bytes are. */
export async function readTarIndex(path: string): Promise<TarEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size: total } = await file.stat();
    const entries: TarEntry[] = [];
    const block = Buffer.alloc(BLOCK);
    let position = 0;
    let longName: string | null = null;
    for (;;) {
      const { bytesRead } = await file.read(block, 0, BLOCK, position);
      if (bytesRead < BLOCK) throw new DamagedArchiveError('The archive ends in the middle (is it complete?)');
      if (block.every((byte) => byte === 0)) return entries;
      if (!checksumMatches(block)) throw new DamagedArchiveError('The archive has a damaged tar header');
      const size = readSize(block);
      const type = String.fromCharCode(block[156] ?? 0);
      const offset = position + BLOCK;
      if (offset + size > total) throw new DamagedArchiveError('The archive ends in the middle (is it complete?)');
      position = offset + size + padding(size);
      if (type === 'x') {
        const data = Buffer.alloc(size);
        await file.read(data, 0, size, offset);
        longName = paxPathOf(data);
        continue;
      }
      const prefix = cString(block, 345, 155);
      const name = longName ?? (prefix === '' ? cString(block, 0, 100) : `${prefix}/${cString(block, 0, 100)}`);
      longName = null;
      if (type === '0' || type === '\0') entries.push({ name, size, offset });
    }
  } finally {
    await file.close();
  }
}

/** The bytes of one entry of the archive at `path`. */
export function openEntry(path: string, entry: TarEntry): Readable {
  if (entry.size === 0) return Readable.from([]);
  return createReadStream(path, { start: entry.offset, end: entry.offset + entry.size - 1, highWaterMark: 64 * 1024 });
}
