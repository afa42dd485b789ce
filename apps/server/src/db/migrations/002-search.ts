import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * Catalogue indexes (case-insensitive unique artist names; blob keys, looked up before a blob is deleted) and
 * full-text search over song names, artist names, genres and playlist names (DESIGN §3): one search table per entity,
 * keyed by the entity id and kept in step by triggers, so every write path (API, import, demo seed, FK actions) updates
 * it without application code.
 *
 * SQLite: FTS5 tables with the unicode61 tokenizer (case folding, remove_diacritics 2).
 * PostgreSQL: plain tables with a generated, weighted tsvector (GIN) over `tonearm_fold(text)`, which lower-cases and
 * strips accents. `tonearm_fold` uses the unaccent extension when it can be created (superuser, or the database owner
 * since unaccent is a trusted extension on PostgreSQL 13+), and otherwise a built-in translate() of the Latin accents.
 * A trigram index (pg_trgm, also trusted) serves typo-tolerant matching when that extension is available.
 */

/** Latin letters with diacritics, and their plain letters at the same positions (fallback when unaccent is absent). */
const LATIN_ACCENTED =
  'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆĈĊČçćĉċčĎĐďđÈÉÊËĒĔĖĘĚèéêëēĕėęěĜĞĠĢĝğġģĤĦĥħÌÍÎÏĨĪĬĮİìíîïĩīĭįıĴĵĶķĹĻĽĿŁĺļľŀłÑŃŅŇñńņň' +
  'ÒÓÔÕÖØŌŎŐòóôõöøōŏőŔŖŘŕŗřŚŜŞŠśŝşšŢŤŦţťŧÙÚÛÜŨŪŬŮŰŲùúûüũūŭůűųŴŵÝŸŶýÿŷŹŻŽźżž';
const LATIN_PLAIN =
  'AAAAAAAAAaaaaaaaaaCCCCCcccccDDddEEEEEEEEEeeeeeeeeeGGGGggggHHhhIIIIIIIIIiiiiiiiiiJjKkLLLLLlllllNNNNnnnn' +
  'OOOOOOOOOoooooooooRRRrrrSSSSssssTTTtttUUUUUUUUUUuuuuuuuuuuWwYYYyyyZZZzzz';

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`create virtual table search_songs using fts5(name, artist, genre, tokenize = 'unicode61 remove_diacritics 2')`,
    sql`create virtual table search_artists using fts5(name, tokenize = 'unicode61 remove_diacritics 2')`,
    sql`create virtual table search_playlists using fts5(name, tokenize = 'unicode61 remove_diacritics 2')`,

    sql`create trigger search_songs_after_insert after insert on songs begin
      insert into search_songs (rowid, name, artist, genre)
      values (new.id, new.name, coalesce((select name from artists where id = new.artist_id), ''), new.genre);
    end`,
    sql`create trigger search_songs_after_update after update of name, genre, artist_id on songs begin
      delete from search_songs where rowid = old.id;
      insert into search_songs (rowid, name, artist, genre)
      values (new.id, new.name, coalesce((select name from artists where id = new.artist_id), ''), new.genre);
    end`,
    sql`create trigger search_songs_after_delete after delete on songs begin
      delete from search_songs where rowid = old.id;
    end`,

    sql`create trigger search_artists_after_insert after insert on artists begin
      insert into search_artists (rowid, name) values (new.id, new.name);
    end`,
    sql`create trigger search_artists_after_update after update of name on artists begin
      delete from search_artists where rowid = old.id;
      insert into search_artists (rowid, name) values (new.id, new.name);
      update search_songs set artist = new.name where rowid in (select id from songs where artist_id = new.id);
    end`,
    sql`create trigger search_artists_after_delete after delete on artists begin
      delete from search_artists where rowid = old.id;
      update search_songs set artist = '' where rowid in (select id from songs where artist_id = old.id);
    end`,

    sql`create trigger search_playlists_after_insert after insert on playlists begin
      insert into search_playlists (rowid, name) values (new.id, new.name);
    end`,
    sql`create trigger search_playlists_after_update after update of name on playlists begin
      delete from search_playlists where rowid = old.id;
      insert into search_playlists (rowid, name) values (new.id, new.name);
    end`,
    sql`create trigger search_playlists_after_delete after delete on playlists begin
      delete from search_playlists where rowid = old.id;
    end`,

    // Rows written before this migration.
    sql`insert into search_songs (rowid, name, artist, genre)
      select s.id, s.name, coalesce(a.name, ''), s.genre from songs s left join artists a on a.id = s.artist_id`,
    sql`insert into search_artists (rowid, name) select id, name from artists`,
    sql`insert into search_playlists (rowid, name) select id, name from playlists`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/** Runs `statement` inside a savepoint; answers false (and leaves the transaction usable) when it fails. */
