import type { Readable } from 'node:stream';
import type { BlobKind, BlobStat, BlobStore, ByteRange, PresignOptions } from '../storage/blob-store.js';

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
}

/** A blob of the store as a media source. */
function blobSource(store: BlobStore, kind: BlobKind, key: string): MediaSource {
  return new BlobSource(store, kind, key);
}

/** The one answer to "where are this song's bytes" (and an image's). */
export interface MediaSources {
  audioOf(song: { audioKey: string }): MediaSource;
  imageOf(imageKey: string): MediaSource;
  /** The bytes a /media URL names by their key (`/media/audio/<key>`, `/media/images/<key>`). */
  byKey(kind: BlobKind, key: string): MediaSource;
}

/** Every song's audio and every image as a blob of the store (the only kind of source so far). */
export function storedMediaSources(store: BlobStore): MediaSources {
  return {
    audioOf: (song) => blobSource(store, 'audio', song.audioKey),
    imageOf: (imageKey) => blobSource(store, 'image', imageKey),
    byKey: (kind, key) => blobSource(store, kind, key),
  };
}
