import { sql, type Kysely, type RawBuilder } from 'kysely';
import { playlistVisibleTo } from '../../db/playlist-visibility.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import { songFilterCondition, type IdTable, type SearchBackend, type SongFilter } from './search-backend.js';
import type { Condition, Stage, TermChoices } from './search-ranking.js';
import { createVocabularyKeeper } from './sqlite-vocabulary.js';
import { bestCorrections, foldWord, neighbourhoodKeys, EXTENSION_CHECK_MIN, isTypoTerm } from './vocabulary.js';

/*
 * SQLite: the FTS5 tables of migration 005 (prefix indexes of 1 to 3 characters, so a short prefix is one doclist),
 * read with `order by rowid desc limit n`, which FTS5 serves by walking its doclists newest first and stopping at n.
 *
 * Typo tolerance: `search_word_variants` holds the deletion neighbourhood (the word, and the word minus one character)
 * of each word of the vocabulary (sqlite-vocabulary.ts), so the words one edit from a term are a few primary-key
 * lookups.
 */

/** A term or word as an FTS5 string (letters and digits only, quoted anyway). */
function quoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The FTS5 expression of one condition: every term, as a word, a prefix or a choice of corrections. */
function fts5Condition(condition: Condition, choices: TermChoices): string {
  const parts = choices.map(({ term, extended, corrections }) => {
    // A term no longer word begins with is matched as itself: the same rows, without merging a prefix's doclists.
    const asPrefix = extended ? `${quoted(term)}*` : quoted(term);
    if (condition.tier === 'exact') return quoted(term);
    if (condition.tier === 'prefix' || corrections.length === 0) return asPrefix;
    return `(${[asPrefix, ...corrections.map(quoted)].join(' OR ')})`;
  });
  const all = parts.join(' AND ');
  return condition.nameOnly ? `{name} : (${all})` : `(${all})`;
}

/** The FTS5 MATCH expression of a stage: its condition, NOT each excluded one. */
export function fts5Stage(stage: Stage, choices: TermChoices): string {
  return [stage.include, ...stage.exclude].map((condition) => fts5Condition(condition, choices)).join(' NOT ');
}

/** The FTS5 tables of songs and artists (playlists are read with their rows). */
const SEARCH_TABLES = { songs: 'search_songs', artists: 'search_artists' } as const;

/** The fts5vocab tables (migration 005): each index's terms, in order. */
const TERM_TABLES = {
  songs: sql.table('search_songs_terms'),
  artists: sql.table('search_artists_terms'),
  playlists: sql.table('search_playlists_terms'),
};

/**
 * The range of the words that begin with a term and are longer: from the term and a control character (which no word
 * holds; `>` the term itself would make fts5vocab read the term's own doclist first) to the term and the last
 * character.
 */
const AFTER_TERM = '\u0001';
const LAST_CHARACTER = '\u{10FFFF}';

/** A join to the songs of the filter, or nothing. */
function narrowed(from: RawBuilder<unknown>, filter: SongFilter): RawBuilder<unknown> {
  const condition = songFilterCondition(filter, 'f');
  return condition === null ? sql`` : sql`join songs f on f.id = ${from}.rowid and ${condition}`;
}

/** SQLite's search: FTS5 stages, and corrections from the deletion neighbourhoods of the vocabulary. */
export function createSqliteSearch(db: Kysely<DB>): SearchBackend {
  const vocabulary = createVocabularyKeeper(db);
  const below = (column: string, before: number | null) =>
    before === null ? sql`` : sql`and ${sql.ref(column)} < ${before}`;
  return {
    upkeep: { start: () => vocabulary.keepUp(), stop: () => vocabulary.stop() },

    async readIds(table: IdTable, stage, choices, before, count, filter) {
      const name = SEARCH_TABLES[table];
      const from = sql.table(name);
      const { rows } = await sql<{ id: number }>`
        select ${from}.rowid as id from ${from} ${narrowed(from, filter)}
        where ${from} match ${fts5Stage(stage, choices)} ${below(`${name}.rowid`, before)}
        order by ${from}.rowid desc limit ${count}`.execute(db);
      return rows.map((row) => row.id);
    },

    async readPlaylists(stage, choices, before, count, visible) {
      const { rows } = await sql<PlaylistRow>`
        select p.* from search_playlists join playlists p on p.id = search_playlists.rowid
        where search_playlists match ${fts5Stage(stage, choices)} and ${playlistVisibleTo(visible, 'p')}
        ${below('search_playlists.rowid', before)}
        order by search_playlists.rowid desc limit ${count}`.execute(db);
      return rows;
    },

    async count(table, stage, choices, max, filter) {
      const from = sql.table(SEARCH_TABLES[table]);
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from (
          select 1 from ${from} ${narrowed(from, filter)} where ${from} match ${fts5Stage(stage, choices)} limit ${max}
        )`.execute(db);
      return rows[0]?.n ?? 0;
    },

    async vocabulary(group, terms, extensions) {
      // Exact tiers of a missing word are one failed doclist lookup in FTS5: words are not looked up beforehand.
      if (!extensions) return terms.map(() => ({ known: true, extended: null }));
      const words = terms.map(foldWord);
      // Short terms begin longer words almost always; beyond ASCII, this fold may differ from the tokenizer's.
      const checked = (word: string) => word.length >= EXTENSION_CHECK_MIN && /^[a-z0-9]+$/.test(word);
      const lookups = words.flatMap((word, index) =>
        checked(word)
          ? [
              sql`select ${index} as term where exists (select 1 from ${TERM_TABLES[group]}
                where term >= ${word + AFTER_TERM} and term < ${word + LAST_CHARACTER})`,
            ]
          : [],
      );
      if (lookups.length === 0) return words.map(() => ({ known: true, extended: true }));
      const { rows } = await sql<{ term: number }>`${sql.join(lookups, sql` union all `)}`.execute(db);
      const extended = new Set(rows.map((row) => row.term));
      return words.map((word, index) => ({ known: true, extended: !checked(word) || extended.has(index) }));
    },

    async corrections(terms) {
      const words = terms.map(foldWord);
      const typed = words.filter(isTypoTerm);
      if (typed.length === 0) return terms.map(() => []);
      await vocabulary.beforeLookup();
      const keys = [...new Set(typed.flatMap(neighbourhoodKeys))];
      const { rows } = await sql<{ word: string; refs: number }>`
        select w.word, w.refs from search_word_variants v join search_words w on w.word = v.word
        where v.variant in (${sql.join(keys)})`.execute(db);
      return words.map((word) => (isTypoTerm(word) ? bestCorrections(word, rows) : []));
    },
  };
}
