import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Which blob keys rows still point at. Images are shared by content (the same cover on two songs, an artist photo that
 * is also a cover), so a blob may be deleted only once no row of any table references it.
 */
export interface BlobReferencesRepository {
  isAudioReferenced(key: string): Promise<boolean>;
  isImageReferenced(key: string): Promise<boolean>;
  /** Every referenced audio key. */
  audioKeys(): Promise<Set<string>>;
  /** Every referenced image key (songs, artists, users, playlists, albums). */
  imageKeys(): Promise<Set<string>>;
}

const IMAGE_TABLES = ['songs', 'artists', 'users', 'playlists', 'albums'] as const;

export function createBlobReferencesRepository(db: Kysely<DB>): BlobReferencesRepository {
  return {
    async isAudioReferenced(key) {
      const row = await db.selectFrom('songs').select('id').where('audio_key', '=', key).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async isImageReferenced(key) {
      for (const table of IMAGE_TABLES) {
        const row = await db.selectFrom(table).select('id').where('image_key', '=', key).limit(1).executeTakeFirst();
        if (row !== undefined) return true;
      }
      return false;
    },

    async audioKeys() {
      const rows = await db.selectFrom('songs').select('audio_key').execute();
      return new Set(rows.map((row) => row.audio_key));
    },

    async imageKeys() {
      const keys = new Set<string>();
      for (const table of IMAGE_TABLES) {
        const rows = await db.selectFrom(table).select('image_key').where('image_key', 'is not', null).execute();
        for (const row of rows) if (row.image_key !== null) keys.add(row.image_key);
      }
      return keys;
    },
  };
}
