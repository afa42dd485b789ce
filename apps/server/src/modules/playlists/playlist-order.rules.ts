/**
 * Whether `requested` lists exactly the songs of `current`, each once, in any order: the only acceptable new order.
 * Anything else would silently add, drop or duplicate songs.
 */
export function isPermutationOf(current: readonly number[], requested: readonly number[]): boolean {
  if (current.length !== requested.length) return false;
  const remaining = new Set(current);
  for (const id of requested) {
    if (!remaining.delete(id)) return false;
  }
  return remaining.size === 0;
}

/** Song ids of `requested` that are not in `known`, each once, in request order. */
export function unknownIds(requested: readonly number[], known: ReadonlySet<number>): number[] {
  return [...new Set(requested.filter((id) => !known.has(id)))];
}
