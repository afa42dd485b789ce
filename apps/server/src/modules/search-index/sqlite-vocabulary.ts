import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { inTransactionWithoutWaiting, isLockBusy } from '../../db/without-waiting.js';
import { hasTypoNeighbourhood, neighbourhoodKeys, wordDeltas } from './vocabulary.js';

/*
 * SQLite's typo vocabulary (migration 005): `search_words` counts the uses of each folded word of the catalogue's names,
 * `search_word_variants` holds each word's deletion neighbourhood. SQL triggers cannot split a name into words, so they
 * queue the changed names in `search_vocab_pending` (+1 a new text, -1 an old one), and this folds the queue in: a
 * batch per transaction, a few milliseconds at a time, so the event loop is never held for long. A lookup that needs
 * the vocabulary folds in what it can within its budget; whatever a bulk write left behind is folded in the background.
 */

/** Queued name changes folded in per transaction. */
const BATCH = 500;
/** How long a lookup may spend folding in before it reads the vocabulary. */
const LOOKUP_BUDGET_MS = 4;
/** Pause between two background batches: requests run in between. */
const BACKGROUND_PAUSE_MS = 2;
/** Pause after finding the database locked by another writer (an import in another process) before trying again. */
const BUSY_RETRY_MS = 1_000;

/**
 * Applies net changes of word use, a few statements whatever their number: the counts in one upsert; the words that
 * come into use get their neighbourhoods, those that go out of use lose them and their row.
 */
async function applyWordDeltas(db: Kysely<DB>, deltas: Map<string, number>): Promise<void> {
  if (deltas.size === 0) return;
  const { rows } = await sql<{ word: string; refs: number }>`
    insert into search_words (word, refs) select key, value from json_each(${JSON.stringify(Object.fromEntries(deltas))})
    where true on conflict (word) do update set refs = refs + excluded.refs returning word, refs`.execute(db);
  const neighbourhoods = (words: string[]) =>
    JSON.stringify(Object.fromEntries(words.map((word) => [word, neighbourhoodKeys(word)])));
  const born = rows.filter(({ word, refs }) => refs > 0 && refs - (deltas.get(word) ?? 0) <= 0).map((row) => row.word);
  const gone = rows.filter(({ refs }) => refs <= 0).map((row) => row.word);
  const withVariants = born.filter(hasTypoNeighbourhood);
  if (withVariants.length > 0) {
    await sql`insert into search_word_variants (variant, word)
      select v.value, w.key from json_each(${neighbourhoods(withVariants)}) w, json_each(w.value) v
      where true on conflict do nothing`.execute(db);
  }
  if (gone.length > 0) {
    await sql`delete from search_word_variants where (variant, word) in (
      select v.value, w.key from json_each(${neighbourhoods(gone)}) w, json_each(w.value) v)`.execute(db);
    await sql`delete from search_words where word in (select value from json_each(${JSON.stringify(gone)}))`.execute(
      db,
    );
  }
}

/**
 * Folds one batch of the queue in, in one transaction; answers whether more is queued. It never waits for another
 * writer's lock (inTransactionWithoutWaiting): locked, it throws SQLITE_BUSY at once and the caller tries later.
 */
async function foldBatch(db: Kysely<DB>): Promise<boolean> {
  return inTransactionWithoutWaiting(db, async (trx) => {
    const { rows } = await sql<{ id: number; body: string; delta: number }>`
      select id, body, delta from search_vocab_pending order by id limit ${BATCH}`.execute(trx);
    const last = rows.at(-1);
    if (last === undefined) return false;
    await applyWordDeltas(trx, wordDeltas(rows));
    await sql`delete from search_vocab_pending where id <= ${last.id}`.execute(trx);
    return rows.length === BATCH;
  });
}

/** Keeps the vocabulary in step with the queue: before a lookup, and in the background after bulk writes. */
export interface VocabularyKeeper {
  /** Folds the queue in for at most a lookup's budget (at least one batch), then leaves the rest to the background. */
  beforeLookup(): Promise<void>;
  /** Folds the whole queue in, a batch at a time with pauses between, until it is empty or `stop` is called. */
  keepUp(): void;
  /** Stops the background folding: its next batch is cancelled, and the one under way (if any) finishes first. */
  stop(): Promise<void>;
}

export function createVocabularyKeeper(db: Kysely<DB>): VocabularyKeeper {
  let background = false;
  let stopped = false;
  /** The pause before the next background batch, while one is waiting. */
  let timer: NodeJS.Timeout | null = null;
  /** The background batch under way, while one is. */
  let folding: Promise<void> | null = null;

  const queued = async () =>
    (await sql`select 1 as queued from search_vocab_pending limit 1`.execute(db)).rows.length > 0;

  function keepUp(): void {
    if (background || stopped) return;
    background = true;
    const step = (pauseMs: number) => {
      timer = setTimeout(() => {
        timer = null;
        folding = foldBatch(db)
          .then(
            (more) => {
              if (more && !stopped) step(BACKGROUND_PAUSE_MS);
              else background = false;
            },
            (error: unknown) => {
              // Another writer holds the lock: later. The database went away (shutdown): the next start-up folds.
              if (isLockBusy(error) && !stopped) step(BUSY_RETRY_MS);
              else background = false;
            },
          )
          .finally(() => {
            folding = null;
          });
      }, pauseMs);
      timer.unref();
    };
    step(BACKGROUND_PAUSE_MS);
  }

  return {
    async beforeLookup() {
      if (!(await queued())) return;
      const started = performance.now();
      let more = true;
      try {
        while (more && performance.now() - started < LOOKUP_BUDGET_MS) more = await foldBatch(db);
      } catch (error) {
        // Locked by another writer: this lookup reads the vocabulary as it is; the background folds in later.
        if (!isLockBusy(error)) throw error;
      }
      if (more) keepUp();
    },
    keepUp,
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      background = false;
      await folding;
    },
  };
}
