import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { DB } from '../../db/schema.js';
import { LocalBlobStore } from '../../storage/local-blob-store.js';

/*
 * Test helpers shared by the playlist, plays, payments and downloads API tests: catalogue rows written straight to
 * the database (the catalogue API is another module's), multipart bodies for app.inject, and a real image.
 */

export interface TestSong {
  id: number;
  name: string;
  audioKey: string;
}

/** Inserts `count` songs (with an artist) and answers them in id order. */
export async function insertSongs(
  db: Kysely<DB>,
  count: number,
  artistName = `Artist ${randomBytes(3).toString('hex')}`,
) {
  const artist = await db
    .insertInto('artists')
    .values({ name: artistName, image_key: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const songs: TestSong[] = [];
  for (let i = 0; i < count; i += 1) {
    const sha = randomBytes(32).toString('hex');
    const name = `Song ${i + 1}`;
    const row = await db
      .insertInto('songs')
      .values({
        name,
        genre: 'Pop',
        artist_id: artist.id,
        audio_key: `${sha}.mp3`,
        audio_sha256: sha,
        mime: 'audio/mpeg',
        size_bytes: 4,
        duration_ms: 1000,
        image_key: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    songs.push({ id: row.id, name, audioKey: `${sha}.mp3` });
  }
  return songs;
}

/** The blob store the test app uses (createTestApp keeps blobs in `<dataDir>/blobs`). */
export function testBlobStore(dataDir: string): LocalBlobStore {
  return new LocalBlobStore(path.join(dataDir, 'blobs'));
}

export async function countBlobs(store: LocalBlobStore, kind: 'audio' | 'image'): Promise<number> {
  let count = 0;
  for await (const _key of store.list(kind)) count += 1;
  return count;
}

/** A small, real PNG (sharp must be able to decode covers). */
export function pngImage(width = 16, height = 16): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
}

export interface FilePart {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body and its content-type header, for app.inject. */
export function multipartBody(fields: Record<string, string>, files: Record<string, FilePart> = {}) {
  const boundary = `----tonearm${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
