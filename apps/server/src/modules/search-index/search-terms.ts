/** At most this many words of a query are used; more only slow the match without narrowing it usefully. */
export const MAX_SEARCH_TERMS = 8;

/**
 * The words of a search query: compatibility-normalised, lower-cased, split on anything that is not a letter or a digit
 * (as the FTS5 tokenizer and the PostgreSQL search text split names). Accents are left to the database, which folds
 * both sides the same way.
 */
export function searchTerms(query: string): string[] {
  const words =
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_TERMS);
}
