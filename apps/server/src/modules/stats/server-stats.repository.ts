import { UNKNOWN_ARTIST } from '@tonearm/contract';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { dayOf, epochSeconds, localSeconds, type Integer } from './stats-sql.js';
import type { SongAmount } from './stats.repository.js';
import type { OffsetSpan } from './time-zone.js';

/** What the server stores, now. */
export interface StorageRow {
  songs: number;
  albums: number;
  artists: number;
  users: number;
  listens: number;
  audioBytes: number;
  storedAudioBytes: number;
  libraryAudioBytes: number;
}

/** Songs added in one month (`YYYY-MM`, UTC). */
export interface MonthAdded {
  month: string;
  songsAdded: number;
  bytesAdded: number;
}

/** Listeners and listens of one local day (counted from 1970-01-01). */
export interface DayActivity {
  day: number;
  listeners: number;
  plays: number;
}

/** The server's statistics, for administrators: everyone's listens and the whole library. */
export interface ServerStatsRepository {
  /** The songs listened to most since `from`, by anyone, with how many listeners each. */
  mostPlayed(from: string, limit: number): Promise<(SongAmount & { listeners: number })[]>;
  /** Per local day (the zone's `spans`) since `from`: distinct listeners and listens; only days with listens. */
  activeListeners(from: string, spans: readonly OffsetSpan[]): Promise<DayActivity[]>;
  storage(): Promise<StorageRow>;
  /** Songs added per month, oldest first; only months with songs added. */
  growth(): Promise<MonthAdded[]>;
}

export function createServerStatsRepository(db: Kysely<DB>, dialect: Dialect): ServerStatsRepository {
  const count = async (table: 'albums' | 'artists' | 'users' | 'listens') => {
    const query = db.selectFrom(table).select((eb) => eb.fn.countAll().as('count'));
    // The placeholder "Unknown album" of each artist is no album of the library.
    const row = await (table === 'albums' ? query.where('is_placeholder', '=', 0) : query).executeTakeFirstOrThrow();
    return Number(row.count);
  };

  return {
    async mostPlayed(from, limit) {
      const rows = await db
        .selectFrom('listens as l')
        .innerJoin('songs as s', 's.id', 'l.song_id')
        .leftJoin('artists as a', 'a.id', 's.artist_id')
        .select((eb) => [
          's.id',
          's.name',
          's.display_artist',
          'a.name as artist_name',
          eb.fn.countAll().as('plays'),
          eb.fn.sum<Integer | null>('l.listened_ms').as('ms'),
          eb.fn.count('l.user_id').distinct().as('listeners'),
        ])
        .where('l.played_at', '>=', from)
        .groupBy(['s.id', 's.name', 's.display_artist', 'a.name'])
        .orderBy('plays', 'desc')
        .orderBy('listeners', 'desc')
        .orderBy('s.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        songId: row.id,
        name: row.name,
        artistName: row.display_artist ?? row.artist_name ?? UNKNOWN_ARTIST,
        plays: Number(row.plays),
        listenedMs: Number(row.ms ?? 0),
        listeners: Number(row.listeners),
      }));
    },

    async activeListeners(from, spans) {
      const day = dayOf(localSeconds(sql<number>`e.seconds`, spans));
      const rows = await db
        .with(
          (cte) => cte('e').materialized(),
          (qb) =>
            qb
              .selectFrom('listens as l')
              .select([epochSeconds(dialect, 'l.played_at').as('seconds'), 'l.user_id'])
              .where('l.played_at', '>=', from),
        )
        .selectFrom('e')
        .select((eb) => [
          day.as('day'),
          eb.fn.count('e.user_id').distinct().as('listeners'),
          eb.fn.countAll().as('plays'),
        ])
        .groupBy('day')
        .orderBy('day')
        .execute();
      return rows.map((row) => ({ day: Number(row.day), listeners: Number(row.listeners), plays: Number(row.plays) }));
    },

    async storage() {
      const songs = await db
        .selectFrom('songs')
        .select((eb) => [
          eb.fn.countAll().as('songs'),
          eb.fn.sum<Integer | null>('size_bytes').as('bytes'),
          eb.fn.sum<Integer | null>(sql<number>`case when library_id is null then size_bytes else 0 end`).as('stored'),
        ])
        .executeTakeFirstOrThrow();
      const audioBytes = Number(songs.bytes ?? 0);
      const storedAudioBytes = Number(songs.stored ?? 0);
      return {
        songs: Number(songs.songs),
        albums: await count('albums'),
        artists: await count('artists'),
        users: await count('users'),
        listens: await count('listens'),
        audioBytes,
        storedAudioBytes,
        libraryAudioBytes: audioBytes - storedAudioBytes,
      };
    },

    async growth() {
      const month = sql<string>`substr(created_at, 1, 7)`;
      const rows = await db
        .selectFrom('songs')
        .select((eb) => [
          month.as('month'),
          eb.fn.countAll().as('songs'),
          eb.fn.sum<Integer | null>('size_bytes').as('bytes'),
        ])
        .groupBy('month')
        .orderBy('month')
        .execute();
      return rows.map((row) => ({
        month: row.month,
        songsAdded: Number(row.songs),
        bytesAdded: Number(row.bytes ?? 0),
      }));
    },
  };
}
