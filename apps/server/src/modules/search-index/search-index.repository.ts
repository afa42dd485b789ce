import type { PlaylistVisibility } from '@tonearm/contract';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import { createPostgresSearch } from './postgres-search.js';
import type { SearchBackend, SongFilter, TermVocabulary } from './search-backend.js';
import { decodeSearchCursor, encodeSearchCursor, type SearchGroup, type SearchPosition } from './search-cursor.js';
import { ANY_MATCH, stageIsEmpty, stageNeeds, stagesOf, type Stage, type TermChoices } from './search-ranking.js';
import { createSqliteSearch } from './sqlite-search.js';

/** A song page's `total` counts matches up to this many (counting every hit of a short prefix is not cheap). */
export const SEARCH_TOTAL_MAX = 10_000;

/** One page of a group's ranking: ids best first, and the cursor of the next page (null at the end). */
export interface SearchIdPage {
  ids: number[];
  nextCursor: string | null;
}

/** A page of matching songs, with how many songs match (exact up to SEARCH_TOTAL_MAX, then SEARCH_TOTAL_MAX). */
export interface SongSearchPage extends SearchIdPage {
  total: number;
}

/** A page of the playlists the viewer may see, as rows. */
export interface PlaylistSearchPage {
  rows: PlaylistRow[];
  nextCursor: string | null;
}

/**
 * The full-text index, shared by the song lists' `q` (modules/songs) and by search (modules/search), which is why it
 * sits in a module of its own: both depend on it, it depends on neither.
 *
 * Terms come from `searchTerms` (none: nothing matches); case and accents are ignored. Every group is ranked in tiers (search-ranking.ts):
 * exact words, then prefixes, then one typo; within a tier, newest first. A cursor is a keyset position in that
 * ranking (stage, id) tied to its group and terms; any other cursor is a 400 (RequestMessages.badCursor).
 */
export interface SearchIndexRepository {
  /**
   * Keeps the typo vocabulary up in the background from start-up (`start`) to shutdown (`stop`): on SQLite, names
   * written in bulk (an import, a seed) are folded in a batch at a time rather than by the first searches.
   */
  vocabularyUpkeep: { start(): void; stop(): Promise<void> };
  /** The first `limit` matching song ids, best first (the song list's `q`). */
  songIds(terms: readonly string[], limit: number): Promise<number[]>;
  /**
   * A page of matching song ids, best first, and their total (GET /api/songs/page?q=), narrowed to one artist or one
   * genre when the filter says so (a cursor holds to the filter it was made with).
   */
  songPage(
    terms: readonly string[],
    cursor: string | undefined,
    limit: number,
    filter?: SongFilter,
  ): Promise<SongSearchPage>;
  /** A page of the songs or artists group of GET /api/search (songs narrowed by `filter` when given). */
  idPage(
    group: 'songs' | 'artists',
    terms: readonly string[],
    cursor: string | undefined,
    limit: number,
    filter?: SongFilter,
  ): Promise<SearchIdPage>;
  /** A page of the playlists the policy lets the viewer see (contract `visiblePlaylists`), best first. */
  playlistPage(
    terms: readonly string[],
    cursor: string | undefined,
    limit: number,
    visible: PlaylistVisibility,
  ): Promise<PlaylistSearchPage>;
}

/** Reads up to `count` rows of one stage, below `before` when given, id descending. */
type StageReader<Row> = (stage: Stage, choices: TermChoices, before: number | null, count: number) => Promise<Row[]>;

/** The terms of one query in one group, with what a stage needs of them (looked up once, when first needed). */
interface QueryTerms {
  terms: readonly string[];
  filter: SongFilter;
  /** What a cursor of this query is tied to: the terms, and the filter. */
  key: readonly string[];
  forStage(stage: Stage): Promise<TermChoices>;
}

/**
 * Rows from `from` on (the start when null), best first: each stage in turn until `limit` rows and one more are
 * found, the extra one telling that a next page exists.
 */
async function readRanked<Row extends { id: number }>(
  group: SearchGroup,
  query: QueryTerms,
  read: StageReader<Row>,
  from: SearchPosition | null,
  limit: number,
): Promise<{ rows: Row[]; next: SearchPosition | null }> {
  const stages = stagesOf(group);
  const found: { row: Row; stage: number }[] = [];
  for (let index = from?.stage ?? 0; index < stages.length && found.length <= limit; index += 1) {
    const stage = stages[index];
    if (stage === undefined) break;
    const choices = await query.forStage(stage);
    if (stageIsEmpty(stage, choices)) continue;
    const before = index === from?.stage ? from.id : null;
    const rows = await read(stage, choices, before, limit + 1 - found.length);
    found.push(...rows.map((row) => ({ row, stage: index })));
  }
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page.map(({ row }) => row),
    next: found.length > limit && last !== undefined ? { stage: last.stage, id: last.row.id } : null,
  };
}

/**
 * One lookup for all who ask the same at the same time: the groups of one search (and the same search from several
 * clients) need the same vocabulary and corrections. Each answer is what one query made at that moment says; nothing
 * is kept once it is answered.
 */
