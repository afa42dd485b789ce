import { sql, type Kysely } from 'kysely';
import { AdvisoryLocks, withAdvisoryLock } from '../../db/advisory-lock.js';
import type { Dialect } from '../../db/database.js';
import { foreignKeyViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';

/** A song the analysis has still to do: no row of this version for its audio as it is now. */
export interface PendingSong {
  id: number;
  audioKey: string;
  durationMs: number | null;
}

/** What the analysis wrote of a song: its vector, or why there is none. */
export type AnalysisOutcome = { vector: Buffer } | { failed: string };

export interface AnalysisCounts {
  /** Songs whose file is there (a library song found missing is left out until it is back). */
  songs: number;
  analysed: number;
  failed: number;
}

export interface AnalysisFailureRow {
  songId: number;
  name: string;
  reason: string;
}

/** What is done under a song's claim, on the claim's own connection. */
export interface ClaimedSong {
  /** Whether the song is still pending (another instance may have analysed it since it was listed). */
  isPending(version: number, song: PendingSong): Promise<boolean>;
  /** Writes the song's row (replacing an older one); false when the song was deleted meanwhile. */
  save(version: number, song: PendingSong, outcome: AnalysisOutcome, at: string): Promise<boolean>;
}

export interface AnalysisRepository {
  /**
   * Runs `work` while this process holds the song's claim: an advisory lock on PostgreSQL (freed by the database if
   * the process dies), whose connection `work`'s reads and writes use, so that a claim costs one connection of the
   * pool; a lock within the process on SQLite. False when another instance holds it.
   */
  claim(songId: number, work: (claimed: ClaimedSong) => Promise<void>): Promise<boolean>;
  /** The highest song id (0 without songs): where a pass over the catalogue ends. */
  lastSongId(): Promise<number>;
  /** The pending songs with an id in (afterId, upToId], by id, at most `limit`. */
  pendingBetween(version: number, afterId: number, upToId: number, limit: number): Promise<PendingSong[]>;
  counts(version: number): Promise<AnalysisCounts>;
  /** The latest failures of this version, newest first. */
  recentFailures(version: number, limit: number): Promise<AnalysisFailureRow[]>;
  /** catalogue_version: it moves when songs are added or deleted by any process (migration 004's triggers). */
  catalogueVersion(): Promise<number>;
}

/** The song's row is of this version and of its audio as it is now (never null: `not` of it is pending). */
const upToDate = (version: number) =>
  sql<boolean>`f.song_id is not null and f.version = ${version} and coalesce(f.audio_key, '') = s.audio_key`;

/** The claimed song's statements, on `db` (the claim's connection). */
function claimedOn(db: Kysely<DB>): ClaimedSong {
  return {
    async isPending(version, song) {
      const row = await db
        .selectFrom('songs as s')
        .leftJoin('song_features as f', 'f.song_id', 's.id')
        .select('s.id')
        .where('s.id', '=', song.id)
        .where('s.audio_key', '=', song.audioKey)
        .where('s.missing_since', 'is', null)
        .where(sql<boolean>`not (${upToDate(version)})`)
        .executeTakeFirst();
      return row !== undefined;
    },

    async save(version, song, outcome, at) {
      const values = {
        version,
        vector: 'vector' in outcome ? outcome.vector : null,
        failed: 'failed' in outcome ? outcome.failed : null,
        analysed_at: at,
        audio_key: song.audioKey,
      };
      try {
        await db
          .insertInto('song_features')
          .values({ song_id: song.id, ...values })
          .onConflict((conflict) => conflict.column('song_id').doUpdateSet(values))
          .execute();
        return true;
      } catch (error) {
        // The song was deleted while it was being analysed: nothing to keep.
        if (foreignKeyViolation(error)) return false;
        throw error;
      }
    },
  };
}

export function createAnalysisRepository(db: Kysely<DB>, dialect: Dialect): AnalysisRepository {
  return {
    async claim(songId, work) {
      const outcome = await withAdvisoryLock(db, dialect, AdvisoryLocks.songAnalysis + songId, 'try', (connection) =>
        work(claimedOn(connection)),
      );
      return outcome.ran;
    },

    async lastSongId() {
      const row = await db
        .selectFrom('songs')
        .select((eb) => eb.fn.max('id').as('last'))
        .executeTakeFirst();
      return row?.last ?? 0;
    },

    async pendingBetween(version, afterId, upToId, limit) {
      const rows = await db
        .selectFrom('songs as s')
        .leftJoin('song_features as f', 'f.song_id', 's.id')
        .select(['s.id', 's.audio_key', 's.duration_ms'])
        .where('s.id', '>', afterId)
        .where('s.id', '<=', upToId)
        .where('s.missing_since', 'is', null)
        .where(sql<boolean>`not (${upToDate(version)})`)
        .orderBy('s.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, audioKey: row.audio_key, durationMs: row.duration_ms }));
    },

    async counts(version) {
      const row = await db
        .selectFrom('songs as s')
        .leftJoin('song_features as f', 'f.song_id', 's.id')
        .select([
          sql<number | string>`count(*)`.as('songs'),
          sql<number | string | null>`sum(case when ${upToDate(version)} and f.failed is null then 1 else 0 end)`.as(
            'analysed',
          ),
          sql<
            number | string | null
          >`sum(case when ${upToDate(version)} and f.failed is not null then 1 else 0 end)`.as('failed'),
        ])
        .where('s.missing_since', 'is', null)
        .executeTakeFirst();
      return { songs: Number(row?.songs ?? 0), analysed: Number(row?.analysed ?? 0), failed: Number(row?.failed ?? 0) };
    },

    async recentFailures(version, limit) {
      const rows = await db
        .selectFrom('song_features as f')
        .innerJoin('songs as s', 's.id', 'f.song_id')
        .select(['f.song_id', 's.name', 'f.failed'])
        .where('f.version', '=', version)
        .where('f.failed', 'is not', null)
        .whereRef('f.audio_key', '=', 's.audio_key')
        .orderBy('f.analysed_at', 'desc')
        .orderBy('f.song_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ songId: row.song_id, name: row.name, reason: row.failed ?? '' }));
    },

    async catalogueVersion() {
      const row = await db.selectFrom('catalogue_version').select('version').where('id', '=', 1).executeTakeFirst();
      // A bigint: PostgreSQL's driver answers it as text.
      return Number((row?.version as number | string | undefined) ?? 0);
    },
  };
}
