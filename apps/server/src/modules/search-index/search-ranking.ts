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

/** One term of a query, and what its tiers accept. */
export interface TermChoice {
  term: string;
  /** False when the term is no whole word of the index: no row matches it exactly. */
  known: boolean;
  /** False when no word of the index begins with the term and is longer: its prefix matches are exact ones. */
  extended: boolean;
  /** The words one typo away that the fuzzy tier also accepts. */
  corrections: readonly string[];
}

export type TermChoices = readonly TermChoice[];

/** A prefix stage: prefix matches that are not exact ones (empty when no term begins a longer word). */
function isPrefixOnly(stage: Stage): boolean {
  return stage.include.tier === 'prefix' && stage.exclude.some((c) => c.tier === 'exact' && !c.nameOnly);
}

/**
 * True when the stage is known to hold nothing, so it is not read: an exact stage when some term is no word of the
 * index, a prefix stage when no term begins a longer word (every prefix match is then exact), a fuzzy stage when no
 * term has a correction (it equals the prefix tier).
 */
export function stageIsEmpty(stage: Stage, choices: TermChoices): boolean {
  if (stage.include.tier === 'exact') return choices.some((choice) => !choice.known);
  if (isPrefixOnly(stage)) return choices.every((choice) => !choice.extended);
  return stage.include.tier === 'fuzzy' && stage.exclude.length > 0 && choices.every((c) => c.corrections.length === 0);
}

/** Which lookups a stage needs: words for an exact one, extensions for any prefix or fuzzy condition, corrections. */
export function stageNeeds(stage: Stage): { words: boolean; extensions: boolean; corrections: boolean } {
  const tiers = [stage.include, ...stage.exclude].map((condition) => condition.tier);
  return {
    words: stage.include.tier === 'exact',
    extensions: tiers.some((tier) => tier !== 'exact'),
    corrections: tiers.includes('fuzzy'),
  };
}
