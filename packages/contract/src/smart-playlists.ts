import { z } from 'zod';

/**
 * Smart playlists (issue 28, item 2): the rules that choose a playlist's songs. The rules are checked here by hand (not
 * by a zod union) so that a bad rule's message names it by its path, e.g. `rules[2].rules[0]: year needs a number`;
 * a union's "invalid input" would not tell the user which rule to fix.
 */

/** How deep groups may nest (the top group is depth 1) and how many rules the whole tree may hold. */
export const SMART_RULES_MAX_DEPTH = 4;
export const SMART_RULES_MAX = 50;
/** The most songs a smart playlist may hold, and the longest one in minutes. */
export const SMART_LIMIT_SONGS_MAX = 5000;
export const SMART_LIMIT_MINUTES_MAX = 60 * 24 * 7;
/** The longest text a text rule may compare with, and the most days of "in the last N days". */
export const SMART_TEXT_MAX = 200;
export const SMART_DAYS_MAX = 36_500;

export const SMART_TEXT_FIELDS = ['genre', 'artist', 'album', 'format'] as const;
export const SMART_NUMBER_FIELDS = ['year', 'rating', 'playCount', 'duration', 'bitrate', 'library'] as const;
export const SMART_DATE_FIELDS = ['lastPlayed', 'dateAdded'] as const;
export const SMART_BOOLEAN_FIELDS = ['liked'] as const;

export type SmartTextField = (typeof SMART_TEXT_FIELDS)[number];
export type SmartNumberField = (typeof SMART_NUMBER_FIELDS)[number];
export type SmartDateField = (typeof SMART_DATE_FIELDS)[number];
export type SmartBooleanField = (typeof SMART_BOOLEAN_FIELDS)[number];
export type SmartField = SmartTextField | SmartNumberField | SmartDateField | SmartBooleanField;

export const SMART_TEXT_OPERATORS = ['is', 'isNot', 'contains', 'startsWith'] as const;
export const SMART_NUMBER_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'between'] as const;
export const SMART_DATE_OPERATORS = ['before', 'after', 'inTheLast'] as const;
export const SMART_BOOLEAN_OPERATORS = ['isTrue', 'isFalse'] as const;
/** `library` is an id: only equality makes sense. */
export const SMART_LIBRARY_OPERATORS = ['eq', 'ne'] as const;

export interface SmartTextRule {
  field: SmartTextField;
  op: (typeof SMART_TEXT_OPERATORS)[number];
  value: string;
}
export type SmartNumberRule =
  | { field: SmartNumberField; op: Exclude<(typeof SMART_NUMBER_OPERATORS)[number], 'between'>; value: number }
  | { field: SmartNumberField; op: 'between'; value: [number, number] };
/** `before`/`after` take an ISO date (YYYY-MM-DD); `inTheLast` a number of days. */
export type SmartDateRule =
  | { field: SmartDateField; op: 'before' | 'after'; value: string }
  | { field: SmartDateField; op: 'inTheLast'; value: number };
export interface SmartBooleanRule {
  field: SmartBooleanField;
  op: (typeof SMART_BOOLEAN_OPERATORS)[number];
}
export type SmartRule = SmartTextRule | SmartNumberRule | SmartDateRule | SmartBooleanRule;
export interface SmartGroup {
  match: 'all' | 'any';
  rules: (SmartRule | SmartGroup)[];
}

export const SMART_SORT_FIELDS = [
  ...SMART_TEXT_FIELDS,
  ...SMART_NUMBER_FIELDS,
  ...SMART_DATE_FIELDS,
  ...SMART_BOOLEAN_FIELDS,
  'random',
] as const;
export interface SmartSort {
  field: (typeof SMART_SORT_FIELDS)[number];
  direction: 'asc' | 'desc';
}
export type SmartLimit = { kind: 'songs' | 'minutes'; value: number } | null;
export interface SmartDefinition {
  rules: SmartGroup;
  sort: SmartSort;
  limit: SmartLimit;
}

interface Found {
  path: string;
  message: string;
}
interface Counter {
  rules: number;
}

