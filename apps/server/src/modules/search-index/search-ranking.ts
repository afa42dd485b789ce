/*
 * The search ranking, the same on both dialects. Matches fall in tiers: exact (every term is a whole word of the
 * text), then prefix (every term begins a word), then fuzzy (every term begins a word or is one typo from a word).
 * Song tiers are split once more: the terms all in the song's name first, then those matching through the artist or
 * the genre. Each of these stages is a disjoint set of rows, read newest first (id descending); a page is a run
 * through the stages in order, so its keyset position is (stage, id) and no score is ever computed over all matches.
 */

import type { SearchGroup } from './search-cursor.js';

/** How every term must match: as a whole word, as the start of a word, or (fuzzy) also as one of its corrections. */
export type Tier = 'exact' | 'prefix' | 'fuzzy';

/** One term condition of a stage: the tier, and whether it must hold within the name field alone. */
export interface Condition {
  tier: Tier;
  nameOnly: boolean;
}

/** Rows matching `include` and none of `exclude`: a slice of the ranking, disjoint from every other stage. */
export interface Stage {
  include: Condition;
  exclude: Condition[];
}

const exact = { tier: 'exact', nameOnly: false } as const;
const prefix = { tier: 'prefix', nameOnly: false } as const;
const fuzzy = { tier: 'fuzzy', nameOnly: false } as const;
const exactName = { tier: 'exact', nameOnly: true } as const;
const prefixName = { tier: 'prefix', nameOnly: true } as const;

/** Songs: exact in the name, exact anywhere, prefix in the name, prefix anywhere, fuzzy. */
const SONG_STAGES: Stage[] = [
  { include: exactName, exclude: [] },
  { include: exact, exclude: [exactName] },
  { include: prefixName, exclude: [exact] },
  { include: prefix, exclude: [prefixName, exact] },
  { include: fuzzy, exclude: [prefix] },
];

/** Artists and playlists (one field, the name): exact, prefix, fuzzy. */
const NAME_STAGES: Stage[] = [
  { include: exact, exclude: [] },
  { include: prefix, exclude: [exact] },
  { include: fuzzy, exclude: [prefix] },
];

/** The stages of a group, best first. */
export function stagesOf(group: SearchGroup): readonly Stage[] {
  return group === 'songs' ? SONG_STAGES : NAME_STAGES;
}

/** Every row any stage of the group holds: for counting. */
export const ANY_MATCH: Stage = { include: fuzzy, exclude: [] };

/** The terms of a query, each with the corrections (one typo away) the fuzzy tier also accepts. */
export type TermChoices = readonly { term: string; corrections: readonly string[] }[];
