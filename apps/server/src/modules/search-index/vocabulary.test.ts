import { describe, expect, it } from 'vitest';
import {
  bestCorrections,
  isTypoTerm,
  deletions,
  neighbourhoodKeys,
  oneEditApart,
  oneEditPatterns,
  TYPO_CANDIDATES_MAX,
  vocabularyWords,
  wordDeltas,
} from './vocabulary.js';

/** Every word one edit from `word` over a small alphabet: substitutions, insertions, deletions, neighbour swaps. */
function allOneEdit(word: string, alphabet = 'abkx'): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i <= word.length; i += 1) {
    for (const c of alphabet) {
      found.add(word.slice(0, i) + c + word.slice(i));
      if (i < word.length) found.add(word.slice(0, i) + c + word.slice(i + 1));
    }
    if (i < word.length) found.add(word.slice(0, i) + word.slice(i + 1));
    if (i + 1 < word.length) found.add(`${word.slice(0, i)}${word.charAt(i + 1)}${word.charAt(i)}${word.slice(i + 2)}`);
  }
  found.delete(word);
  return found;
}

/** Whether a LIKE pattern (`_` one character, no `%`) matches a word. */
function likeMatches(pattern: string, word: string): boolean {
  const chars = Array.from(pattern);
  const target = Array.from(word);
  return chars.length === target.length && chars.every((c, i) => c === '_' || c === target[i]);
}

describe('vocabulary', () => {
  it('splits and folds a name as the FTS5 tokenizer does', () => {
    expect(vocabularyWords('Sigur Rós — Hoppípolla (Live)')).toEqual(['sigur', 'ros', 'hoppipolla', 'live']);
    expect(vocabularyWords('AC/DC ac dc')).toEqual(['ac', 'dc']);
    expect(vocabularyWords('Ünïcödé 2000')).toEqual(['unicode', '2000']);
    expect(vocabularyWords('  ')).toEqual([]);
  });

  it('tells one edit apart from none and from two', () => {
    expect(oneEditApart('hyperballad', 'hyperbalad')).toBe(true); // a deletion
    expect(oneEditApart('hyperbalad', 'hyperballad')).toBe(true); // an insertion
    expect(oneEditApart('kickstart', 'kickstrat')).toBe(true); // neighbours swapped
    expect(oneEditApart('kickstart', 'kickstort')).toBe(true); // a substitution
    expect(oneEditApart('kickstart', 'kickstart')).toBe(false);
    expect(oneEditApart('kickstart', 'kcikstrat')).toBe(false);
    expect(oneEditApart('abcd', 'bcda')).toBe(false); // a moved letter is two edits
    expect(oneEditApart('abc', 'abcde')).toBe(false);
    expect(oneEditApart('jóga', 'joga')).toBe(true);
  });

  it('finds every one-edit word through the deletion neighbourhoods, and only candidates through them', () => {
    for (const word of ['hyperballad', 'kick', 'abba', 'river']) {
      const keys = new Set(neighbourhoodKeys(word));
      for (const other of allOneEdit(word)) {
        expect(
          neighbourhoodKeys(other).some((key) => keys.has(key)),
          `${word} ~ ${other}`,
        ).toBe(true);
      }
    }
    expect(deletions('abba')).toEqual(['bba', 'aba', 'abb']);
    expect(neighbourhoodKeys('kick')).toEqual(['kick', 'ick', 'kck', 'kik', 'kic']);
  });

  it('covers every one-edit word with its LIKE patterns and exact words', () => {
    for (const word of ['hyperballad', 'kick', 'abba', 'river']) {
      const { patterns, words } = oneEditPatterns(word);
      expect(words).not.toContain(word);
      for (const other of allOneEdit(word)) {
        const covered = words.includes(other) || patterns.some((pattern) => likeMatches(pattern, other));
        expect(covered, `${word} ~ ${other}`).toBe(true);
      }
    }
  });

  it('corrects words of four characters or more, never numbers', () => {
    expect(isTypoTerm('kick')).toBe(true);
    expect(isTypoTerm('r2d2')).toBe(true);
    expect(isTypoTerm('kic')).toBe(false);
    expect(isTypoTerm('1999')).toBe(false);
    expect(isTypoTerm('ac dc')).toBe(false);
    expect(isTypoTerm('a'.repeat(33))).toBe(true);
    expect(isTypoTerm('a'.repeat(34))).toBe(false);
  });

  it('nets the word changes of added and removed texts', () => {
    const deltas = wordDeltas([
      { body: 'Halo Pop', delta: 1 },
      { body: 'Halo Pop', delta: -1 },
      { body: 'Halo (Live) Pop', delta: 1 },
      { body: 'Old Name', delta: -1 },
    ]);
    expect(Object.fromEntries(deltas)).toEqual({ halo: 1, live: 1, pop: 1, old: -1, name: -1 });
  });

  it('keeps the most used corrections, one edit away, at most TYPO_CANDIDATES_MAX', () => {
    const found = [
      { word: 'river', refs: 3 },
      { word: 'rover', refs: 9 },
      { word: 'rivet', refs: 3 },
      { word: 'riser', refs: 1 },
      { word: 'rivers', refs: 2 },
      { word: 'driven', refs: 50 }, // two edits
      { word: 'rover', refs: 9 },
    ];
    expect(bestCorrections('river', found)).toEqual(['rover', 'rivet', 'rivers', 'riser']);
    const many = Array.from({ length: 20 }, (_, i) => ({ word: `rive${String.fromCharCode(97 + i)}`, refs: i }));
    expect(bestCorrections('river', many)).toHaveLength(TYPO_CANDIDATES_MAX);
  });
});
