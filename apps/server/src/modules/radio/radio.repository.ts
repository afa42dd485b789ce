import type { Kysely } from 'kysely';
import { songSeen } from '../../db/library-visibility.js';
import type { DB } from '../../db/schema.js';
import type { RadioSong } from './radio-rules.js';
import { decodeVector, type RawVector } from './vector-index.js';

/** Genres of a seed whose songs are read as tag candidates (an album or a playlist may span many). */
const TAG_GENRES_MAX = 4;

/** Vectors read per query when the index is built (about 10 ms of SQLite here). */
const VECTOR_PAGE = 2000;

/** A seed's latest sessions (user and hour) whose other songs are read as co-listens. */
const SESSIONS_MAX = 50;

/** The ISO times bounding the hour of an ISO time: [its hour's start, the next hour's start); null if not a time. */
function hourOf(playedAt: string): [string, string] | null {
  const start = new Date(`${playedAt.slice(0, 13)}:00:00.000Z`).getTime();
  if (Number.isNaN(start)) return null;
  return [new Date(start).toISOString(), new Date(start + 3_600_000).toISOString()];
}

/** The SQL of issue 28's radio: vectors, the songs a listener may play, co-listens and skips. */
export function createRadioRepository(db: Kysely<DB>) {
  /** What the songs read for the blend: the artist, the album (album_tracks), genre and year. */
  const radioSongs = (hidden: readonly number[]) => {
    let query = db
      .selectFrom('songs')
      .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
      .select(['songs.id as songId', 'songs.artist_id as artistId', 'album_tracks.album_id as albumId'])
      .select(['songs.genre as genre', 'songs.year as year'])
      // A song whose library file is gone cannot play: the radio never offers it.
      .where('songs.missing_since', 'is', null);
    if (hidden.length > 0) query = query.where(songSeen(hidden));
    return query;
  };

  return {
    /** The newest analysis's time: when it changes, the index is rebuilt. */
    async vectorsStamp(): Promise<string> {
      // Every analysis writes its time, so the newest time moves with every new vector (song_features_analysed_idx
      // answers it from the end of the index). A song deleted since is left in the index harmlessly: every candidate is
      // read again from the songs the listener may play.
      const row = await db
        .selectFrom('song_features')
        .select((eb) => eb.fn.max('analysed_at').as('latest'))
        .executeTakeFirst();
      return row?.latest ?? '';
    },

    /**
     * Every vector of the newest analysis version (older versions have another layout), read VECTOR_PAGE rows at a
     * time by song id with a turn of the event loop between pages: one read of 100 000 held SQLite's synchronous
     * driver, and so every request, for half a second.
     */
    async latestVectors(): Promise<RawVector[]> {
      const newest = await db
        .selectFrom('song_features')
        .select((f) => f.fn.max('version').as('version'))
        .executeTakeFirst();
      const version = newest?.version ?? null;
      const vectors: RawVector[] = [];
      if (version === null) return vectors;
      for (let after = 0; ;) {
        const rows = await db
          .selectFrom('song_features')
          .select(['song_id', 'vector'])
          .where('version', '=', version)
          .where('vector', 'is not', null)
          .where('song_id', '>', after)
          .orderBy('song_id')
          .limit(VECTOR_PAGE)
          .execute();
        for (const row of rows) if (row.vector) vectors.push({ songId: row.song_id, values: decodeVector(row.vector) });
        if (rows.length < VECTOR_PAGE) return vectors;
        after = rows.at(-1)?.song_id ?? after;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    /** The songs of these ids the listener may play, in no particular order. */
    async songs(ids: readonly number[], hidden: readonly number[]): Promise<RadioSong[]> {
      if (ids.length === 0) return [];
      return (
        await radioSongs(hidden)
          .where('songs.id', 'in', [...ids])
          .execute()
      ).map(toRadioSong);
    },

    /**
     * The most played songs of the seed's genres (as stored) and of its artists, `limit` of each: the candidates when
     * vectors say little or nothing. One query per genre, each read in order from songs_genre_plays_idx (034).
     */
    async byTags(genres: readonly string[], artistIds: readonly number[], hidden: readonly number[], limit: number) {
      const mostPlayed = (query: ReturnType<typeof radioSongs>) =>
        query.orderBy('songs.play_count', 'desc').orderBy('songs.id').limit(limit).execute();
      const found = new Map<number, RadioSong>();
      for (const genre of genres.slice(0, TAG_GENRES_MAX)) {
        for (const row of await mostPlayed(radioSongs(hidden).where('songs.genre', '=', genre))) {
          found.set(row.songId, toRadioSong(row));
        }
      }
      if (artistIds.length > 0) {
        for (const row of await mostPlayed(radioSongs(hidden).where('songs.artist_id', 'in', [...artistIds]))) {
          found.set(row.songId, toRadioSong(row));
        }
      }
      return [...found.values()];
    },

    /**
     * Songs this server's listeners played in the same session as a seed song (the same user, the same hour of the
     * same day), with how many listens; read from `listens`, the plays that counted. The seed's SESSIONS_MAX latest
     * sessions are found first, then each is read as a range of listens_user_played_idx (ISO times of one fixed
     * format compare in time order under any collation).
     */
    async coListens(seedIds: readonly number[], limit: number): Promise<Map<number, number>> {
      if (seedIds.length === 0) return new Map();
      const seedListens = await db
        .selectFrom('listens')
        .select(['user_id', 'played_at'])
        .where('song_id', 'in', [...seedIds])
        .orderBy('played_at', 'desc')
        .limit(SESSIONS_MAX)
        .execute();
      const sessions = new Map<string, { userId: number; hour: [string, string] }>();
      for (const { user_id: userId, played_at: playedAt } of seedListens) {
        const hour = hourOf(playedAt);
        if (hour) sessions.set(`${userId} ${hour[0]}`, { userId, hour });
      }
      if (sessions.size === 0) return new Map();
      const rows = await db
        .selectFrom('listens')
        .select('song_id as songId')
        .select((eb) => eb.fn.countAll<number | string>().as('sessions'))
        .where((eb) =>
          eb.or(
            [...sessions.values()].map(({ userId, hour: [from, to] }) =>
              eb.and([eb('user_id', '=', userId), eb('played_at', '>=', from), eb('played_at', '<', to)]),
            ),
          ),
        )
        .where('song_id', 'is not', null)
        .groupBy('song_id')
        .orderBy('sessions', 'desc')
        .limit(limit)
        .execute();
      return new Map(rows.flatMap((row) => (row.songId === null ? [] : [[row.songId, Number(row.sessions)]])));
    },

    /**
     * Play starts and counted listens of these songs. A start with no listen is a skip; `plays` keeps each user's last
     * 1000 starts, so skips are those of the recent past.
     */
    async playStats(ids: readonly number[]): Promise<Map<number, { starts: number; listens: number }>> {
      const stats = new Map<number, { starts: number; listens: number }>();
      if (ids.length === 0) return stats;
      const starts = await db
        .selectFrom('plays')
        .select('song_id')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('song_id', 'in', [...ids])
        .groupBy('song_id')
        .execute();
      const listens = await db
        .selectFrom('listens')
        .select('song_id')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('song_id', 'in', [...ids])
        .groupBy('song_id')
        .execute();
      for (const row of starts) stats.set(row.song_id, { starts: Number(row.n), listens: 0 });
      for (const row of listens) {
        if (row.song_id === null) continue;
        const known = stats.get(row.song_id) ?? { starts: 0, listens: 0 };
        stats.set(row.song_id, { ...known, listens: Number(row.n) });
      }
      return stats;
    },
  };
}

export type RadioRepository = ReturnType<typeof createRadioRepository>;

function toRadioSong(row: {
  songId: number;
  artistId: number | null;
  albumId: number | null;
  genre: string;
  year: number | null | undefined;
}): RadioSong {
  return { songId: row.songId, artistId: row.artistId, albumId: row.albumId, genre: row.genre, year: row.year ?? null };
}