const has = (list: readonly string[], value: unknown): boolean => typeof value === 'string' && list.includes(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isIsoDate = (value: unknown): value is string =>
  typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

function operatorsOf(field: string): readonly string[] {
  if (field === 'library') return SMART_LIBRARY_OPERATORS;
  if (has(SMART_TEXT_FIELDS, field)) return SMART_TEXT_OPERATORS;
  if (has(SMART_NUMBER_FIELDS, field)) return SMART_NUMBER_OPERATORS;
  if (has(SMART_DATE_FIELDS, field)) return SMART_DATE_OPERATORS;
  return SMART_BOOLEAN_OPERATORS;
}

function checkNumberValue(field: string, op: string, value: unknown): string | null {
  if (op !== 'between') return isNumber(value) ? null : `${field} needs a number`;
  if (!Array.isArray(value) || value.length !== 2) return `${field} between needs two numbers`;
  const [low, high] = value as unknown[];
  if (!isNumber(low) || !isNumber(high)) return `${field} between needs two numbers`;
  return low <= high ? null : `${field} between needs the smaller number first`;
}

function checkDateValue(field: string, op: string, value: unknown): string | null {
  if (op !== 'inTheLast') return isIsoDate(value) ? null : `${field} needs a date (YYYY-MM-DD)`;
  const days = isNumber(value) && Number.isInteger(value) && value >= 1 && value <= SMART_DAYS_MAX;
  return days ? null : `${field} in the last N days needs a whole number of days from 1 to ${SMART_DAYS_MAX}`;
}

function checkTextValue(field: string, value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return `${field} needs some text`;
  return value.length <= SMART_TEXT_MAX ? null : `${field} text must be at most ${SMART_TEXT_MAX} characters`;
}

function checkRule(raw: Record<string, unknown>): string | null {
  const { field, op, value } = raw;
  if (!has(SMART_SORT_FIELDS, field) || field === 'random') return `unknown field ${JSON.stringify(field)}`;
  const name = field as string;
  if (!has(operatorsOf(name), op)) return `${name} cannot use the operator ${JSON.stringify(op)}`;
  if (has(SMART_TEXT_FIELDS, name)) return checkTextValue(name, value);
  if (has(SMART_DATE_FIELDS, name)) return checkDateValue(name, op as string, value);
  if (has(SMART_BOOLEAN_FIELDS, name)) return value === undefined ? null : `${name} takes no value`;
  return checkNumberValue(name, op as string, value);
}

function checkGroup(raw: unknown, path: string, depth: number, counter: Counter, found: Found[]): void {
  if (!isRecord(raw)) return void found.push({ path, message: 'needs a rule or a group' });
  if (!('rules' in raw)) {
    counter.rules += 1;
    const message = checkRule(raw);
    if (message !== null) found.push({ path, message });
    return;
  }
  if (raw.match !== 'all' && raw.match !== 'any') found.push({ path, message: 'a group matches "all" or "any"' });
  if (depth > SMART_RULES_MAX_DEPTH)
    return void found.push({ path, message: `groups nest at most ${SMART_RULES_MAX_DEPTH} deep` });
  if (!Array.isArray(raw.rules) || raw.rules.length === 0)
    return void found.push({ path, message: 'a group needs at least one rule' });
  raw.rules.forEach((child, index) => checkGroup(child, `${path}.rules[${index}]`, depth + 1, counter, found));
}

function checkSort(raw: unknown, found: Found[]): void {
  if (!isRecord(raw) || !has(SMART_SORT_FIELDS, raw.field))
    found.push({ path: 'sort', message: 'sort needs a known field' });
  else if (raw.direction !== 'asc' && raw.direction !== 'desc')
    found.push({ path: 'sort', message: 'sort direction is "asc" or "desc"' });
}

function checkLimit(raw: unknown, found: Found[]): void {
  if (raw === null) return;
  if (!isRecord(raw) || (raw.kind !== 'songs' && raw.kind !== 'minutes'))
    return void found.push({ path: 'limit', message: 'limit is in "songs" or "minutes"' });
  const max = raw.kind === 'songs' ? SMART_LIMIT_SONGS_MAX : SMART_LIMIT_MINUTES_MAX;
  const ok = isNumber(raw.value) && Number.isInteger(raw.value) && raw.value >= 1 && raw.value <= max;
  if (!ok) found.push({ path: 'limit', message: `limit needs a whole number of ${raw.kind} from 1 to ${max}` });
}

/** Every problem of a definition, each naming its place ("rules", "rules.rules[2]", "sort", "limit"). */
export function findSmartProblems(raw: unknown): Found[] {
  const found: Found[] = [];
  if (!isRecord(raw)) return [{ path: '', message: 'a smart playlist needs rules, sort and limit' }];
  const counter: Counter = { rules: 0 };
  checkGroup(raw.rules, 'rules', 1, counter, found);
  if (counter.rules > SMART_RULES_MAX) found.push({ path: 'rules', message: `at most ${SMART_RULES_MAX} rules` });
  checkSort(raw.sort, found);
  checkLimit(raw.limit, found);
  return found;
}

/**
 * The definition as a zod schema for the contract's declarations. The top group's own path is "rules"; a nested rule's
 * message reads `rules[2].rules[0]: …` (the top group's "rules." is dropped so the path reads like the JSON it names).
 */
export const SmartDefinition = z.unknown().transform((raw, ctx): SmartDefinition => {
  for (const { path, message } of findSmartProblems(raw)) {
    const shown = path.replace(/^rules\.rules\[/, 'rules[');
    ctx.addIssue({ code: 'custom', message: shown === '' ? message : `${shown}: ${message}`, path: [shown] });
  }
  return raw as SmartDefinition;
});

/** A stored definition as answered (already checked when it was saved). */
export const SmartDefinitionJson = z.custom<SmartDefinition>((raw) => findSmartProblems(raw).length === 0, {
  message: 'not a smart playlist definition',
});
