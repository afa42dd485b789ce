/** A LIKE pattern (with `escape '\'`) matching `text` literally anywhere, lower-cased for a `lower(column)` match. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
