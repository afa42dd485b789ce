/**
 * The artists by letter, as getIndexes and getArtists answer them: an artist whose name starts with an ignored
 * article ("The Beatles") is filed under the next word (B), letters are compared without their accents (É under E),
 * and a name that starts with no letter is filed under `#`, which comes first.
 */

/** The articles left out when filing and sorting artists (Subsonic's `ignoredArticles`, space-separated). */
export const IGNORED_ARTICLES = 'The El La Los Las Le Les';

const ARTICLE = new RegExp(`^(?:${IGNORED_ARTICLES.split(' ').join('|')})\\s+(?=\\S)`, 'i');

/** What a name is filed and sorted by: without a leading article and accents, in lower case. */
export function sortKey(name: string): string {
  return name.trim().replace(ARTICLE, '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The index entry a name is filed under: its first letter (A–Z), else `#`. */
export function indexLetter(name: string): string {
  const first = sortKey(name).charAt(0).toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

/** The items grouped by the letter of their name, letters in order (`#` first), items by name within each. */
export function byLetter<T extends { name: string }>(items: readonly T[]): { name: string; items: T[] }[] {
  const sorted = items
    .map((item) => ({ item, key: sortKey(item.name) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.item.name.localeCompare(b.item.name)));
  const groups = new Map<string, T[]>();
  for (const { item } of sorted) {
    const letter = indexLetter(item.name);
    const group = groups.get(letter);
    if (group) group.push(item);
    else groups.set(letter, [item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === b ? 0 : a === '#' ? -1 : b === '#' ? 1 : a < b ? -1 : 1))
    .map(([name, grouped]) => ({ name, items: grouped }));
}
