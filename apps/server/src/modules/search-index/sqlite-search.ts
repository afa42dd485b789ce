import { sql, type Kysely, type RawBuilder } from 'kysely';
import { playlistVisibleTo } from '../../db/playlist-visibility.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import { songFilterCondition, type IdTable, type SearchBackend, type SongFilter } from './search-backend.js';
import type { Condition, Stage, TermChoices } from './search-ranking.js';
import {
  bestCorrections,
  foldWord,
  hasTypoNeighbourhood,
  neighbourhoodKeys,
  EXTENSION_CHECK_MIN,
  isTypoTerm,
  wordDeltas,
} from './vocabulary.js';

/*
 * SQLite: the FTS5 tables of migration 005 (prefix indexes of 1 to 3 characters, so a short prefix is one doclist),
 * read with `order by rowid desc limit n`, which FTS5 serves by walking its doclists newest first and stopping at n.
 *
 * Typo tolerance: `search_words` counts the uses of each folded word of the catalogue's names, and
 * `search_word_variants` holds each word's deletion neighbourhood (the word and the word minus one character), so the
 * words one edit from a term are a few primary-key lookups. SQL triggers cannot split a name into words, so they queue
 * the changed names in `search_vocab_pending` (+1 for a new text, -1 for an old one); a lookup first folds the queue
 * into the word counts, a bounded batch at a time.
 */

/** Queued name changes folded into the vocabulary per batch, and how long one lookup may spend on it. */
const VOCABULARY_BATCH = 500;
const VOCABULARY_BUDGET_MS = 8;

/** A term or word as an FTS5 string (letters and digits only, quoted anyway). */
function quoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

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

/** Folds queued name changes into the word counts and their neighbourhoods, within a time budget. */
async function syncVocabulary(db: Kysely<DB>): Promise<void> {
  const { rows: queued } = await sql`select 1 as queued from search_vocab_pending limit 1`.execute(db);
  if (queued.length === 0) return;
  const started = performance.now();
  let more = true;
  while (more && performance.now() - started < VOCABULARY_BUDGET_MS) {
    more = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: number; body: string; delta: number }>`
        select id, body, delta from search_vocab_pending order by id limit ${VOCABULARY_BATCH}`.execute(trx);
      const last = rows.at(-1);
      if (last === undefined) return false;
      for (const [word, delta] of wordDeltas(rows)) await applyWordDelta(trx, word, delta);
      await sql`delete from search_vocab_pending where id <= ${last.id}`.execute(trx);
      return rows.length === VOCABULARY_BATCH;
    });
  }
}

async function applyWordDelta(db: Kysely<DB>, word: string, delta: number): Promise<void> {
  const { rows } = await sql<{ refs: number }>`
    insert into search_words (word, refs) values (${word}, ${delta})
    on conflict (word) do update set refs = refs + excluded.refs returning refs`.execute(db);
  const refs = rows[0]?.refs ?? 0;
  const wasUsed = refs - delta > 0;
  if (refs > 0 === wasUsed) return;
  if (refs > 0) {
    if (!hasTypoNeighbourhood(word)) return;
    const variants = neighbourhoodKeys(word).map((key) => sql`(${key}, ${word})`);
    await sql`insert into search_word_variants (variant, word) values ${sql.join(variants)} on conflict do nothing`.execute(
      db,
    );
    return;
  }
  await sql`delete from search_words where word = ${word}`.execute(db);
  await sql`delete from search_word_variants where variant in (${sql.join(neighbourhoodKeys(word))}) and word = ${word}`.execute(
    db,
  );
}

/** A join to the songs of the filter, or nothing. */
function narrowed(from: RawBuilder<unknown>, filter: SongFilter): RawBuilder<unknown> {
  const condition = songFilterCondition(filter, 'f');
  return condition === null ? sql`` : sql`join songs f on f.id = ${from}.rowid and ${condition}`;
}

/** SQLite's search: FTS5 stages, and corrections from the deletion neighbourhoods of the vocabulary. */
export function createSqliteSearch(db: Kysely<DB>): SearchBackend {
  const below = (column: string, before: number | null) =>
    before === null ? sql`` : sql`and ${sql.ref(column)} < ${before}`;
  return {
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

    async extensions(group, terms) {
      const found: boolean[] = [];
      for (const term of terms) {
        const word = foldWord(term);
        // Beyond ASCII, this fold may differ from the tokenizer's.
        if (word.length < EXTENSION_CHECK_MIN || !/^[a-z0-9]+$/.test(word)) {
          found.push(true);
          continue;
        }
        const { rows } = await sql`
          select 1 as found from ${TERM_TABLES[group]} where term >= ${word + AFTER_TERM} and term < ${word + LAST_CHARACTER}
          limit 1`.execute(db);
        found.push(rows.length > 0);
      }
      return found;
    },

    async corrections(terms) {
      const words = terms.map(foldWord);
      const typed = words.filter(isTypoTerm);
      if (typed.length === 0) return terms.map(() => []);
      await syncVocabulary(db);
      const keys = [...new Set(typed.flatMap(neighbourhoodKeys))];
      const { rows } = await sql<{ word: string; refs: number }>`
        select w.word, w.refs from search_word_variants v join search_words w on w.word = v.word
        where v.variant in (${sql.join(keys)})`.execute(db);
      return words.map((word) => (isTypoTerm(word) ? bestCorrections(word, rows) : []));
    },
  };
}