async function tryStatement(db: Kysely<unknown>, statement: ReturnType<typeof sql>): Promise<boolean> {
  await sql`savepoint tonearm_optional`.execute(db);
  try {
    await statement.execute(db);
    await sql`release savepoint tonearm_optional`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint tonearm_optional`.execute(db);
    return false;
  }
}

async function extensionSchema(db: Kysely<unknown>, name: string): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = ${name}`.execute(db);
  return rows[0]?.schema ?? null;
}

/** Creates the extension unless present; answers the schema it lives in, or null when it cannot be had. */
async function ensureExtension(db: Kysely<unknown>, name: string): Promise<string | null> {
  const existing = await extensionSchema(db, name);
  if (existing !== null) return existing;
  await tryStatement(db, sql`create extension if not exists ${sql.id(name)}`);
  return extensionSchema(db, name);
}

async function createFoldFunctions(db: Kysely<unknown>, unaccentSchema: string | null): Promise<void> {
  // Declared immutable so generated columns and indexes may use them; unaccent() itself is only stable because its
  // dictionary could change, which a deployment does not do under a running index.
  const body =
    unaccentSchema === null
      ? sql`select lower(translate($1, ${sql.lit(LATIN_ACCENTED)}, ${sql.lit(LATIN_PLAIN)}))`
      : sql`select lower(${sql.id(unaccentSchema, 'unaccent')}(${sql.lit(`${unaccentSchema}.unaccent`)}::regdictionary, $1))`;
  await sql`create function tonearm_fold(text) returns text
    language sql immutable strict parallel safe as $fold$ ${body} $fold$`.execute(db);
  // Punctuation separates words, as FTS5's tokenizer and the client's term splitting do ("AC/DC" is "ac dc").
  // Schema-qualified: index expressions are re-evaluated with an empty search_path by pg_restore.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const fold = sql.id(rows[0]?.schema ?? 'public', 'tonearm_fold');
  await sql`create function tonearm_search_text(text) returns text
    language sql immutable strict parallel safe as $text$
      select regexp_replace(${fold}($1), '[[:punct:]]+', ' ', 'g')
    $text$`.execute(db);
}

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  const unaccentSchema = await ensureExtension(db, 'unaccent');
  const trigramSchema = await ensureExtension(db, 'pg_trgm');
  await createFoldFunctions(db, unaccentSchema);

  const statements = [
    sql`create table search_songs (
      id integer primary key references songs (id) on delete cascade,
      name text not null,
      artist text not null,
      genre text not null,
      document tsvector generated always as (
        setweight(to_tsvector('simple', tonearm_search_text(name)), 'A') ||
        setweight(to_tsvector('simple', tonearm_search_text(artist)), 'B') ||
        setweight(to_tsvector('simple', tonearm_search_text(genre)), 'C')
      ) stored
    )`,
    sql`create table search_artists (
      id integer primary key references artists (id) on delete cascade,
      name text not null,
      document tsvector generated always as (to_tsvector('simple', tonearm_search_text(name))) stored
    )`,
    sql`create table search_playlists (
      id integer primary key references playlists (id) on delete cascade,
      name text not null,
      document tsvector generated always as (to_tsvector('simple', tonearm_search_text(name))) stored
    )`,
    sql`create index search_songs_document_idx on search_songs using gin (document)`,
    sql`create index search_artists_document_idx on search_artists using gin (document)`,
    sql`create index search_playlists_document_idx on search_playlists using gin (document)`,

    sql`create function tonearm_search_songs_sync() returns trigger language plpgsql as $sync$
    begin
      insert into search_songs (id, name, artist, genre)
      values (new.id, new.name, coalesce((select name from artists where id = new.artist_id), ''), new.genre)
      on conflict (id) do update set name = excluded.name, artist = excluded.artist, genre = excluded.genre;
      return null;
    end $sync$`,
    sql`create trigger search_songs_sync after insert or update of name, genre, artist_id on songs
      for each row execute function tonearm_search_songs_sync()`,

    sql`create function tonearm_search_artists_sync() returns trigger language plpgsql as $sync$
    begin
      insert into search_artists (id, name) values (new.id, new.name)
      on conflict (id) do update set name = excluded.name;
      if tg_op = 'UPDATE' then
        update search_songs set artist = new.name where id in (select id from songs where artist_id = new.id);
      end if;
      return null;
    end $sync$`,
    sql`create trigger search_artists_sync after insert or update of name on artists
      for each row execute function tonearm_search_artists_sync()`,

    sql`create function tonearm_search_playlists_sync() returns trigger language plpgsql as $sync$
    begin
      insert into search_playlists (id, name) values (new.id, new.name)
      on conflict (id) do update set name = excluded.name;
      return null;
    end $sync$`,
    sql`create trigger search_playlists_sync after insert or update of name on playlists
      for each row execute function tonearm_search_playlists_sync()`,

    sql`insert into search_songs (id, name, artist, genre)
      select s.id, s.name, coalesce(a.name, ''), s.genre from songs s left join artists a on a.id = s.artist_id`,
    sql`insert into search_artists (id, name) select id, name from artists`,
    sql`insert into search_playlists (id, name) select id, name from playlists`,
  ];
  for (const statement of statements) await statement.execute(db);

  if (trigramSchema !== null) {
    const ops = sql.id(trigramSchema, 'gin_trgm_ops');
    await sql`create index search_songs_trigram_idx on search_songs
      using gin ((tonearm_fold(name || ' ' || artist || ' ' || genre)) ${ops})`.execute(db);
    await sql`create index search_artists_trigram_idx on search_artists using gin ((tonearm_fold(name)) ${ops})`.execute(
      db,
    );
  }
}

