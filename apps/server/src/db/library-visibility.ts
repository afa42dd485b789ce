import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The condition that a song is not in one of the `hidden` libraries (issue 25: what a user may not see): songs held in
 * the blob store (no library) always pass. Give it a non-empty list; with none, add no condition at all.
 */
export function songSeen(hidden: readonly number[], column = 'songs.library_id'): Expression<SqlBool> {
  const ref = sql.ref(column);
  return sql<SqlBool>`(${ref} is null or ${ref} not in (${sql.join([...hidden])}))`;
}

/** Whether a song of this library (null: the blob store's) is seen by whoever has these `hidden` libraries. */
export function seesLibrary(hidden: readonly number[], libraryId: number | null): boolean {
  return libraryId === null || !hidden.includes(libraryId);
}
