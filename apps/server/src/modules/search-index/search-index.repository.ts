import type { PlaylistVisibility } from '@tonearm/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { playlistVisibleTo } from '../../db/playlist-visibility.js';
import type { DB, PlaylistRow } from '../../db/schema.js';
import { fts5PrefixQuery } from './search-terms.js';

/**
 * The full-text index, shared by the song list's `q` (modules/songs) and by search (modules/search), which is why it
 * sits in a module of its own: both depend on it, it depends on neither.
 *
 * Ranked id lookups in the search tables of migration 002 (FTS5 on SQLite, tsvector + GIN on PostgreSQL). Every query
 * is served by the full-text index and bounded by `limit`. Terms come from `searchTerms` (letters and digits only);
 * each is matched as a prefix, all are required, case and accents are ignored.
 */
export interface SearchIndexRepository {
  songIds(terms: readonly string[], limit: number): Promise<number[]>;
  artistIds(terms: readonly string[], limit: number): Promise<number[]>;
  /** The playlists the policy lets the viewer see (contract `visiblePlaylists`), best match first. */
  playlists(terms: readonly string[], limit: number, visible: PlaylistVisibility): Promise<PlaylistRow[]>;
}

interface IdRow {
  id: number;
}

/** Weights of name, artist and genre in the song ranking: a title hit beats an artist hit beats a genre hit. */
const SQLITE_SONG_WEIGHTS = sql.raw('10.0, 4.0, 1.0');

function createSqliteSearch(db: Kysely<DB>): SearchIndexRepository {
  const ids = async (query: RawBuilder<IdRow>) => (await query.execute(db)).rows.map((row) => row.id);
  return {
    songIds(terms, limit) {
      return ids(sql<IdRow>`
        select rowid as id from search_songs where search_songs match ${fts5PrefixQuery(terms)}
        order by bm25(search_songs, ${SQLITE_SONG_WEIGHTS}), rowid desc limit ${limit}`);
    },
    artistIds(terms, limit) {
      return ids(sql<IdRow>`
        select rowid as id from search_artists where search_artists match ${fts5PrefixQuery(terms)}
        order by bm25(search_artists), rowid limit ${limit}`);
    },
    async playlists(terms, limit, visible) {
      const result = await sql<PlaylistRow>`
        select p.* from search_playlists join playlists p on p.id = search_playlists.rowid
        where search_playlists match ${fts5PrefixQuery(terms)} and ${playlistVisibleTo(visible, 'p')}
        order by bm25(search_playlists), p.id desc limit ${limit}`.execute(db);
      return result.rows;
    },
  };
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function createPostgresSearch(db: Kysely<DB>): SearchIndexRepository {
  const ids = async (query: RawBuilder<IdRow>) => (await query.execute(db)).rows.map((row) => row.id);
  // Each folded term quoted as a lexeme and matched as a prefix: 'beat':* & 'lenn':*
  const tsQuery = (terms: readonly string[]) => sql`to_tsquery('simple', (
    select string_agg(quote_literal(tonearm_fold(term)) || ':*', ' & ') from unnest(${[...terms]}::text[]) as term))`;

  let trigramSchema: Promise<string | null> | null = null;
  const trigram = () =>
    (trigramSchema ??= sql<{ schema: string }>`
      select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`
      .execute(db)
      .then((result) => result.rows[0]?.schema ?? null));

  /** Typo-tolerant word similarity (pg_trgm), used only when the exact-prefix match found nothing. */
  async function similar(table: 'search_songs' | 'search_artists', terms: readonly string[], limit: number) {
    const schema = await trigram();
    if (schema === null) return [];
    const text =
      table === 'search_songs' ? sql`tonearm_fold(name || ' ' || artist || ' ' || genre)` : sql`tonearm_fold(name)`;
    const needle = sql`tonearm_fold(${terms.join(' ')})`;
    const operator = sql.raw(`operator(${quoteIdent(schema)}.<%)`);
    const similarity = sql.raw(`${quoteIdent(schema)}.word_similarity`);
    return ids(sql<IdRow>`
      select id from ${sql.table(table)} where ${needle} ${operator} ${text}
      order by ${similarity}(${needle}, ${text}) desc, id desc limit ${limit}`);
  }

  return {
    async songIds(terms, limit) {
      const found = await ids(sql<IdRow>`
        select id from search_songs where document @@ ${tsQuery(terms)}
        order by ts_rank(document, ${tsQuery(terms)}) desc, id desc limit ${limit}`);
      return found.length > 0 ? found : similar('search_songs', terms, limit);
    },
    async artistIds(terms, limit) {
      const found = await ids(sql<IdRow>`
        select id from search_artists where document @@ ${tsQuery(terms)}
        order by ts_rank(document, ${tsQuery(terms)}) desc, id limit ${limit}`);
      return found.length > 0 ? found : similar('search_artists', terms, limit);
    },
    async playlists(terms, limit, visible) {
      const result = await sql<PlaylistRow>`
        select p.* from search_playlists s join playlists p on p.id = s.id
        where s.document @@ ${tsQuery(terms)} and ${playlistVisibleTo(visible, 'p')}
        order by ts_rank(s.document, ${tsQuery(terms)}) desc, p.id desc limit ${limit}`.execute(db);
      return result.rows;
    },
  };
}

export function createSearchIndexRepository(db: Kysely<DB>, dialect: Dialect): SearchIndexRepository {
  return dialect === 'postgres' ? createPostgresSearch(db) : createSqliteSearch(db);
}
