import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { playlistVisibleTo } from '../../db/playlist-visibility.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import { songFilterCondition, type IdTable, type SearchBackend, type SongFilter } from './search-backend.js';
import type { SearchGroup } from './search-cursor.js';
import type { Condition, Stage, TermChoices } from './search-ranking.js';
import { bestCorrections, characters, EXTENSION_CHECK_MIN, isTypoTerm, oneEditPatterns } from './vocabulary.js';

/*
 * PostgreSQL: the tsvector documents of migrations 002 and 005 under GIN indexes. Each condition of a stage is one
 * tsquery (`'t'` a whole word, `'t':*` a prefix) against the whole document or the name's own; the excluded tiers are
 * `and not`. Terms are folded by `tonearm_fold`, as the documents were (once per term: the folds are cached), and each
 * tsquery is sent as text, so the planner sees it.
 *
 * Typo tolerance: `search_words` (migration 005) counts the uses of each lexeme of the catalogue's names, kept by
 * triggers; pg_trgm's GIN index over it answers the LIKE patterns of a term's one-edit neighbourhood. Without pg_trgm
 * (a locked-down host), there is no fuzzy tier, as in migration 002.
 */

/** A word as a tsquery lexeme, quoted. */
function lexeme(word: string): string {
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** The tsquery text of a condition over folded terms (the field is the column it is matched against). */
function tsCondition(condition: Condition, choices: TermChoices): string {
  const parts = choices.map(({ term, extended, corrections }) => {
    // A term no longer word begins with is matched as itself (the same rows; the planner estimates it better).
    const asPrefix = extended ? `${lexeme(term)}:*` : lexeme(term);
    if (condition.tier === 'exact') return lexeme(term);
    if (condition.tier === 'prefix' || corrections.length === 0) return asPrefix;
    return `(${[asPrefix, ...corrections.map(lexeme)].join(' | ')})`;
  });
  return parts.join(' & ');
}

/**
 * A stage as a condition on the search row `s`: its condition, and not each excluded one. A name-only condition is
 * matched against the name's own document (songs' `name_document`, migration 005), which GIN answers without reading
 * rows to check weights.
 */
export function tsStage(stage: Stage, choices: TermChoices): RawBuilder<SqlBool> {
  const matches = [stage.include, ...stage.exclude].map((condition) => {
    const column = sql.ref(condition.nameOnly ? 's.name_document' : 's.document');
    return sql<SqlBool>`${column} @@ to_tsquery('simple', ${tsCondition(condition, choices)})`;
  });
  const [include, ...exclude] = matches;
  return sql<SqlBool>`${include ?? sql`false`}${sql.join(
    exclude.map((match) => sql` and not ${match}`),
    sql``,
  )}`;
}

/** Folded terms kept for reuse: the fold of a word never changes under a running index. */
const FOLD_CACHE_MAX = 2000;

/** The search tables by group. */
const SEARCH_TABLES = {
  songs: sql.table('search_songs'),
  artists: sql.table('search_artists'),
  playlists: sql.table('search_playlists'),
};

/**
 * How many of the newest rows a stage read first filters in order, before it asks the GIN index for the rest. The
 * planner cannot see how a stage's `and not …` thins its rows out (nor how rare a word is within the name), and a
 * walk down the primary key it expects to stop early may instead cross the whole table; the window bounds that walk,
 * and a sparse stage is then read through GIN.
 */
const RECENT_WINDOW = 1000;

/** Rows of another table a read is narrowed to: its join to the search table `s`, and the condition on it. */
interface Narrowing {
  join: RawBuilder<unknown>;
  condition: RawBuilder<SqlBool>;
}

/** The songs of a filter, or null when it narrows nothing. */
function songsOf(filter: SongFilter): Narrowing | null {
  const condition = songFilterCondition(filter, 'f');
  return condition === null ? null : { join: sql`join songs f on f.id = s.id`, condition };
}

/** PostgreSQL's search: tsquery stages, and corrections through pg_trgm when the index exists. */
export function createPostgresSearch(db: Kysely<DB>): SearchBackend {
  const folds = new Map<string, string>();
  /** The terms folded as the documents were (`tonearm_fold`): one query for those not seen before. */
  async function fold(terms: readonly string[]): Promise<string[]> {
    const unknown = terms.filter((term) => !folds.has(term));
    if (unknown.length > 0) {
      const { rows } = await sql<{ term: string; word: string }>`
        select term, tonearm_fold(term) as word from unnest(${unknown}::text[]) as t(term)`.execute(db);
      if (folds.size + rows.length > FOLD_CACHE_MAX) folds.clear();
      for (const { term, word } of rows) folds.set(term, word);
    }
    return terms.map((term) => folds.get(term) ?? term);
  }

  /** The condition of a stage on the search row `s`, its terms folded (corrections are lexemes already). */
  async function stageMatch(stage: Stage, choices: TermChoices) {
    const words = await fold(choices.map((choice) => choice.term));
    return tsStage(
      stage,
      choices.map((choice, index) => ({ ...choice, term: words[index] ?? choice.term })),
    );
  }

  /**
   * Up to `count` ids of a search table matching `match` (and `narrow`: a join, and a condition on it), below
   * `before`, id descending. One statement in two parts: the RECENT_WINDOW newest rows, filtered in order; then, only
   * if they did not fill the page, the rows below the window through the GIN index (`s.id + 0` keeps the planner off
   * the primary key there). The second part sits behind a one-time condition, so it never starts when the first
   * suffices.
   */
  async function matchingIds(
    group: SearchGroup,
    match: RawBuilder<SqlBool>,
    before: number | null,
    count: number,
    narrow: Narrowing | null,
  ): Promise<number[]> {
    const table = SEARCH_TABLES[group];
    const join = narrow === null ? sql`` : narrow.join;
    const matches = sql`${match} ${narrow === null ? sql`` : sql`and ${narrow.condition}`}`;
    const below = (alias: string) => (before === null ? sql`true` : sql`${sql.ref(`${alias}.id`)} < ${before}`);
    const { rows } = await sql<{ id: number }>`
      with hits as materialized (
        select s.id from (
          select s.* from ${table} s where ${below('s')} order by s.id desc limit ${RECENT_WINDOW}
        ) s ${join}
        where ${matches} order by s.id desc limit ${count}
      )
      select id from hits
      union all
      select id from (
        select s.id from ${table} s ${join}
        where ${matches} and (select count(*) from hits) < ${count}
          and s.id + 0 < (
            select f.id from ${table} f where ${below('f')} order by f.id desc offset ${RECENT_WINDOW - 1} limit 1
          )
        order by s.id + 0 desc limit ${count}
      ) as rest`.execute(db);
    return rows
      .map((row) => row.id)
      .sort((a, b) => b - a)
      .slice(0, count);
  }

  let trigramIndex: Promise<boolean> | null = null;
  const hasTrigramIndex = () =>
    (trigramIndex ??= sql<{ found: number }>`
      select 1 as found from pg_indexes where indexname = 'search_words_trigram_idx' and schemaname = current_schema()`
      .execute(db)
      .then((result) => result.rows.length > 0));

  /** Vocabulary words matching any of the words' one-edit patterns (GIN trigram index), with the word's index. */
  async function neighbours(words: readonly { index: number; word: string }[]) {
    const lookups = words.map(({ index, word }) => {
      const { patterns, words: exact } = oneEditPatterns(word);
      const like = patterns.map((pattern) => sql`word like ${pattern}`);
      return sql`select ${index}::int as term, word, refs from search_words
        where word in (${sql.join(exact)}) or ${sql.join(like, sql` or `)}`;
    });
    const { rows } = await sql<{ term: number; word: string; refs: number }>`${sql.join(
      lookups,
      sql` union all `,
    )}`.execute(db);
    return rows;
  }

  return {
    upkeep: { start: () => undefined, stop: () => Promise.resolve() },

    async readIds(table: IdTable, stage, choices, before, count, filter) {
      return matchingIds(table, await stageMatch(stage, choices), before, count, songsOf(filter));
    },

    async readPlaylists(stage, choices, before, count, visible) {
      const ids = await matchingIds('playlists', await stageMatch(stage, choices), before, count, {
        join: sql`join playlists p on p.id = s.id`,
        condition: playlistVisibleTo(visible, 'p'),
      });
      if (ids.length === 0) return [];
      const { rows } = await sql<PlaylistRow>`select * from playlists where id in (${sql.join(ids)})`.execute(db);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async count(table, stage, choices, max, filter) {
      const narrow = songsOf(filter);
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from (
          select 1 from ${SEARCH_TABLES[table]} s ${narrow?.join ?? sql``}
          where ${await stageMatch(stage, choices)} ${narrow === null ? sql`` : sql`and ${narrow.condition}`}
          limit ${max}
        ) as hits`.execute(db);
      return rows[0]?.n ?? 0;
    },

    async vocabulary(_group, terms) {
      // One statement answers both questions, whatever was asked: search_words holds the words of every group.
      const words = await fold(terms);
      const plain = (word: string) => /^[\p{L}\p{N}]+$/u.test(word);
      const lookups = words.flatMap((word, index) => {
        if (!plain(word)) return [];
        // Short terms begin longer words almost always: that is not looked up.
        const extended =
          characters(word).length < EXTENSION_CHECK_MIN
            ? sql`true`
            : sql`exists (select 1 from search_words where word like ${`${word}%`} and word <> ${word})`;
        return [
          sql`select ${index}::int as term, exists (select 1 from search_words where word = ${word}) as known,
            ${extended} as extended`,
        ];
      });
      const found =
        lookups.length === 0
          ? []
          : (
              await sql<{
                term: number;
                known: boolean;
                extended: boolean;
              }>`${sql.join(lookups, sql` union all `)}`.execute(db)
            ).rows;
      return words.map((_word, index) => {
        const row = found.find((candidate) => candidate.term === index);
        return { known: row?.known ?? true, extended: row?.extended ?? true };
      });
    },

    async corrections(terms) {
      const none = terms.map(() => []);
      if (!(await hasTrigramIndex())) return none;
      const typed = (await fold(terms)).map((word, index) => ({ index, word })).filter(({ word }) => isTypoTerm(word));
      if (typed.length === 0) return none;
      const found = await neighbours(typed);
      return terms.map((_term, index) => {
        const word = typed.find((typedWord) => typedWord.index === index)?.word;
        return word === undefined
          ? []
          : bestCorrections(
              word,
              found.filter((row) => row.term === index),
            );
      });
    },
  };
}
