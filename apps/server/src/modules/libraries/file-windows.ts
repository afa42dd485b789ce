import type { FileHandle } from 'node:fs/promises';
import {
  AbstractTokenizer,
  EndOfStreamError,
  type IRandomAccessFileInfo,
  type IRandomAccessTokenizer,
  type IReadChunkOptions,
} from 'strtok3';

/**
 * How many bytes one read of a file brings into memory. A tag parser reads a file in many small pieces (a frame
 * header, an atom, an Ogg page): each a read of its own cost a round trip through libuv's thread pool, about as much
 * main-thread time as parsing the piece (a fifth of a library scan's time). Read in windows, they are answered from
 * memory.
 */
export const WINDOW_BYTES = 64 * 1024;
/** Windows kept per file: the head, the tail and the few the parser is walking through. */
const WINDOWS_KEPT = 6;

interface Window {
  start: number;
  bytes: Buffer;
}

/**
 * An open file read in windows of WINDOW_BYTES: the head and the tail first (a fingerprint and the tags at either
 * end), then wherever the parser goes; a read larger than a window goes straight to the file. The handle stays the
 * caller's to close.
 */
export class FileWindows {
  private windows: Window[] = [];
  /** Where the file was seen to end (a read came back short), if it was. */
  private end = Number.POSITIVE_INFINITY;

  constructor(
    private readonly handle: FileHandle,
    /** The file's size as stat-ed; reads still go on to the real end. */
    readonly size: number,
  ) {}

  /** Reads the head and the tail window (the whole file when it is no larger than two windows), both at once. */
  async preload(): Promise<void> {
    if (this.size <= 2 * WINDOW_BYTES) {
      await this.load(0, Math.max(this.size, 1));
      return;
    }
    await Promise.all([this.load(0, WINDOW_BYTES), this.load(this.size - WINDOW_BYTES, WINDOW_BYTES)]);
  }

  /**
   * The `length` bytes at `position` (fewer only at the end of the file): a view of a window when one holds them,
   * else read.
   */
  async bytes(position: number, length: number): Promise<Uint8Array> {
    const window = this.holding(position, length);
    if (window !== undefined) {
      const at = position - window.start;
      return window.bytes.subarray(at, at + Math.min(length, this.end - position));
    }
    const target = Buffer.allocUnsafe(length);
    return target.subarray(0, await this.copy(target, length, position));
  }

  /** Copies the `length` bytes at `position` into the start of `target`; answers how many (fewer only at the end). */
  async copy(target: Uint8Array, length: number, position: number): Promise<number> {
    if (length === 0 || position >= this.end) return 0;
    let window = this.holding(position, length);
    if (window === undefined) {
      if (length > WINDOW_BYTES) return this.readInto(target, length, position);
      const wanted = position < this.size ? Math.min(WINDOW_BYTES, this.size - position) : length;
      window = await this.load(position, Math.max(length, wanted));
    }
    const at = position - window.start;
    const count = Math.max(0, Math.min(length, window.bytes.length - at));
    target.set(window.bytes.subarray(at, at + count), 0);
    return count;
  }

  /** A window that holds [position, position + length), or the part of it before the file's end. */
  private holding(position: number, length: number): Window | undefined {
    const until = Math.min(position + length, this.end);
    return this.windows.find((w) => w.start <= position && until <= w.start + w.bytes.length);
  }

  private async load(start: number, length: number): Promise<Window> {
    const bytes = Buffer.allocUnsafe(length);
    const filled = await this.readInto(bytes, length, start);
    const window = { start, bytes: filled < length ? bytes.subarray(0, filled) : bytes };
    this.windows.unshift(window);
    if (this.windows.length > WINDOWS_KEPT) this.windows.pop();
    return window;
  }

  /** Reads until `length` bytes are in or the file ends (which it then remembers). */
  private async readInto(target: Uint8Array, length: number, position: number): Promise<number> {
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.handle.read(target, filled, length - filled, position + filled);
      if (bytesRead === 0) {
        this.end = Math.min(this.end, position + filled);
        break;
      }
      filled += bytesRead;
    }
    return filled;
  }
}

/**
 * strtok3's tokenizer (what music-metadata parses from) over FileWindows: random access, like its own file
 * tokenizer, but a parser's small reads cost no system call. Closing it leaves the file open.
 */
export class WindowTokenizer extends AbstractTokenizer implements IRandomAccessTokenizer {
  fileInfo: IRandomAccessFileInfo;

  constructor(
    private readonly windows: FileWindows,
    /** The file's path: music-metadata picks its parser by the extension. */
    path: string,
  ) {
    super();
    this.fileInfo = { path, size: windows.size };
  }

  async readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    this.position = position;
    const count = await this.windows.copy(target, length, position);
    this.position += count;
    if (!mayBeLess && count < length) throw new EndOfStreamError();
    return count;
  }

  async peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    const count = await this.windows.copy(target, length, position);
    if (!mayBeLess && count < length) throw new EndOfStreamError();
    return count;
  }

  setPosition(position: number): void {
    this.validateLength(position, 'position');
    this.position = position;
  }

  supportsRandomAccess(): boolean {
    return true;
  }
}
