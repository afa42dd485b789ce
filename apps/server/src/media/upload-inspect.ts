import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import type { IAudioMetadata, IFormat } from 'music-metadata';
import { embeddedLyricsOf, type FileLyrics } from './file-lyrics.js';
import { unsupportedMediaType } from '../http/errors.js';
import type { BlobKind, BlobStore, StagedBlob } from '../storage/blob-store.js';
import { AUDIO_FORMATS, AUDIO_ONLY_MP4, GENERIC_MP4_EXT, IMAGE_FORMATS, type MediaFormat } from './media.formats.js';

/** What the stream carried: the staged bytes and their sha256 (hex), computed on the way to disk. */
export interface MeteredBlob {
  staged: StagedBlob;
  sha256: string;
}

export interface UploadLimit {
  maxBytes: number;
  /** The 413 error to fail with once the stream passes `maxBytes`. */
  tooLarge: () => Error;
}

/**
 * Counts and hashes the bytes that pass through, and fails the stream as soon as it carries more than `maxBytes`
 * (the byte that crosses the limit is never written), so an oversized upload costs at most `maxBytes` of disk.
 */
export class UploadMeter extends Transform {
  private readonly hash = createHash('sha256');
  private bytes = 0;

  constructor(private readonly limit: UploadLimit) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit.maxBytes) {
      callback(this.limit.tooLarge());
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** The sha256 of everything that passed; call once, after the stream finished. */
  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Streams `source` into a staged blob of the store, hashing it on the way and enforcing the size limit. On any failure
 * (limit passed, client gone) nothing stays behind: the store removes its temp file and the source is destroyed.
 */
export async function stageMetered(
  store: BlobStore,
  kind: BlobKind,
  source: Readable | Buffer,
  limit: UploadLimit,
): Promise<MeteredBlob> {
  if (Buffer.isBuffer(source)) {
    if (source.length > limit.maxBytes) throw limit.tooLarge();
    const staged = await store.stage(kind, source);
    return { staged, sha256: createHash('sha256').update(source).digest('hex') };
  }
  const meter = new UploadMeter(limit);
  // pipeline (not pipe) forwards a source error into the meter and destroys the source when the meter fails.
  const metered = pipeline(source, meter, () => undefined);
  try {
    const staged = await store.stage(kind, metered);
    return { staged, sha256: meter.digest() };
  } catch (error) {
    // If the store failed before reading (disk full, no permission), stop the upload too.
    metered.destroy();
    throw error;
  }
}

export interface AudioInspection {
  format: MediaFormat;
  /** Playing time in whole milliseconds, or null when the container does not say. */
  durationMs: number | null;
  /** The lyrics its tags carry (file-lyrics.ts); tags that hold no usable lyrics give none. */
  lyrics: FileLyrics | null;
}

/**
 * The accepted audio format of a staged file, decided by its magic bytes, never by its name or the client's MIME type,
 * plus its duration. Throws 415 (`wrongType`, with `field`) for anything else. A damaged file of an accepted format is
 * kept with an unknown duration: the browser is the final judge of what it can play.
 */
export async function inspectAudio(filePath: string, field: string, wrongType: string): Promise<AudioInspection> {
  const detected = await detectFileType(filePath);
  const known = detected ? AUDIO_FORMATS[detected.ext] : undefined;
  if (!known && detected?.ext !== GENERIC_MP4_EXT) throw unsupportedMediaType(wrongType, field);
  const metadata = await readAudioMetadata(filePath);
  const format = known ?? (metadata && isAudioOnly(metadata.format) ? AUDIO_ONLY_MP4 : undefined);
  if (!format) throw unsupportedMediaType(wrongType, field);
  return {
    format,
    durationMs: metadata ? durationMsOf(metadata.format) : null,
    lyrics: metadata ? embeddedLyricsOf(metadata).lyrics : null,
  };
}

/** The accepted image format of a staged file by its magic bytes; 415 naming the accepted types otherwise. */
export async function detectImageFormat(filePath: string, field: string, wrongType: string): Promise<MediaFormat> {
  const detected = await detectFileType(filePath);
  const format = detected ? IMAGE_FORMATS[detected.ext] : undefined;
  if (format) return format;
  throw unsupportedMediaType(wrongType, field);
}

// file-type and music-metadata are imported on the first upload: a server that only streams never loads them.
async function detectFileType(filePath: string) {
  const { fileTypeFromFile } = await import('file-type');
  return fileTypeFromFile(filePath);
}

/**
 * Reads headers and tags only: an MP3 without a Xing/Info frame gets its duration estimated from its size, as players
 * do.
 */
async function readAudioMetadata(filePath: string): Promise<IAudioMetadata | null> {
  const { parseFile } = await import('music-metadata');
  try {
    return await parseFile(filePath, { skipCovers: true, duration: false });
  } catch {
    return null;
  }
}

function durationMsOf(format: IFormat): number | null {
  const seconds = format.duration;
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null;
}

function isAudioOnly(format: IFormat): boolean {
  return format.hasVideo === false && format.trackInfo.some((track) => track.audio !== undefined);
}
