import { UNKNOWN_ARTIST } from '@tonearm/contract';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { songSeen } from '../../db/library-visibility.js';
import type { DB } from '../../db/schema.js';
import { epochSeconds, hourOf, localSeconds, weekdayOf, type Integer } from './stats-sql.js';
import type { OffsetSpan } from './time-zone.js';

/** Listens from `from` (inclusive) to `to` (exclusive), ISO instants; null: no bound. */
export interface Range {
  from: string | null;
  to: string | null;
}

/** Whose listens, over which range, and the libraries whose songs they may not see (left out of every list). */
export interface Scope {
  userId: number;
  range: Range;
  hidden: readonly number[];
}

export interface Amount {
  plays: number;
  listenedMs: number;
}

export interface SongAmount extends Amount {
  songId: number;
  name: string;
  artistName: string;
}
export interface ArtistAmount extends Amount {
  artistId: number;
  name: string;
}
export interface AlbumAmount extends Amount {
  albumId: number;
  name: string;
  artistName: string;
}
export interface GenreAmount extends Amount {
  genre: string;
}
/** Listening in one local hour of one local weekday. */
export interface HourWeekdayAmount extends Amount {
  hour: number;
  weekday: number;
}

export interface StatsRepository {
  /** Every listen of the range (deleted and hidden songs too: minutes are minutes). */
  totals(userId: number, range: Range): Promise<Amount>;
  /** When the user first listened; null when never. */
  firstListen(userId: number): Promise<string | null>;
  topSongs(scope: Scope, limit: number, onlyNew?: boolean): Promise<SongAmount[]>;
  topArtists(scope: Scope, limit: number, onlyNew?: boolean): Promise<ArtistAmount[]>;
  topAlbums(scope: Scope, limit: number): Promise<AlbumAmount[]>;
  topGenres(scope: Scope, limit: number): Promise<GenreAmount[]>;
  /** Listening by local hour and weekday (the zone's `spans` over the range): only the cells with listens. */
  byHourAndWeekday(userId: number, range: Range, spans: readonly OffsetSpan[]): Promise<HourWeekdayAmount[]>;
  /**
   * Listening from `from` cut at `bounds` (ascending ISO instants): one amount per bound, of the listens before it and
   * at or after the previous one (`from` for the first).
   */
  byBounds(userId: number, from: string, bounds: readonly string[]): Promise<Amount[]>;
  /** Songs and artists the user first heard within the range (seen songs only). */
  discoveryCounts(scope: Scope): Promise<{ songs: number; artists: number }>;
}

const amount = (row: { plays: unknown; ms: unknown }): Amount => ({
  plays: Number(row.plays),
  listenedMs: Number(row.ms ?? 0),
});

