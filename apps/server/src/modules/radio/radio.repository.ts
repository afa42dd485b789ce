import type { Kysely } from 'kysely';
import { CompiledStatements } from '../../db/compiled-statements.js';
import { songSeen } from '../../db/library-visibility.js';
import type { DB } from '../../db/schema.js';
import type { RadioFact } from './radio-facts.js';
import type { RadioSong } from './radio-rules.js';
import { decodeStoredVector } from '../analysis/feature-layout.js';
import type { RawVector } from './vector-index.js';

/** Vectors read per query when the index is built (about 10 ms of SQLite here). */
const VECTOR_PAGE = 2000;

/** Songs whose radio facts are read per page (three queries: the songs, their starts, their listens; about 12 ms here). */
const FACTS_PAGE = 1000;

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
  const compiled = CompiledStatements.of(db);
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

  /** Counts per song of `table` for the songs `from`…`to` (an id range: a range of its song_id index). */
  const countsBetween = async (table: 'plays' | 'listens', from: number, to: number) => {
    const rows = await db
      .selectFrom(table)
      .select('song_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('song_id', '>=', from)
      .where('song_id', '<=', to)
      .groupBy('song_id')
      .execute();
    return new Map(rows.flatMap((row) => (row.song_id === null ? [] : [[row.song_id, Number(row.n)] as const])));
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
        for (const row of rows)
          if (row.vector) vectors.push({ songId: row.song_id, values: decodeStoredVector(row.vector) });
        if (rows.length < VECTOR_PAGE) return vectors;
        after = rows.at(-1)?.song_id ?? after;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    /**
     * What the songs' radio facts were read from, cheaply (four reads of an index's end; the sum of play_count it was
     * read from before walked every song, 6 ms at 100 000 songs): when it changes they are read again. Added or removed
     * songs, plays (each one adds a row to plays as it counts in play_count) and listens move it; an edit of a song's
     * tags or library does not, until the next rebuild (the answer is checked against the database anyway).
     */
    async songsStamp(): Promise<string> {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('songs')
            .select((s) => s.fn.countAll<number | string>().as('n'))
            .as('n'),
          eb
            .selectFrom('songs')
            .select((s) => s.fn.max('id').as('top'))
            .as('top'),
          eb
            .selectFrom('plays')
            .select((s) => s.fn.max('id').as('play'))
            .as('play'),
          eb
            .selectFrom('listens')
            .select((s) => s.fn.max('id').as('listen'))
            .as('listen'),
        ])
        .executeTakeFirst();
      return row ? [row.n, row.top, row.play, row.listen].map(String).join(' ') : '';
    },

    /**
     * Every song's radio facts (radio-facts.ts), missing ones too, read FACTS_PAGE songs at a time by id with a turn
     * of the event loop between pages, as latestVectors.
     */
    async radioFacts(): Promise<RadioFact[]> {
      const facts: RadioFact[] = [];
      for (let after = 0; ;) {
        const rows = await db
          .selectFrom('songs')
          .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
          .select(['songs.id as songId', 'songs.artist_id as artistId', 'album_tracks.album_id as albumId'])
          .select(['songs.genre as genre', 'songs.year as year', 'songs.library_id as libraryId'])
          .select(['songs.missing_since as missingSince', 'songs.play_count as playCount'])
          .where('songs.id', '>', after)
          .orderBy('songs.id')
          .limit(FACTS_PAGE)
          .execute();
        const [first, last] = [rows[0]?.songId, rows.at(-1)?.songId];
        if (first !== undefined && last !== undefined) {
          const [starts, listens] = [
            await countsBetween('plays', first, last),
            await countsBetween('listens', first, last),
          ];
          for (const row of rows) {
            facts.push({
              ...toRadioSong(row),
              libraryId: row.libraryId ?? null,
              missing: row.missingSince !== null,
              playCount: row.playCount,
              starts: starts.get(row.songId) ?? 0,
              listens: listens.get(row.songId) ?? 0,
            });
          }
        }
        if (rows.length < FACTS_PAGE) return facts;
        after = last ?? after;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    /** The songs of these ids the listener may play, in no particular order. */
    async songs(ids: readonly number[], hidden: readonly number[]): Promise<RadioSong[]> {
      if (ids.length === 0) return [];
      // Every radio request runs it twice (its seed, the check of its choice): compiled once per shape.
      const list = [...ids];
      const shape = `radio.songs:${hidden.length}:${list.length}`;
      const rows = await compiled.rows(shape, [...hidden, ...list], () =>
        radioSongs(hidden).where('songs.id', 'in', list),
      );
      return rows.map(toRadioSong);
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
