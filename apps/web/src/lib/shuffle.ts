/** Fisher–Yates shuffle into a new array; `random` returns [0, 1) like Math.random. */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const a = result[i] as T;
    result[i] = result[j] as T;
    result[j] = a;
  }
  return result;
}

/**
 * Shuffles once per item and remembers the order: a refetch (after an edit, a like) keeps every song where it
 * was, and new songs land at random places. One shuffler lives for the page session.
 */
export function createStableShuffler<T>(keyOf: (item: T) => number, random: () => number = Math.random) {
  const ranks = new Map<number, number>();
  const rankOf = (item: T): number => {
    const key = keyOf(item);
    let rank = ranks.get(key);
    if (rank === undefined) {
      rank = random();
      ranks.set(key, rank);
    }
    return rank;
  };
  return (items: readonly T[]): T[] => {
    // Ranks are handed out in list order, not in whatever order the sort compares items.
    items.forEach(rankOf);
    return [...items].sort((a, b) => rankOf(a) - rankOf(b));
  };
}
