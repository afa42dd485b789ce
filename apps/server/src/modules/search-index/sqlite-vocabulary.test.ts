import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { SQLITE_BUSY_TIMEOUT_MS, SQLITE_FILE_NAME } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { openSqliteFile } from '../../db/sqlite-driver.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { createSearchIndexRepository } from './search-index.repository.js';
import { searchTerms } from './search-terms.js';

const queued = async (db: Kysely<DB>) =>
  (await sql<{ n: number }>`select count(*) as n from search_vocab_pending`.execute(db)).rows[0]?.n ?? -1;

/** Waits until the queue is empty (the background upkeep runs on timers). */
async function drained(db: Kysely<DB>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await queued(db)) > 0) {
    if (Date.now() > deadline) throw new Error('the vocabulary queue was not folded in');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Inserts `count` artists named `Prefix 1…count` in one statement (one queued name each). */
async function artists(db: Kysely<DB>, prefix: string, count: number): Promise<void> {
  const values = Array.from({ length: count }, (_, i) => ({ name: `${prefix} ${String(i + 1)}`, image_key: null }));
  await db.insertInto('artists').values(values).execute();
}

// PostgreSQL's triggers keep the vocabulary within the writing statement: there is no queue to fold in.
describeEachDialect('typo vocabulary upkeep (%s)', { uses: 'database', fresh: 'each', only: 'sqlite' }, (t) => {
  it('folds a bulk write in the background, a batch at a time, once started', async () => {
    await artists(t.db, 'Marmalade Skies', 1800);
    expect(await queued(t.db)).toBe(1800);
    const search = createSearchIndexRepository(t.db, t.dialect);
    search.vocabularyUpkeep.start();
    await drained(t.db);
    await search.vocabularyUpkeep.stop();
    const { rows } = await sql<{ word: string; refs: number }>`
      select word, refs from search_words where word in ('marmalade', 'skies', '1800') order by word`.execute(t.db);
    expect(rows).toEqual([
      { word: '1800', refs: 1 },
      { word: 'marmalade', refs: 1800 },
      { word: 'skies', refs: 1800 },
    ]);
    expect((await search.idPage('artists', searchTerms('marmelade 1800'), undefined, 5)).ids).toHaveLength(1);
  });

  it('folds in what a lookup needs first, and leaves the rest of a bulk write to the background', async () => {
    await artists(t.db, 'Tangerine Dream', 1500);
    const search = createSearchIndexRepository(t.db, t.dialect);
    // A typo: the lookup reaches the fuzzy tier, which needs the vocabulary.
    expect((await search.idPage('artists', searchTerms('tangerinee'), undefined, 5)).ids).toHaveLength(5);
    expect(await queued(t.db)).toBeLessThan(1500);
    await drained(t.db);
    await search.vocabularyUpkeep.stop();
    expect((await search.idPage('artists', searchTerms('tangerin dreem 1500'), undefined, 5)).ids).toHaveLength(1);
  });

  it('stops when asked, and does not start again after', async () => {
    const search = createSearchIndexRepository(t.db, t.dialect);
    await search.vocabularyUpkeep.stop();
    await artists(t.db, 'Quiet Storm', 600);
    search.vocabularyUpkeep.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await queued(t.db)).toBe(600);
  });

  it('never waits for another writer’s lock: a lookup reads the vocabulary as it is, the background folds later', async () => {
    await artists(t.db, 'Locked Harbour', 700);
    // An import in another process, in the middle of a batch: it holds the write lock.
    const other = openSqliteFile(path.join(t.database.dataDir, SQLITE_FILE_NAME));
    other.exec('begin immediate');
    const search = createSearchIndexRepository(t.db, t.dialect);
    try {
      const started = performance.now();
      // A typo: the lookup would fold in first. Waiting for the lock would hold the event loop for the whole busy
      // timeout (5 s) and then fail; it answers at once from the exact and prefix tiers instead.
      const page = await search.idPage('artists', searchTerms('harbour lockd'), undefined, 5);
      expect(page.ids).toHaveLength(0);
      expect(performance.now() - started).toBeLessThan(SQLITE_BUSY_TIMEOUT_MS / 2);
      expect(await queued(t.db)).toBe(700);
      search.vocabularyUpkeep.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await queued(t.db), 'nothing folds while the other writer holds the lock').toBe(700);
    } finally {
      other.exec('commit');
      other.close();
    }
    await drained(t.db);
    await search.vocabularyUpkeep.stop();
    expect((await search.idPage('artists', searchTerms('harbour lockd'), undefined, 5)).ids).toHaveLength(5);
  });
});
