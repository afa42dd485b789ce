/*
 * The words of the catalogue, for typo tolerance (the search's fuzzy tier): how a name splits into folded words, the
 * edit-distance-1 neighbourhood of a word, and the check that two words are one typo apart. Plain functions without
 * imports, shared by both dialects' search.
 */

/** Query terms shorter than this are never corrected: one typo in two or three letters matches half the catalogue. */
export const TYPO_TERM_MIN = 4;

/** Words outside these lengths get no typo neighbourhood (a term of TYPO_TERM_MIN may lose a letter, hence the -1). */
export const TYPO_WORD_MIN = TYPO_TERM_MIN - 1;
export const TYPO_WORD_MAX = 32;

/** At most this many corrections of one term are tried, the most used words first. */
export const TYPO_CANDIDATES_MAX = 8;

/** Terms shorter than this begin longer words almost always: whether they do is not looked up. */
export const EXTENSION_CHECK_MIN = 4;

/** The characters of a word as the tokenizers count them: code points (a folded word has no marks left). */
export function characters(word: string): string[] {
  return Array.from(word);
}

/**
 * Whether a folded term is corrected: long enough, one word of letters and digits, and not a number (1989 is not a
 * typo of 1999).
 */
export function isTypoTerm(word: string): boolean {
  const length = characters(word).length;
  // A term longer than this is more than one edit from every word that has a neighbourhood.
  const longest = TYPO_WORD_MAX + 1;
  return length >= TYPO_TERM_MIN && length <= longest && /^[\p{L}\p{N}]+$/u.test(word) && !/^\p{N}+$/u.test(word);
}

/**
 * Lower-cases and strips diacritics as SQLite's FTS5 tokenizer does (`unicode61 remove_diacritics 2`): canonical
 * decomposition, combining marks dropped.
 */
export function foldWord(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The distinct folded words of a text, split on anything but letters and digits (as the FTS5 tokenizer splits). */
export function vocabularyWords(text: string): string[] {
  return [...new Set(foldWord(text).match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** Whether `word` has a length that typo lookups consider. */
export function hasTypoNeighbourhood(word: string): boolean {
  const length = characters(word).length;
  return length >= TYPO_WORD_MIN && length <= TYPO_WORD_MAX;
}

/** The word without one of its characters, for every position (distinct; the word itself not included). */
export function deletions(word: string): string[] {
  const chars = characters(word);
  const found = new Set<string>();
  for (let i = 0; i < chars.length; i += 1) found.add([...chars.slice(0, i), ...chars.slice(i + 1)].join(''));
  found.delete(word);
  return [...found];
}

/**
 * The deletion neighbourhood of a word (itself and each one-deletion): two words are at most one edit apart (a
 * substitution, an insertion, a deletion or a swap of neighbours) only if their neighbourhoods share a key.
 */
export function neighbourhoodKeys(word: string): string[] {
  return [word, ...deletions(word)];
}

/** True when `a` and `b` differ by exactly one edit: substitution, insertion, deletion, or a swap of neighbours. */
export function oneEditApart(a: string, b: string): boolean {
  const x = characters(a);
  const y = characters(b);
  if (Math.abs(x.length - y.length) > 1 || a === b) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i += 1;
  const rest = (s: string[], from: number) => s.slice(from).join('');
  if (short.length < long.length) return rest(short, i) === rest(long, i + 1);
  if (rest(short, i + 1) === rest(long, i + 1)) return true;
  return short[i] === long[i + 1] && short[i + 1] === long[i] && rest(short, i + 2) === rest(long, i + 2);
}

/**
 * LIKE patterns (`_` is one character) and exact words that together cover every word one edit from `term`:
 * a substituted or an inserted character is a `_`; a deleted or swapped one gives an exact word. For an indexed
 * lookup (pg_trgm's GIN index answers LIKE); the caller still keeps only `oneEditApart` words.
 */
export function oneEditPatterns(term: string): { patterns: string[]; words: string[] } {
  const chars = characters(term);
  const at = (start: number, end?: number) => chars.slice(start, end).join('');
  const patterns = new Set<string>();
  const words = new Set<string>(deletions(term));
  for (let i = 0; i <= chars.length; i += 1) {
    if (i < chars.length) patterns.add(`${at(0, i)}_${at(i + 1)}`);
    patterns.add(`${at(0, i)}_${at(i)}`);
    if (i + 1 < chars.length) words.add(`${at(0, i)}${chars[i + 1] ?? ''}${chars[i] ?? ''}${at(i + 2)}`);
  }
  words.delete(term);
  return { patterns: [...patterns], words: [...words] };
}

/** Net changes of word use: +1 for each word of an added text, -1 for each word of a removed one. */
export function wordDeltas(changes: readonly { body: string; delta: number }[]): Map<string, number> {
  const deltas = new Map<string, number>();
  for (const { body, delta } of changes) {
    for (const word of vocabularyWords(body)) deltas.set(word, (deltas.get(word) ?? 0) + delta);
  }
  for (const [word, delta] of deltas) if (delta === 0) deltas.delete(word);
  return deltas;
}

/** The corrections of a term: words one edit away, the most used first (ties by word), at most TYPO_CANDIDATES_MAX. */
export function bestCorrections(term: string, found: readonly { word: string; refs: number }[]): string[] {
  const seen = new Set<string>();
  return found
    .filter(({ word }) => oneEditApart(term, word) && !seen.has(word) && seen.add(word))
    .sort((a, b) => b.refs - a.refs || (a.word < b.word ? -1 : 1))
    .slice(0, TYPO_CANDIDATES_MAX)
    .map(({ word }) => word);
}