export function createStatsRepository(db: Kysely<DB>, dialect: Dialect): StatsRepository {
  const inRange = (column: string, range: Range): Expression<SqlBool> => {
    const ref = sql.ref(column);
    const parts = [
      ...(range.from === null ? [] : [sql<SqlBool>`${ref} >= ${range.from}`]),
      ...(range.to === null ? [] : [sql<SqlBool>`${ref} < ${range.to}`]),
    ];
    return parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
  };
  const seen = (hidden: readonly number[]): Expression<SqlBool> =>
    hidden.length === 0 ? sql<SqlBool>`1 = 1` : songSeen(hidden, 's.library_id');

  /**
   * `heard`: per song the user heard in the range (seen songs only), plays and time. The listens are summed first, from
   * the listens' indexes alone, and only then matched with their songs (a few thousand songs, not every listen).
   */
  const withHeard = (scope: Scope) =>
    db
      .with('heard_all', (qb) =>
        qb
          .selectFrom('listens as l')
          .select((eb) => [
            eb.ref('l.song_id').$notNull().as('song_id'),
            eb.fn.countAll<number>().as('plays'),
            eb.fn.sum<number>('l.listened_ms').as('ms'),
          ])
          .where('l.user_id', '=', scope.userId)
          .where('l.song_id', 'is not', null)
          .where(inRange('l.played_at', scope.range))
          .groupBy('l.song_id'),
      )
      .with('heard', (qb) =>
        qb
          .selectFrom('heard_all as a')
          .innerJoin('songs as s', 's.id', 'a.song_id')
          .select(['a.song_id as song_id', 'a.plays as plays', 'a.ms as ms'])
          .where(seen(scope.hidden)),
      );

  /** `credits`: the credited artists of each heard song (its artist and the track's other artists), once each. */
  const withCredits = (scope: Scope) =>
    withHeard(scope).with('credits', (qb) =>
      qb
        .selectFrom('heard as h')
        .innerJoin('songs as s', 's.id', 'h.song_id')
        .select((eb) => ['h.song_id as song_id', eb.ref('s.artist_id').$notNull().as('artist_id')])
        .where('s.artist_id', 'is not', null)
        .union(
          qb
            .selectFrom('heard as h')
            .innerJoin('song_artists as sa', 'sa.song_id', 'h.song_id')
            .select(['h.song_id as song_id', 'sa.artist_id as artist_id'])
            .where('sa.role', '=', 'artist'),
        ),
    );

  /**
   * A song heard in the range is new unless the user heard it before the range began: one probe of the listens'
   * (user_id, song_id, played_at) index per song (listens_play_key), however long the history.
   */
  const newSong = (scope: Scope, song: string): Expression<SqlBool> => {
    const { from } = scope.range;
    if (from === null) return sql<SqlBool>`1 = 1`;
    return sql<SqlBool>`not exists (select 1 from listens b where b.user_id = ${scope.userId}
      and b.song_id = ${sql.ref(song)} and b.played_at < ${from})`;
  };

  /** An artist heard in the range is new unless the user heard a song credited to them before it began. */
  const newArtist = (scope: Scope, artist: string): Expression<SqlBool> => {
    const { from } = scope.range;
    if (from === null) return sql<SqlBool>`1 = 1`;
    const before = sql`b.user_id = ${scope.userId} and b.played_at < ${from}`;
    return sql<SqlBool>`(not exists (select 1 from songs bs inner join listens b on b.song_id = bs.id
        where bs.artist_id = ${sql.ref(artist)} and ${before})
      and not exists (select 1 from song_artists ba inner join listens b on b.song_id = ba.song_id
        where ba.artist_id = ${sql.ref(artist)} and ba.role = 'artist' and ${before}))`;
  };

  return {
    async totals(userId, range) {
      const row = await db
        .selectFrom('listens as l')
        .select((eb) => [eb.fn.countAll().as('plays'), eb.fn.sum<Integer | null>('l.listened_ms').as('ms')])
        .where('l.user_id', '=', userId)
        .where(inRange('l.played_at', range))
        .executeTakeFirstOrThrow();
      return amount(row);
    },

    async firstListen(userId) {
      const row = await db
        .selectFrom('listens')
        .select('played_at')
        .where('user_id', '=', userId)
        .orderBy('played_at')
        .limit(1)
        .executeTakeFirst();
      return row?.played_at ?? null;
    },

    async topSongs(scope, limit, onlyNew = false) {
      const rows = await withHeard(scope)
        .selectFrom('heard as h')
        .innerJoin('songs as s', 's.id', 'h.song_id')
        .leftJoin('artists as a', 'a.id', 's.artist_id')
        .$if(onlyNew, (query) => query.where(newSong(scope, 'h.song_id')))
        .select(['h.song_id', 'h.plays', 'h.ms', 's.name', 's.display_artist', 'a.name as artist_name'])
        .orderBy('h.plays', 'desc')
        .orderBy('h.ms', 'desc')
        .orderBy('h.song_id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        songId: row.song_id,
        name: row.name,
        artistName: row.display_artist ?? row.artist_name ?? UNKNOWN_ARTIST,
        ...amount(row),
      }));
    },

    async topArtists(scope, limit, onlyNew = false) {
      const rows = await withCredits(scope)
        .selectFrom('credits as c')
        .innerJoin('heard as h', 'h.song_id', 'c.song_id')
        .innerJoin('artists as ar', 'ar.id', 'c.artist_id')
        .$if(onlyNew, (query) => query.where(newArtist(scope, 'c.artist_id')))
        .select((eb) => [
          'c.artist_id',
          'ar.name',
          eb.fn.sum<number>('h.plays').as('plays'),
          eb.fn.sum<number>('h.ms').as('ms'),
        ])
        .groupBy(['c.artist_id', 'ar.name'])
        .orderBy('plays', 'desc')
        .orderBy('ms', 'desc')
        .orderBy('c.artist_id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ artistId: row.artist_id, name: row.name, ...amount(row) }));
    },

    async topAlbums(scope, limit) {
      const rows = await withHeard(scope)
        .selectFrom('heard as h')
        .innerJoin('album_tracks as t', 't.song_id', 'h.song_id')
        .innerJoin('albums as al', 'al.id', 't.album_id')
        .leftJoin('artists as ar', 'ar.id', 'al.artist_id')
        // "Unknown album" gathers an artist's untagged songs: not an album anyone chose to play.
        .where('al.is_placeholder', '=', 0)
        .select((eb) => [
          'al.id',
          'al.name',
          'ar.name as artist_name',
          eb.fn.sum<number>('h.plays').as('plays'),
          eb.fn.sum<number>('h.ms').as('ms'),
        ])
        .groupBy(['al.id', 'al.name', 'ar.name'])
        .orderBy('plays', 'desc')
        .orderBy('ms', 'desc')
        .orderBy('al.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        albumId: row.id,
        name: row.name,
        artistName: row.artist_name ?? UNKNOWN_ARTIST,
        ...amount(row),
      }));
    },

    async topGenres(scope, limit) {
      const rows = await withHeard(scope)
        .selectFrom('heard as h')
        .innerJoin('songs as s', 's.id', 'h.song_id')
        .select((eb) => ['s.genre', eb.fn.sum<number>('h.plays').as('plays'), eb.fn.sum<number>('h.ms').as('ms')])
        .groupBy('s.genre')
        .orderBy('plays', 'desc')
        .orderBy('ms', 'desc')
        .orderBy('s.genre')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ genre: row.genre, ...amount(row) }));
    },

    async byHourAndWeekday(userId, range, spans) {
      // The epoch once per listen (a materialised step), then the local clock from it.
      const local = localSeconds(sql<number>`e.seconds`, spans);
      const rows = await db
        .with(
          (cte) => cte('e').materialized(),
          (qb) =>
            qb
              .selectFrom('listens as l')
              .select([epochSeconds(dialect, 'l.played_at').as('seconds'), 'l.listened_ms'])
              .where('l.user_id', '=', userId)
              .where(inRange('l.played_at', range)),
        )
        .selectFrom('e')
        .select((eb) => [
          hourOf(local).as('hour'),
          weekdayOf(local).as('weekday'),
          eb.fn.countAll().as('plays'),
          eb.fn.sum<Integer | null>('e.listened_ms').as('ms'),
        ])
        .groupBy(['hour', 'weekday'])
        .execute();
      return rows.map((row) => ({ hour: Number(row.hour), weekday: Number(row.weekday), ...amount(row) }));
    },

    async byBounds(userId, from, bounds) {
      const first = bounds[0];
      const last = bounds[bounds.length - 1];
      if (first === undefined || last === undefined) return [];
      // The index of the bound each listen falls before.
      const cases = bounds.map((bound, index) => sql`when l.played_at < ${bound} then ${index}`);
      const slot = sql<Integer>`case ${sql.join(cases, sql` `)} end`;
      const rows = await db
        .selectFrom('listens as l')
        .select((eb) => [
          slot.as('slot'),
          eb.fn.countAll().as('plays'),
          eb.fn.sum<Integer | null>('l.listened_ms').as('ms'),
        ])
        .where('l.user_id', '=', userId)
        .where(inRange('l.played_at', { from, to: last }))
        .groupBy('slot')
        .execute();
      const bySlot = new Map(rows.map((row) => [Number(row.slot), amount(row)]));
      return bounds.map((_, index) => bySlot.get(index) ?? { plays: 0, listenedMs: 0 });
    },

    async discoveryCounts(scope) {
      const songs = await withHeard(scope)
        .selectFrom('heard as h')
        .select((eb) => eb.fn.countAll().as('count'))
        .where(newSong(scope, 'h.song_id'))
        .executeTakeFirstOrThrow();
      const artists = await withCredits(scope)
        .selectFrom((qb) => qb.selectFrom('credits').select('artist_id').distinct().as('a'))
        .select((eb) => eb.fn.countAll().as('count'))
        .where(newArtist(scope, 'a.artist_id'))
        .executeTakeFirstOrThrow();
      return { songs: Number(songs.count), artists: Number(artists.count) };
    },
  };
}
