import type { Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

/**
 * Serialises the transactions that check a per-user limit and then write ("fewer than N rows? insert one"), so two
 * concurrent requests of one user cannot both pass the check. PostgreSQL: a row lock on the user. SQLite runs one
 * transaction at a time on its single connection, which already serialises them. False when the user is gone.
 */
export async function lockUser(trx: Transaction<DB>, dialect: Dialect, userId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row !== undefined;
}