/** Artist names are unique case-insensitively; blob keys are looked up when deciding whether a blob is still used. */
async function catalogueIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('artists_name_lower_unique')
    .on('artists')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db.schema.createIndex('songs_audio_key_idx').on('songs').column('audio_key').execute();
  for (const table of ['songs', 'artists', 'users', 'playlists']) {
    await db.schema.createIndex(`${table}_image_key_idx`).on(table).column('image_key').execute();
  }
}

export const searchMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await catalogueIndexes(db);
    if (dialectOf(db) === 'postgres') await postgresUp(db);
    else await sqliteUp(db);
  },

  async down(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') {
      for (const table of ['search_playlists', 'search_artists', 'search_songs']) {
        await sql`drop table if exists ${sql.id(table)}`.execute(db);
      }
      for (const [trigger, table] of [
        ['search_songs_sync', 'songs'],
        ['search_artists_sync', 'artists'],
        ['search_playlists_sync', 'playlists'],
      ] as const) {
        await sql`drop trigger if exists ${sql.id(trigger)} on ${sql.id(table)}`.execute(db);
      }
      for (const fn of ['tonearm_search_songs_sync', 'tonearm_search_artists_sync', 'tonearm_search_playlists_sync']) {
        await sql`drop function if exists ${sql.id(fn)}()`.execute(db);
      }
      await sql`drop function if exists tonearm_search_text(text)`.execute(db);
      await sql`drop function if exists tonearm_fold(text)`.execute(db);
    } else {
      for (const entity of ['songs', 'artists', 'playlists']) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`drop trigger if exists ${sql.id(`search_${entity}_after_${event}`)}`.execute(db);
        }
        await sql`drop table if exists ${sql.id(`search_${entity}`)}`.execute(db);
      }
    }
    for (const index of [
      'artists_name_lower_unique',
      'songs_audio_key_idx',
      'songs_image_key_idx',
      'artists_image_key_idx',
      'users_image_key_idx',
      'playlists_image_key_idx',
    ]) {
      await db.schema.dropIndex(index).ifExists().execute();
    }
  },
};
