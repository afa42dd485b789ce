import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** What `stream` needs of a song beyond what the songs service lists: its file's bit rate, when its tags told it. */
export interface SubsonicMediaRepository {
  bitrateOf(songId: number): Promise<number | null>;
}

export function createSubsonicMediaRepository(db: Kysely<DB>): SubsonicMediaRepository {
  return {
    async bitrateOf(songId) {
      const row = await db.selectFrom('songs').select('bitrate_kbps').where('id', '=', songId).executeTakeFirst();
      return row?.bitrate_kbps ?? null;
    },
  };
}
