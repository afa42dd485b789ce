import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Search at a library's size (issue 11): as-you-type prefixes and typo tolerance, on both dialects.
 *
 * SQLite: the FTS5 tables of 002 are rebuilt with prefix indexes of 1, 2 and 3 characters (a short prefix is then one
 * doclist instead of a merge of every word it begins); their content is rebuilt from the catalogue, and 002's triggers
 * keep them in step as before. For typos, `search_words` counts the uses of each folded word of the names (song name
 * and genre, artist name, playlist name) and `search_word_variants` holds each word's deletion neighbourhood. Triggers
 * cannot split text into words, so they queue the changed texts in `search_vocab_pending` (+1 new, -1 old), which the
 * search folds in (modules/search-index); the rows that exist now are queued the same way.
 *
 * PostgreSQL: the tsvector documents of 002 already answer prefix tsqueries; songs get a second one of the name alone
 * (the tiers put name matches first, and a weight check reads every hit). `search_words` counts the lexemes of the
 * same texts, kept by statement-level triggers (one aggregated upsert per statement, whatever its row count), with
 * pg_trgm's GIN index when the extension is there; 002's trigram indexes over whole song texts give way to it. Without
 * pg_trgm there is no typo tolerance, as in 002.
 */

const ENTITIES = [
  { table: 'songs', body: (row: string) => `${row}.name || ' ' || ${row}.genre`, columns: 'name, genre' },
  { table: 'artists', body: (row: string) => `${row}.name`, columns: 'name' },
  { table: 'playlists', body: (row: string) => `${row}.name`, columns: 'name' },
] as const;

const FTS_TABLES = [
  { name: 'search_songs', columns: 'name, artist, genre' },
  { name: 'search_artists', columns: 'name' },
  { name: 'search_playlists', columns: 'name' },
] as const;

/** 002's FTS5 tables, or (issue 11) the same with prefix indexes; filled from the catalogue. */
async function rebuildFtsTables(db: Kysely<unknown>, prefixes: string | null): Promise<void> {
  const options = `tokenize = 'unicode61 remove_diacritics 2'${prefixes === null ? '' : `, prefix = '${prefixes}'`}`;
  for (const { name, columns } of FTS_TABLES) {
    await sql`drop table if exists ${sql.id(name)}`.execute(db);
    await sql`create virtual table ${sql.id(name)} using fts5(${sql.raw(columns)}, ${sql.raw(options)})`.execute(db);
  }
  await sql`insert into search_songs (rowid, name, artist, genre)
    select s.id, s.name, coalesce(a.name, ''), s.genre from songs s left join artists a on a.id = s.artist_id`.execute(
    db,
  );
  await sql`insert into search_artists (rowid, name) select id, name from artists`.execute(db);
  await sql`insert into search_playlists (rowid, name) select id, name from playlists`.execute(db);
}

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  await rebuildFtsTables(db, '1 2 3');
  const statements = [
    // Each index's terms in order: whether a term begins a longer word is one range lookup.
    ...FTS_TABLES.map(
      ({ name }) => sql`create virtual table ${sql.id(`${name}_terms`)} using fts5vocab(${sql.id(name)}, 'row')`,
    ),
    sql`create table search_words (word text primary key, refs integer not null) without rowid`,
    sql`create table search_word_variants (
      variant text not null, word text not null, primary key (variant, word)) without rowid`,
    sql`create table search_vocab_pending (id integer primary key, body text not null, delta integer not null)`,
  ];
  for (const { table, body, columns } of ENTITIES) {
    const [oldBody, newBody] = [sql.raw(body('old')), sql.raw(body('new'))];
    const changed = sql.raw(
      columns
        .split(', ')
        .map((column) => `old.${column} is not new.${column}`)
        .join(' or '),
    );
    statements.push(
      sql`create trigger ${sql.id(`search_vocab_${table}_insert`)} after insert on ${sql.id(table)} begin
        insert into search_vocab_pending (body, delta) values (${newBody}, 1);
      end`,
      sql`create trigger ${sql.id(`search_vocab_${table}_update`)} after update of ${sql.raw(columns)}
        on ${sql.id(table)} when ${changed} begin
        insert into search_vocab_pending (body, delta) values (${oldBody}, -1), (${newBody}, 1);
      end`,
      sql`create trigger ${sql.id(`search_vocab_${table}_delete`)} after delete on ${sql.id(table)} begin
        insert into search_vocab_pending (body, delta) values (${oldBody}, -1);
      end`,
      sql`insert into search_vocab_pending (body, delta) select ${sql.raw(body(table))}, 1 from ${sql.id(table)}`,
    );
  }
  for (const statement of statements) await statement.execute(db);
}

