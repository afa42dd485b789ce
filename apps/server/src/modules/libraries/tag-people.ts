import { CONTRIBUTOR_ROLES } from '@tonearm/contract';
import type { IAudioMetadata } from 'music-metadata';
import { involvedPeople, tagTexts, type InvolvedPeople, type TagField } from './tag-fields.js';
import { cleanText } from './tag-text.js';

/**
 * What splits one tag value into several names unless the caller says otherwise: "A; B", "A feat. B" and "A ft. B"
 * (" ft. " too, as common as " feat. " in the wild; the price is a name such as "Live in Ft. Worth" read as two).
 * Separators match without regard to case.
 */
export const DEFAULT_SEPARATORS: readonly string[] = [';', ' feat. ', ' ft. '];

/** At most this many names from one list, and credits from one file: a tag may hold any number. */
const MAX_NAMES = 100;
const MAX_CREDITS = 200;

/** What is never a separator, whatever the caller passes: blank, "/" or "&" ("AC/DC", "Simon & Garfunkel"). */
function isSeparator(separator: string): boolean {
  const bare = separator.trim();
  return bare !== '' && bare !== '/' && bare !== '&';
}

function separatorPattern(separators: readonly string[]): RegExp | null {
  const usable = separators.filter(isSeparator).sort((a, b) => b.length - a.length);
  if (usable.length === 0) return null;
  return new RegExp(usable.map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'iu');
}

/**
 * The names in some tag values: each value split on the separators, each piece cleaned as a tag's text, blanks
 * dropped, and a name met again (compared without regard to case) kept only in its first spelling.
 */
export function splitNames(values: readonly string[], separators: readonly string[] = DEFAULT_SEPARATORS): string[] {
  const pattern = separatorPattern(separators);
  const names: string[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    for (const piece of pattern === null ? [value] : value.split(pattern)) {
      const name = cleanText(piece);
      if (name === null || seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      names.push(name);
      if (names.length === MAX_NAMES) return names;
    }
  }
  return names;
}

/** Who made a track, by the tags' fields. */
export interface TrackArtists {
  /** Every artist, main first: the ARTISTS tag when there is one, else the ARTIST tag split on the separators. */
  artists: string[];
  /** The same for the album (ALBUMARTISTS, else ALBUMARTIST). */
  albumArtists: string[];
  /** The ARTIST tag as written ("A feat. B"); several ARTIST values joined with "; ". */
  displayArtist: string | null;
}

/** The names of a list field (ARTISTS) when tagged, else of its display field (ARTIST) split. */
function namesOf(
  metadata: IAudioMetadata,
  list: TagField,
  display: readonly string[],
  separators: readonly string[],
): string[] {
  const listed = splitNames(tagTexts(metadata, list), separators);
  return listed.length > 0 ? listed : splitNames(display, separators);
}

/** The track's and the album's artists; each list stands in for the other when that one is not tagged. */
export function artistsOf(metadata: IAudioMetadata, separators: readonly string[]): TrackArtists {
  const display = tagTexts(metadata, 'artist');
  const track = namesOf(metadata, 'artists', display, separators);
  const album = namesOf(metadata, 'albumartists', tagTexts(metadata, 'albumartist'), separators);
  return {
    artists: track.length > 0 ? track : album,
    albumArtists: album.length > 0 ? album : track,
    displayArtist: cleanText(display.join('; ')),
  };
}

export { CONTRIBUTOR_ROLES };

export type ContributorRole = (typeof CONTRIBUTOR_ROLES)[number];

/** One credit: composer, performer (with the instrument or voice as subRole when tagged), producer… */
export interface Contributor {
  role: ContributorRole;
  subRole: string | null;
  name: string;
}

/** The roles tagged as fields of their own: every role but performer. */
const FIELD_ROLES = CONTRIBUTOR_ROLES.filter((role) => role !== 'performer');

/** The role of an ID3 involved-people function: Picard's "mix" and "DJ-mix", or a role's own name. */
function roleOfFunction(name: string): ContributorRole | null {
  const lower = name.trim().toLowerCase();
  if (lower === 'mix') return 'mixer';
  if (lower === 'dj-mix') return 'djmixer';
  return FIELD_ROLES.find((role) => role === lower) ?? null;
}

/**
 * music-metadata splits each name of an involved-people list on ",": a piece that starts with a space was part of the
 * name before it ("Earth, Wind & Fire"), so it is joined back; names tagged apart never start with one.
 */
export function joinCommaPieces(pieces: readonly string[]): string[] {
  const names: string[] = [];
  for (const piece of pieces) {
    const last = names.length - 1;
    if (last >= 0 && piece.startsWith(' ')) names[last] = `${names[last]},${piece}`;
    else names.push(piece);
  }
  return names;
}

/** The instrument or voice a musician-credits function names; none for a plain "performer". */
function subRoleOf(name: string): string | null {
  const subRole = cleanText(name);
  return subRole === null || subRole.toLowerCase() === 'performer' ? null : subRole;
}

/** TIPL names roles (unknown ones are left out); TMCL names instruments; IPLS, v2.3's one list, names both. */
function creditsOf(people: InvolvedPeople, separators: readonly string[]): Contributor[] {
  const role = people.list === 'TMCL' ? null : roleOfFunction(people.function);
  if (role === null && people.list === 'TIPL') return [];
  const names = splitNames(joinCommaPieces(people.names), separators);
  return role === null
    ? names.map((name) => ({ role: 'performer', subRole: subRoleOf(people.function), name }))
    : names.map((name) => ({ role, subRole: null, name }));
}

/** "Name (instrument)", as a Vorbis PERFORMER tag holds it: the name and the instrument (null without brackets). */
export function performerParts(text: string): { name: string | null; instrument: string | null } {
  const match = /^(.*?)\s*\(([^()]*)\)$/su.exec(text);
  return match === null
    ? { name: cleanText(text), instrument: null }
    : { name: cleanText(match[1]), instrument: cleanText(match[2]) };
}

/** Each PERFORMER value split on the separators first, then each piece read as "Name (instrument)". */
function performersOf(texts: readonly string[], separators: readonly string[]): Contributor[] {
  return splitNames(texts, separators).flatMap((piece) => {
    const { name, instrument } = performerParts(piece);
    return name === null ? [] : [{ role: 'performer' as const, subRole: instrument, name }];
  });
}

/** Each credit once (role, subRole and name compared without regard to case), by role in CONTRIBUTOR_ROLES order. */
function uniqueCredits(credits: readonly Contributor[]): Contributor[] {
  const seen = new Set<string>();
  const unique = credits.filter((credit) => {
    const key = JSON.stringify([credit.role, credit.subRole, credit.name].map((text) => text?.toLowerCase() ?? null));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const order = (credit: Contributor) => CONTRIBUTOR_ROLES.indexOf(credit.role);
  return unique.sort((a, b) => order(a) - order(b)).slice(0, MAX_CREDITS);
}

/** Everyone the tags credit besides the artists: role fields, ID3 involved people, Vorbis PERFORMER. */
export function contributorsOf(metadata: IAudioMetadata, separators: readonly string[]): Contributor[] {
  const fromFields = FIELD_ROLES.flatMap((role) =>
    splitNames(tagTexts(metadata, role), separators).map((name) => ({ role, subRole: null, name })),
  );
  const involved = involvedPeople(metadata).flatMap((people) => creditsOf(people, separators));
  const performers = performersOf(tagTexts(metadata, 'performer'), separators);
  return uniqueCredits([...fromFields, ...involved, ...performers]);
}
