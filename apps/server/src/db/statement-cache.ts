import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.js';

/** Prepared statements kept: enough for every query shape the server makes, `in` lists of each length included. */
export const STATEMENT_CACHE_SIZE = 1_000;

/**
 * The SQLite handle as Kysely sees it, with its prepared statements kept and reused (least recently used out first):
 * Kysely prepares every query it runs, which costs as much as running a small one (a third of a page's SQL time).
 * Reuse is safe because both SQLite drivers run a statement to its end synchronously (`all`, `run`); nothing here iterates
 * one (Kysely's `stream()`), and better-sqlite3 refuses every other statement while one iterates anyway.
 */
export function withStatementCache(sqlite: SqliteConnection, size = STATEMENT_CACHE_SIZE): KyselySqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        const oldest = statements.keys().next();
        if (statements.size >= size && oldest.done !== true) statements.delete(oldest.value);
      } else {
        statements.delete(sql);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
