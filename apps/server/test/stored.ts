/** What a test finds stored: files on disk, blobs in a store, and rows of the catalogue. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/schema.js';
import { LocalBlobStore } from '../src/storage/local-blob-store.js';

/** The names of the files anywhere under `dir` (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** The staged temp files of the blob store rooted at `root`. */
export async function tempFiles(root: string): Promise<string[]> {
  return readdir(path.join(root, 'tmp')).catch(() => []);
}

/** Everything an async iterable yields, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A blob store of its own on the test app's blobs (createTestApp keeps them in `<dataDir>/blobs`). */
export function testBlobStore(dataDir: string): LocalBlobStore {
  return new LocalBlobStore(path.join(dataDir, 'blobs'));
}

export async function countBlobs(store: LocalBlobStore, kind: 'audio' | 'image'): Promise<number> {
  return (await collect(store.list(kind))).length;
}

export interface BlobCounts {
  audio: number;
  image: number;
  tmp: number;
}

/** Files on disk in the test app's blob store (`<dataDir>/blobs`). */
export async function blobCounts(dataDir: string): Promise<BlobCounts> {
  const root = path.join(dataDir, 'blobs');
  const [audio, image, tmp] = await Promise.all(
    ['audio', 'image', 'tmp'].map((dir) => filesUnder(path.join(root, dir))),
  );
  return { audio: audio?.length ?? 0, image: image?.length ?? 0, tmp: tmp?.length ?? 0 };
}

async function rowCount(db: Kysely<DB>, table: 'songs' | 'artists'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

export const songCount = (db: Kysely<DB>) => rowCount(db, 'songs');
export const artistCount = (db: Kysely<DB>) => rowCount(db, 'artists');
