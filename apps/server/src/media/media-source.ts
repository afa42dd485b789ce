import { constants, createReadStream } from 'node:fs';
import { access, stat as fsStat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { BlobKind, BlobStat, BlobStore, ByteRange, PresignOptions } from '../storage/blob-store.js';
import { isLibraryKey } from './library-keys.js';

/**
 * Where the bytes of a song's audio, or of an image, come from. Today every source is a blob of the store
 * (content-addressed, named by its key). This is the seam for the next kinds: a file in a library folder read in place
 * (the next issue), later a remote URL. Whoever sends or converts media (the /media hot path included) asks a source,
 * never the store; a new kind is one more implementation of this and one more answer of `MediaSources`.
 */
export interface MediaSource {
  readonly kind: BlobKind;
  /** What names these bytes for caches and ETags: the blob key (a content hash) for a blob. */
  readonly key: string;
  /** Their size and modification time; null when they are gone. */
  stat(): Promise<BlobStat | null>;
  /** `stat` answered from memory after the first time (BlobStore.statCached), for paths served often. */
  statCached(): Promise<BlobStat | null>;
  /** What `statCached` remembers, without asking the disk: undefined when it knows nothing yet. */
  rememberedStat(): BlobStat | undefined;
  /** They were not there any more when read: forget what `statCached` remembers. */
  forget(): void;
  /** A URL from which anyone may GET them for a short while (S3's presigned URLs); absent when there is none. */
  presign?: (options: PresignOptions) => Promise<string>;
  /** The bytes, or the inclusive range of them. */
  open(range?: ByteRange): Readable;
  /** A file on this machine holding them (zero-copy sending, ffmpeg's input), or null when there is none. */
  localPath(): string | null;
  /** Whether they are a blob of the store (which MEDIA_OFFLOAD=nginx can send by key). */
  readonly stored: boolean;
  /**
   * Where they are in a library folder, once `stat` found them there (checked as it checks); null for a blob, or
   * before `stat`, or when it did not find them. MEDIA_OFFLOAD=nginx sends such a file from its library's location.
   */
  inLibrary(): LibraryFilePlace | null;
}

/** A library file as found on disk: its real path, its library, and its real path relative to the library's folder. */
export interface LibraryFilePlace {
  file: string;
  libraryId: number;
  /** `/` between parts, links resolved: the path of the file itself under the library's real folder. */
  relative: string;
}

/** A blob of the store as a media source (a class: the /media hot path makes one per request). */
class BlobSource implements MediaSource {
  readonly stored = true;
  readonly presign?: (options: PresignOptions) => Promise<string>;

  constructor(
    private readonly store: BlobStore,
    readonly kind: BlobKind,
    readonly key: string,
  ) {
    if (store.presign !== undefined) {
      const signs = store.presign.bind(store);
      this.presign = (options) => signs(kind, key, options);
    }
  }

  stat(): Promise<BlobStat | null> {
    return this.store.stat(this.kind, this.key);
  }

  statCached(): Promise<BlobStat | null> {
    return this.store.statCached(this.kind, this.key);
  }

  rememberedStat(): BlobStat | undefined {
    return this.store.rememberedStat(this.kind, this.key);
  }

  forget(): void {
    this.store.forget(this.kind, this.key);
  }

  open(range?: ByteRange): Readable {
    return this.store.openRead(this.kind, this.key, range);
  }

  localPath(): string | null {
    return this.store.localPath(this.kind, this.key);
  }

  inLibrary(): null {
    return null;
  }
}

/** A blob of the store as a media source. */
function blobSource(store: BlobStore, kind: BlobKind, key: string): MediaSource {
  return new BlobSource(store, kind, key);
}

/** Where a library file an audio key names is, checked to be inside its library; null when not. */
export interface LibraryFileLocator {
  locate(key: string): Promise<LibraryFilePlace | null>;
}

/** Makes the thumbnail a key names from an original read from a library; false when there is none to make it from. */
export interface ThumbnailMaker {
  make(thumbnailKey: string): Promise<boolean>;
}

/**
 * A file of a library folder, read in place. Its path is found (and checked to be inside the library, readable and a
 * regular file) by `stat`, which every reader calls first; nothing about it is remembered between requests, since the
 * file may change on disk at any time (its key changes with it at the next scan).
 */
class LibraryFileSource implements MediaSource {
  readonly kind = 'audio';
  readonly stored = false;
  private place: LibraryFilePlace | null = null;

  constructor(
    private readonly locator: LibraryFileLocator,
    readonly key: string,
  ) {}

  async stat(): Promise<BlobStat | null> {
    this.place = null;
    const found = await this.locator.locate(this.key);
    if (found === null) return null;
    try {
      await access(found.file, constants.R_OK);
      const stats = await fsStat(found.file);
      if (!stats.isFile()) return null;
      this.place = found;
      return { size: stats.size, mtimeMs: stats.mtimeMs };
    } catch {
      return null;
    }
  }

  statCached(): Promise<BlobStat | null> {
    return this.stat();
  }

  rememberedStat(): BlobStat | undefined {
    return undefined;
  }

  forget(): void {
    this.place = null;
  }

  open(range?: ByteRange): Readable {
    if (this.place === null) throw new Error(`library file ${this.key} opened before stat found it`);
    return createReadStream(this.place.file, range === undefined ? {} : { start: range.start, end: range.end });
  }

  localPath(): string | null {
    return this.place?.file ?? null;
  }

  inLibrary(): LibraryFilePlace | null {
    return this.place;
  }
}

/** A thumbnail of the store that, when absent, is made from its original in a library first. */
class DerivedThumbnailSource extends BlobSource {
  constructor(
    store: BlobStore,
    key: string,
    private readonly maker: ThumbnailMaker,
  ) {
    super(store, 'image', key);
  }

  override async stat(): Promise<BlobStat | null> {
    return (await super.stat()) ?? ((await this.maker.make(this.key)) ? super.stat() : null);
  }

  override async statCached(): Promise<BlobStat | null> {
    return (await super.statCached()) ?? ((await this.maker.make(this.key)) ? super.statCached() : null);
  }
}

/** The one answer to "where are this song's bytes" (and an image's). */
export interface MediaSources {
  audioOf(song: { audioKey: string }): MediaSource;
  imageOf(imageKey: string): MediaSource;
  /** The bytes a /media URL names by their key (`/media/audio/<key>`, `/media/images/<key>`). */
  byKey(kind: BlobKind, key: string): MediaSource;
}

/** What besides the store holds media: the library folders (their files, and the originals of their covers). */
export interface LibraryMedia {
  files: LibraryFileLocator;
  thumbnails: ThumbnailMaker;
}

/**
 * Audio as a blob of the store, or as a file of a library when its key is a library key (library-keys.ts); images as
 * blobs, a thumbnail not made yet being made from its library original first.
 */
export function storedMediaSources(store: BlobStore, libraries?: LibraryMedia): MediaSources {
  const byKey = (kind: BlobKind, key: string): MediaSource => {
    if (libraries === undefined) return blobSource(store, kind, key);
    if (kind === 'audio') {
      return isLibraryKey(key) ? new LibraryFileSource(libraries.files, key) : blobSource(store, kind, key);
    }
    return new DerivedThumbnailSource(store, key, libraries.thumbnails);
  };
  return {
    audioOf: (song) => byKey('audio', song.audioKey),
    imageOf: (imageKey) => byKey('image', imageKey),
    byKey,
  };
}
