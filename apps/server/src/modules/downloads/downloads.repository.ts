import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface DownloadableSong {
  name: string;
  /** Null once the artist was deleted. */
  artistName: string | null;
  audioKey: string;
  mime: string;
  /** Its library; null for a song held in the blob store. */
  libraryId: number | null;
}

export interface DownloadsRepository {
  findSong(id: number): Promise<DownloadableSong | undefined>;
}

export function createDownloadsRepository(db: Kysely<DB>): DownloadsRepository {
  return {
    async findSong(id) {
      const row = await db
        .selectFrom('songs')
        .leftJoin('artists', 'artists.id', 'songs.artist_id')
        .select(['songs.name', 'songs.audio_key', 'songs.mime', 'songs.library_id', 'artists.name as artist_name'])
        .where('songs.id', '=', id)
        .executeTakeFirst();
      return (
        row && {
          name: row.name,
          artistName: row.artist_name,
          audioKey: row.audio_key,
          mime: row.mime,
          libraryId: row.library_id ?? null,
        }
      );
    },
  };
}
