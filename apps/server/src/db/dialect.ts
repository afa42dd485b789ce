import { PostgresAdapter, type Kysely } from 'kysely';
import type { Dialect } from './database.js';

/** Which SQL dialect a Kysely instance (or transaction) speaks. */
export function dialectOf<T>(db: Kysely<T>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
