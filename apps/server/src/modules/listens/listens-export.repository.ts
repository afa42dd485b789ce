import type { Kysely } from 'kysely';
import type { ListenSource } from '@tonearm/contract';
import type { DB } from '../../db/schema.js';

/** One listen as the export reads it, with its song as it is now (all null once the song is deleted). */
export interface ExportRow {
  id: number;
  played_at: string;
  listened_ms: number;
  source: ListenSource;
  client: string | null;
  song_id: number | null;
  song_name: string | null;
  library_id: number | null;
  display_artist: string | null;
  artist_name: string | null;
  album_name: string | null;
  album_placeholder: number | null;
}

/** Where an export page starts: after this listen (played_at, id), or from the first. */
export type ExportCursor = { playedAt: string; id: number } | null;

export interface ListensExportRepository {
  /** Up to `limit` of the user's listens after `cursor`, oldest first. */
  exportPage(userId: number, cursor: ExportCursor, limit: number): Promise<ExportRow[]>;
}

export function createListensExportRepository(db: Kysely<DB>): ListensExportRepository {
  return {
    async exportPage(userId, cursor, limit) {
      const rows = await db
        .selectFrom('listens as l')
        .leftJoin('songs as s', 's.id', 'l.song_id')
        .leftJoin('artists as a', 'a.id', 's.artist_id')
        .leftJoin('album_tracks as t', 't.song_id', 'l.song_id')
        .leftJoin('albums as al', 'al.id', 't.album_id')
        .select([
          'l.id',
          'l.played_at',
          'l.listened_ms',
          'l.source',
          'l.client',
          'l.song_id',
          's.name as song_name',
          's.library_id',
          's.display_artist',
          'a.name as artist_name',
          'al.name as album_name',
          'al.is_placeholder as album_placeholder',
        ])
        .where('l.user_id', '=', userId)
        .$if(cursor !== null, (query) =>
          query.where((eb) =>
            eb(eb.refTuple('l.played_at', 'l.id'), '>', eb.tuple(cursor?.playedAt ?? '', cursor?.id ?? 0)),
          ),
        )
        .orderBy('l.played_at')
        .orderBy('l.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...row, source: row.source === 'subsonic' ? 'subsonic' : 'web' }));
    },
  };
}
