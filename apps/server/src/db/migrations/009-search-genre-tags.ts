import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';
import { BODY, wordsTriggerBody } from './005-search.js';

/*
 * A song's genre tag text (issue 12: "Shoegaze" under the catalogue genre Alternative Rock) is searched with its
 * genre: the search documents' genre column holds both, kept by the songs triggers of 002, which this migration
 * redefines to read genre_tag too (and to fire when it changes). Rows written before are brought up to date.
 * PostgreSQL's search also asks `search_words` (005) whether a term is a known word: its word-count triggers count the
 * tags' words too. SQLite's typo vocabulary is left as it was: a tag is found by its words and their prefixes, but a
 * misspelt tag is not corrected.
 */

/** 005's word-count body, with a song's genre tag (null, hence nothing, for artists and playlists). */
const BODY_WITH_TAG = `${BODY} || coalesce(' ' || (to_jsonb(r) ->> 'genre_tag'), '')`;

async function postgresWords(db: Kysely<unknown>, withTag: boolean): Promise<void> {
  const body = withTag ? BODY_WITH_TAG : BODY;
  const functions = [
    ['tonearm_search_words_insert', `select ${body}, 1 from new_rows r`],
    ['tonearm_search_words_update', `select ${body}, 1 from new_rows r union all select ${body}, -1 from old_rows r`],
    ['tonearm_search_words_delete', `select ${body}, -1 from old_rows r`],
  ] as const;
  for (const [name, changes] of functions) {
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $words$
      ${wordsTriggerBody(changes)} $words$`.execute(db);
  }
  // The tags already in the catalogue: counted in, or out when reverting.
  const sign = withTag ? 1 : -1;
  await sql`insert into search_words (word, refs)
    select lexeme, ${sql.raw(String(sign))} * count(*)::int
    from songs, unnest(to_tsvector('simple', tonearm_search_text(genre_tag)))
    where genre_tag is not null group by lexeme order by lexeme
    on conflict (word) do update set refs = search_words.refs + excluded.refs`.execute(db);
  await sql`delete from search_words where refs <= 0`.execute(db);
}

const SQLITE_SONG_ROW = sql.raw(`(new.id, new.name, coalesce((select name from artists where id = new.artist_id), ''),
  new.genre || coalesce(' ' || new.genre_tag, ''))`);

async function sqliteTriggers(db: Kysely<unknown>, withTag: boolean): Promise<void> {
  const row = withTag
    ? SQLITE_SONG_ROW
    : sql.raw(`(new.id, new.name, coalesce((select name from artists where id = new.artist_id), ''), new.genre)`);
  const columns = sql.raw(withTag ? 'name, genre, artist_id, genre_tag' : 'name, genre, artist_id');
  await sql`drop trigger search_songs_after_insert`.execute(db);
  await sql`drop trigger search_songs_after_update`.execute(db);
  await sql`create trigger search_songs_after_insert after insert on songs begin
      insert into search_songs (rowid, name, artist, genre) values ${row};
    end`.execute(db);
  await sql`create trigger search_songs_after_update after update of ${columns} on songs begin
      delete from search_songs where rowid = old.id;
      insert into search_songs (rowid, name, artist, genre) values ${row};
    end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>, withTag: boolean): Promise<void> {
  const genre = sql.raw(withTag ? `new.genre || coalesce(' ' || new.genre_tag, '')` : 'new.genre');
  const columns = sql.raw(withTag ? 'name, genre, artist_id, genre_tag' : 'name, genre, artist_id');
  await sql`create or replace function tonearm_search_songs_sync() returns trigger language plpgsql as $sync$
    begin
      insert into search_songs (id, name, artist, genre)
      values (new.id, new.name, coalesce((select name from artists where id = new.artist_id), ''), ${genre})
      on conflict (id) do update set name = excluded.name, artist = excluded.artist, genre = excluded.genre;
      return null;
    end $sync$`.execute(db);
  await sql`drop trigger search_songs_sync on songs`.execute(db);
  await sql`create trigger search_songs_sync after insert or update of ${columns} on songs
      for each row execute function tonearm_search_songs_sync()`.execute(db);
}

/** The genre column of every song's search row, with or without its tag. */
async function refill(db: Kysely<unknown>, withTag: boolean): Promise<void> {
  const value = sql.raw(withTag ? `s.genre || coalesce(' ' || s.genre_tag, '')` : 's.genre');
  const key = sql.raw(dialectOf(db) === 'postgres' ? 'id' : 'rowid');
  await sql`update search_songs set genre = (select ${value} from songs s where s.id = search_songs.${key})
    where ${key} in (select id from songs where genre_tag is not null)`.execute(db);
}

async function apply(db: Kysely<unknown>, withTag: boolean): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await postgresTriggers(db, withTag);
    await postgresWords(db, withTag);
  } else {
    await sqliteTriggers(db, withTag);
  }
  await refill(db, withTag);
}

export const searchGenreTagsMigration: Migration = {
  up: (db: Kysely<unknown>) => apply(db, true),
  down: (db: Kysely<unknown>) => apply(db, false),
};