async function sqliteDown(db: Kysely<unknown>): Promise<void> {
  for (const { table } of ENTITIES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger if exists ${sql.id(`search_vocab_${table}_${event}`)}`.execute(db);
    }
  }
  const tables = ['search_vocab_pending', 'search_word_variants', 'search_words'];
  for (const table of [...tables, ...FTS_TABLES.map(({ name }) => `${name}_terms`)]) {
    await sql`drop table if exists ${sql.id(table)}`.execute(db);
  }
  await rebuildFtsTables(db, null);
}

async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}

/**
 * The body of the word-count trigger function: the lexemes of the statement's new rows count +1, those of its old
 * rows -1 (`changes`, a query over the transition tables the event has); counts reaching 0 are removed. Upserts go in
 * word order, so concurrent statements lock shared words in the same order.
 */
export function wordsTriggerBody(changes: string): ReturnType<typeof sql.raw> {
  return sql.raw(`
    declare touched text[];
    begin
      with changes (body, n) as (${changes}),
      net as (
        select lexeme as word, sum(n)::int as n
        from changes, unnest(to_tsvector('simple', tonearm_search_text(body)))
        group by lexeme having sum(n) <> 0
      ),
      upserted as (
        insert into search_words (word, refs) select word, n from net order by word
        on conflict (word) do update set refs = search_words.refs + excluded.refs
        returning word, refs
      )
      select array_agg(word) into touched from upserted where refs <= 0;
      if touched is not null then
        delete from search_words where word = any(touched) and refs <= 0;
      end if;
      return null;
    end`);
}

/** 002's full-text indexes. */
const GIN_INDEXES = ['search_songs_document_idx', 'search_artists_document_idx', 'search_playlists_document_idx'];

/** One row's text as the words count it: songs' name and genre, the others' name (transition rows as jsonb). */
export const BODY = `(to_jsonb(r) ->> 'name') || coalesce(' ' || (to_jsonb(r) ->> 'genre'), '')`;

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`create table search_words (word text primary key, refs integer not null)`,
    sql`create function tonearm_search_words_insert() returns trigger language plpgsql as $words$
      ${wordsTriggerBody(`select ${BODY}, 1 from new_rows r`)} $words$`,
    sql`create function tonearm_search_words_update() returns trigger language plpgsql as $words$
      ${wordsTriggerBody(`select ${BODY}, 1 from new_rows r union all select ${BODY}, -1 from old_rows r`)} $words$`,
    sql`create function tonearm_search_words_delete() returns trigger language plpgsql as $words$
      ${wordsTriggerBody(`select ${BODY}, -1 from old_rows r`)} $words$`,
  ];
  for (const { table } of ENTITIES) {
    const on = sql.id(table);
    statements.push(
      sql`create trigger ${sql.id(`search_words_${table}_insert`)} after insert on ${on}
        referencing new table as new_rows for each statement execute function tonearm_search_words_insert()`,
      sql`create trigger ${sql.id(`search_words_${table}_update`)} after update on ${on}
        referencing old table as old_rows new table as new_rows
        for each statement execute function tonearm_search_words_update()`,
      sql`create trigger ${sql.id(`search_words_${table}_delete`)} after delete on ${on}
        referencing old table as old_rows for each statement execute function tonearm_search_words_delete()`,
    );
  }
  statements.push(
    // Whether a term begins a longer word: a range of this index, whatever the database's collation.
    sql`create index search_words_prefix_idx on search_words (word text_pattern_ops)`,
    sql`insert into search_words (word, refs)
    select lexeme, count(*)::int from (
      select name || ' ' || genre as body from songs
      union all select name from artists
      union all select name from playlists
    ) as texts, unnest(to_tsvector('simple', tonearm_search_text(body)))
    group by lexeme`,
  );
  for (const statement of statements) await statement.execute(db);
  // The song name's own document: "every term in the name" is then a GIN lookup, not a read of every row to check the
  // weight of each hit.
  await sql`alter table search_songs add column name_document tsvector
    generated always as (to_tsvector('simple', tonearm_search_text(name))) stored`.execute(db);
  await sql`create index search_songs_name_idx on search_songs using gin (name_document) with (fastupdate = off)`.execute(
    db,
  );
  // GIN's pending list (fastupdate) is read in full by every search until a vacuum merges it: after a bulk import,
  // milliseconds per query. The catalogue is read far more than written, so entries go straight into the index.
  for (const index of GIN_INDEXES) {
    await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }

  const schema = await trigramSchema(db);
  if (schema !== null) {
    const ops = sql.id(schema, 'gin_trgm_ops');
    await sql`create index search_words_trigram_idx on search_words using gin (word ${ops}) with (fastupdate = off)`.execute(
      db,
    );
    await sql`drop index if exists search_songs_trigram_idx`.execute(db);
    await sql`drop index if exists search_artists_trigram_idx`.execute(db);
  }
}

async function postgresDown(db: Kysely<unknown>): Promise<void> {
  for (const index of GIN_INDEXES) await sql`alter index ${sql.id(index)} reset (fastupdate)`.execute(db);
  for (const { table } of ENTITIES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger if exists ${sql.id(`search_words_${table}_${event}`)} on ${sql.id(table)}`.execute(db);
    }
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql`drop function if exists ${sql.id(`tonearm_search_words_${event}`)}()`.execute(db);
  }
  await sql`drop table if exists search_words`.execute(db);
  await sql`alter table search_songs drop column if exists name_document`.execute(db);
  const schema = await trigramSchema(db);
  if (schema !== null) {
    const ops = sql.id(schema, 'gin_trgm_ops');
    await sql`create index if not exists search_songs_trigram_idx on search_songs
      using gin ((tonearm_fold(name || ' ' || artist || ' ' || genre)) ${ops})`.execute(db);
    await sql`create index if not exists search_artists_trigram_idx on search_artists
      using gin ((tonearm_fold(name)) ${ops})`.execute(db);
  }
}

export const searchAtScaleMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') await postgresUp(db);
    else await sqliteUp(db);
  },

  async down(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') await postgresDown(db);
    else await sqliteDown(db);
  },
};