function sharedInFlight<Args extends unknown[], T>(
  work: (...args: Args) => Promise<T>,
  keyOf: (...args: Args) => string,
): (...args: Args) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (...args) => {
    const key = keyOf(...args);
    let answer = running.get(key);
    if (answer === undefined) {
      answer = work(...args).finally(() => running.delete(key));
      running.set(key, answer);
    }
    return answer;
  };
}

/** The backend with its vocabulary and corrections lookups shared while in flight (sharedInFlight). */
function withSharedLookups(backend: SearchBackend, dialect: Dialect): SearchBackend {
  const termsKey = (terms: readonly string[]) => terms.join('\u0000');
  return {
    ...backend,
    // PostgreSQL's vocabulary (search_words) is every group's, and one statement answers both questions: the group
    // and whether extensions were asked for are no part of its answer.
    vocabulary: sharedInFlight(backend.vocabulary.bind(backend), (group, terms, extensions) =>
      dialect === 'postgres' ? termsKey(terms) : [group, String(extensions), termsKey(terms)].join('\u0001'),
    ),
    corrections: sharedInFlight(backend.corrections.bind(backend), termsKey),
  };
}

export function createSearchIndexRepository(db: Kysely<DB>, dialect: Dialect): SearchIndexRepository {
  const backend = withSharedLookups(
    dialect === 'postgres' ? createPostgresSearch(db) : createSqliteSearch(db),
    dialect,
  );

  const queryTerms = (group: SearchGroup, terms: readonly string[], filter: SongFilter = {}): QueryTerms => {
    let words: Promise<TermVocabulary[]> | null = null;
    let extensions: Promise<TermVocabulary[]> | null = null;
    let corrections: Promise<string[][]> | null = null;
    /** The vocabulary's answer, with the extensions when the stage needs them (asked again only if missing). */
    const vocabulary = async (needsExtensions: boolean) => {
      const known = await (words ??= backend.vocabulary(group, terms, needsExtensions));
      if (!needsExtensions || known.every((term) => term.extended !== null)) return known;
      return (extensions ??= backend.vocabulary(group, terms, true));
    };
    const { artistId, genre, hidden = [], library } = filter;
    return {
      terms,
      filter,
      // Control characters never occur in terms: these cannot be mistaken for one.
      key: [
        ...terms,
        ...(artistId === undefined ? [] : [`\u0001${String(artistId)}`]),
        ...(genre === undefined ? [] : [`\u0002${genre}`]),
        ...(hidden.length === 0 ? [] : [`\u0003${hidden.join(',')}`]),
        ...(library === undefined ? [] : [`\u0004${String(library)}`]),
      ],
      async forStage(stage) {
        const needs = stageNeeds(stage);
        const [known, corrected] = await Promise.all([
          needs.words || needs.extensions ? vocabulary(needs.extensions) : null,
          needs.corrections ? (corrections ??= backend.corrections(terms)) : null,
        ]);
        return terms.map((term, index) => ({
          term,
          known: known?.[index]?.known ?? true,
          extended: known?.[index]?.extended ?? true,
          corrections: corrected?.[index] ?? [],
        }));
      },
    };
  };

  async function page<Row extends { id: number }>(
    group: SearchGroup,
    query: QueryTerms,
    cursor: string | undefined,
    limit: number,
    read: StageReader<Row>,
  ) {
    const { key } = query;
    const from = cursor === undefined ? null : decodeSearchCursor(cursor, group, key, stagesOf(group).length);
    if (query.terms.length === 0) return { rows: [], nextCursor: null };
    const ranked = await readRanked(group, query, read, from, limit);
    return {
      rows: ranked.rows,
      nextCursor: ranked.next === null ? null : encodeSearchCursor(group, key, ranked.next),
    };
  }

  async function ids(group: 'songs' | 'artists', query: QueryTerms, cursor: string | undefined, limit: number) {
    const { rows, nextCursor } = await page(group, query, cursor, limit, async (stage, choices, before, count) =>
      (await backend.readIds(group, stage, choices, before, count, query.filter)).map((id) => ({ id })),
    );
    return { ids: rows.map((row) => row.id), nextCursor };
  }

  return {
    vocabularyUpkeep: backend.upkeep,

    async songIds(terms, limit) {
      return (await ids('songs', queryTerms('songs', terms), undefined, limit)).ids;
    },

    idPage(group, terms, cursor, limit, filter) {
      return ids(group, queryTerms(group, terms, group === 'songs' ? filter : undefined), cursor, limit);
    },

    async songPage(terms, cursor, limit, filter = {}) {
      const query = queryTerms('songs', terms, filter);
      const found = await ids('songs', query, cursor, limit);
      if (terms.length === 0) return { ...found, total: 0 };
      const choices = await query.forStage(ANY_MATCH);
      const total = await backend.count('songs', ANY_MATCH, choices, SEARCH_TOTAL_MAX, filter);
      return { ...found, total };
    },

    playlistPage(terms, cursor, limit, visible) {
      return page('playlists', queryTerms('playlists', terms), cursor, limit, (stage, choices, before, count) =>
        backend.readPlaylists(stage, choices, before, count, visible),
      );
    },
  };
}
