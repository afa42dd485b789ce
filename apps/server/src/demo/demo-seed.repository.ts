import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** True on a database nobody has used yet: no user, no artist, no song. */
export async function isFreshInstall(db: Kysely<DB>): Promise<boolean> {
  for (const table of ['users', 'artists', 'songs'] as const) {
    const row = await db.selectFrom(table).select('id').limit(1).executeTakeFirst();
    if (row !== undefined) return false;
  }
  return true;
}
