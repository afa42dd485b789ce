/*
 * The database drivers' constraint errors, told apart on both dialects. Only repositories read them: they translate a
 * violation into a domain error (DuplicateError) so that services never look at driver codes or messages.
 */

/**
 * Identifies a unique-constraint violation on either dialect and returns what it names (constraint, index or
 * column text, lower-cased) so a caller can map it to a field; null for any other error.
 */
export function uniqueViolation(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  const text = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
  if (code === '23505') return text.toLowerCase();
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return text.toLowerCase();
  return null;
}

/**
 * A foreign-key violation on either dialect: a write raced with the deletion of the row it refers to (a song deleted
 * from the catalogue while it is being added to a playlist). The client's request was fine a moment earlier, so it
 * is a conflict, not a server fault.
 */
export function foreignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
