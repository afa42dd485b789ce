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

/** Same instant, the one text form every timestamp column uses. */
export const isoNow = (): string => new Date().toISOString();
