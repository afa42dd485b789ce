import { sql, type Kysely, type RawBuilder } from 'kysely';
import { playlistVisibleTo } from '../../db/playlist-visibility.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import type { IdTable, SearchBackend } from './search-backend.js';
import type { Condition, Stage, TermChoices } from './search-ranking.js';
import { bestCorrections, oneEditPatterns, TYPO_TERM_MIN } from './vocabulary.js';

/*
 * PostgreSQL: the weighted tsvector of migration 002 (name A, artist B, genre C) under a GIN index. Each stage is one
 * tsquery: `'t'` a whole word, `'t':*` a prefix, `:A` within the name, `& !(…)` the excluded tiers. Terms are folded in
 * SQL (`tonearm_fold`, as the documents were), so the tsquery text is built there.
 *
 * Typo tolerance: `search_words` (migration 005) counts the uses of each lexeme of the catalogue's names, kept by
 * triggers; pg_trgm's GIN index over it answers the LIKE patterns of a term's one-edit neighbourhood. Without pg_trgm
 * (a locked-down host), there is no fuzzy tier, as in migration 002.
 */

/** A piece of tsquery text: literal text, or the folded, quoted term at this index. */
type Piece = string | { term: number };

/** A word as a tsquery lexeme (words come from tsvectors: letters and digits; quoted anyway). */
function lexeme(word: string): string {
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

function tsCondition(condition: Condition, choices: TermChoices): Piece[] {
  const weight = condition.nameOnly ? 'A' : '';
  const pieces: Piece[] = ['('];
  choices.forEach(({ corrections }, index) => {
    if (index > 0) pieces.push(' & ');
    if (condition.tier === 'exact') pieces.push({ term: index }, weight === '' ? '' : `:${weight}`);
    else if (condition.tier === 'prefix' || corrections.length === 0) pieces.push({ term: index }, `:*${weight}`);
    else pieces.push('(', { term: index }, `:* | ${corrections.map(lexeme).join(' | ')})`);
  });
  pieces.push(')');
  return pieces;
}

/** The tsquery of a stage: its condition, and not each excluded one. */
export function tsStage(stage: Stage, choices: TermChoices): RawBuilder<unknown> {
  const pieces = [stage.include, ...stage.exclude].flatMap((condition, index) => [
    ...(index === 0 ? [] : [' & !']),
    ...tsCondition(condition, choices),
  ]);
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if (typeof piece === 'string' && typeof last === 'string') merged[merged.length - 1] = last + piece;
    else merged.push(piece);
  }
  const parts = merged.map((piece) =>
    typeof piece === 'string'
      ? sql`${piece}::text`
      : sql`quote_literal(tonearm_fold(${choices[piece.term]?.term ?? ''}::text))`,
  );
  return sql`to_tsquery('simple', ${sql.join(parts, sql` || `)})`;
}

/** The search tables by group. */
const SEARCH_TABLES = { songs: sql.table('search_songs'), artists: sql.table('search_artists') };

/** PostgreSQL's search: tsquery stages, and corrections through pg_trgm when the index exists. */
export function createPostgresSearch(db: Kysely<DB>): SearchBackend {
  const below = (before: number | null) => (before === null ? sql`` : sql`and s.id < ${before}`);

  let trigramIndex: Promise<boolean> | null = null;
  const hasTrigramIndex = () =>
    (trigramIndex ??= sql<{ found: number }>`
      select 1 as found from pg_indexes where indexname = 'search_words_trigram_idx' and schemaname = current_schema()`
      .execute(db)
      .then((result) => result.rows.length > 0));

  /** Vocabulary words matching any of the terms' one-edit patterns, with the index of the term they may correct. */
  async function neighbours(folded: readonly { index: number; word: string }[]) {
    const lookups = folded.map(({ index, word }) => {
      const { patterns, words } = oneEditPatterns(word);
      const like = patterns.map((pattern) => sql`word like ${pattern}`);
      return sql`select ${index}::int as term, word, refs from search_words
        where word in (${sql.join(words)}) or ${sql.join(like, sql` or `)}`;
    });
    const { rows } = await sql<{ term: number; word: string; refs: number }>`${sql.join(
      lookups,
      sql` union all `,
    )}`.execute(db);
    return rows;
  }

  return {
    async readIds(table: IdTable, stage, choices, before, count) {
      const { rows } = await sql<{ id: number }>`
        select s.id from ${SEARCH_TABLES[table]} s where s.document @@ ${tsStage(stage, choices)} ${below(before)}
        order by s.id desc limit ${count}`.execute(db);
      return rows.map((row) => row.id);
    },

    async readPlaylists(stage, choices, before, count, visible) {
      const { rows } = await sql<PlaylistRow>`
        select p.* from search_playlists s join playlists p on p.id = s.id
        where s.document @@ ${tsStage(stage, choices)} and ${playlistVisibleTo(visible, 'p')} ${below(before)}
        order by s.id desc limit ${count}`.execute(db);
      return rows;
    },

    async count(table, stage, choices, max) {
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from (
          select 1 from ${SEARCH_TABLES[table]} s where s.document @@ ${tsStage(stage, choices)} limit ${max}) as hits`.execute(
        db,
      );
      return rows[0]?.n ?? 0;
    },

    async corrections(terms) {
      const none = terms.map((term) => ({ term, corrections: [] as string[] }));
      if (!terms.some((term) => [...term].length >= TYPO_TERM_MIN) || !(await hasTrigramIndex())) return none;
      const { rows: foldedRows } = await sql<{ word: string }>`
        select tonearm_fold(term) as word from unnest(${[...terms]}::text[]) with ordinality as t(term, n) order by n`.execute(
        db,
      );
      const folded = foldedRows
        .map(({ word }, index) => ({ index, word }))
        .filter(({ word }) => [...word].length >= TYPO_TERM_MIN && /^[\p{L}\p{N}]+$/u.test(word));
      if (folded.length === 0) return none;
      const found = await neighbours(folded);
      return terms.map((term, index) => ({
        term,
        corrections: bestCorrections(
          folded.find((f) => f.index === index)?.word ?? '',
          found.filter((row) => row.term === index),
        ),
      }));
    },
  };
}
