import type { PlaylistVisibility } from '@tonearm/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { songInScope, songSeen } from '../../db/library-visibility.js';
import type { PlaylistRow } from '../../db/schema.js';
import type { SearchGroup } from './search-cursor.js';
import type { Stage, TermChoices } from './search-ranking.js';

/** What the vocabulary says of one term (SearchBackend.vocabulary). */
export interface TermVocabulary {
  known: boolean;
  extended: boolean | null;
}

/** The search tables of songs and artists (playlists are read with their rows, under the visibility rule). */
export type IdTable = 'songs' | 'artists';

/** Song hits narrowed to one artist or one genre (GET /api/songs/page?q=…&artistId=…). */
export interface SongFilter {
  artistId?: number;
  genre?: string;
  /** Libraries whose songs are left out (those hidden from the viewer, issue 25). */
  hidden?: readonly number[];
  /** Only the songs of this library (its id) or of the blob store (null): Subsonic's `musicFolderId`. */
  library?: number | null;
}

/** The filter as a condition on the songs row `alias`, or null when it narrows nothing. */
export function songFilterCondition(filter: SongFilter, alias: string): RawBuilder<SqlBool> | null {
  const conditions = [
    ...(filter.artistId === undefined ? [] : [sql`${sql.ref(`${alias}.artist_id`)} = ${filter.artistId}`]),
    ...(filter.genre === undefined ? [] : [sql`${sql.ref(`${alias}.genre`)} = ${filter.genre}`]),
    ...(filter.hidden === undefined || filter.hidden.length === 0
      ? []
      : [songSeen(filter.hidden, `${alias}.library_id`)]),
    ...(filter.library === undefined
      ? []
      : [songInScope({ hidden: [], library: filter.library }, `${alias}.library_id`) ?? sql<SqlBool>`1 = 1`]),
  ];
  return conditions.length === 0 ? null : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * What each dialect provides to the ranking (search-ranking.ts): one stage read newest first, a bounded count, the
 * corrections of the terms, and whether a prefix tier can hold anything. Every read is served by the full-text index
 * and bounded by `count`.
 */
export interface SearchBackend {
  /** Background upkeep of the typo vocabulary, from start-up to shutdown (SQLite; PostgreSQL's triggers keep it). */
  upkeep: { start(): void; stop(): Promise<void> };
  /** Up to `count` ids of the stage (songs narrowed by `filter`), below `before` when given, id descending. */
  readIds(
    table: IdTable,
    stage: Stage,
    choices: TermChoices,
    before: number | null,
    count: number,
    filter: SongFilter,
  ): Promise<number[]>;
  /** The same for playlists the viewer may see, as rows. */
  readPlaylists(
    stage: Stage,
    choices: TermChoices,
    before: number | null,
    count: number,
    visible: PlaylistVisibility,
  ): Promise<PlaylistRow[]>;
  /** How many rows the stage holds (songs narrowed by `filter`), counting no further than `max`. */
  count(table: IdTable, stage: Stage, choices: TermChoices, max: number, filter: SongFilter): Promise<number>;
  /** For each term, the vocabulary words one typo away (none for short terms, or without the index). */
  corrections(terms: readonly string[]): Promise<string[][]>;
  /**
   * What the index's vocabulary says of each term: whether it is a whole word of it (false only when surely not:
   * its exact tiers are then empty), and, when `extensions` is asked or comes at no cost, whether a longer word begins
   * with it (false only when surely not: its prefix matches are then exact ones); null when not looked up.
   */
  vocabulary(group: SearchGroup, terms: readonly string[], extensions: boolean): Promise<TermVocabulary[]>;
}
