import {
  SMART_BOOLEAN_FIELDS,
  SMART_DATE_FIELDS,
  SMART_TEXT_FIELDS,
  type SmartDefinition,
  type SmartField,
  type SmartGroup,
  type SmartLimit,
  type SmartRule,
  type SmartSort,
} from '@tonearm/contract';

/**
 * The smart playlist editor's model (issue 28): the rules as the form holds them (every value as typed, so a half-typed
 * number stays in its box), and the conversions to and from the contract's SmartDefinition. Whether a definition is
 * valid is the server's word: the editor's live preview shows its 400, which names the rule.
 */

export type FieldKind = 'text' | 'number' | 'date' | 'boolean' | 'library';

export interface DraftRule {
  key: number;
  field: SmartField;
  op: string;
  /** As typed; `between` has its second number in `second`. */
  value: string;
  second: string;
}
export interface DraftGroup {
  key: number;
  match: 'all' | 'any';
  rules: DraftNode[];
}
export type DraftNode = DraftRule | DraftGroup;

export interface Draft {
  rules: DraftGroup;
  sort: SmartSort;
  limitKind: 'none' | 'songs' | 'minutes';
  limitValue: string;
}

export const FIELD_LABELS: Record<SmartField, string> = {
  genre: 'Genre',
  artist: 'Artist',
  album: 'Album',
  format: 'Format',
  year: 'Year',
  rating: 'My rating',
  playCount: 'My play count',
  duration: 'Length (seconds)',
  bitrate: 'Bitrate (kbps)',
  library: 'Library',
  lastPlayed: 'Last played',
  dateAdded: 'Date added',
  liked: 'Liked',
};

export const OPERATOR_LABELS: Record<string, string> = {
  is: 'is',
  isNot: 'is not',
  contains: 'contains',
  startsWith: 'starts with',
  eq: 'is',
  ne: 'is not',
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is more than',
  gte: 'is at least',
  between: 'is between',
  before: 'is before',
  after: 'is after',
  inTheLast: 'is in the last (days)',
  isTrue: 'yes',
  isFalse: 'no',
};

const OPERATORS: Record<FieldKind, readonly string[]> = {
  text: ['is', 'isNot', 'contains', 'startsWith'],
  number: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'between'],
  date: ['inTheLast', 'before', 'after'],
  boolean: ['isTrue', 'isFalse'],
  library: ['eq', 'ne'],
};

export function kindOf(field: SmartField): FieldKind {
  if (field === 'library') return 'library';
  if ((SMART_TEXT_FIELDS as readonly string[]).includes(field)) return 'text';
  if ((SMART_DATE_FIELDS as readonly string[]).includes(field)) return 'date';
  if ((SMART_BOOLEAN_FIELDS as readonly string[]).includes(field)) return 'boolean';
  return 'number';
}

export function operatorsOf(field: SmartField): readonly string[] {
  return OPERATORS[kindOf(field)];
}

let lastKey = 0;
const nextKey = (): number => {
  lastKey += 1;
  return lastKey;
};

export function newRule(field: SmartField = 'genre'): DraftRule {
  return { key: nextKey(), field, op: operatorsOf(field)[0] ?? 'is', value: '', second: '' };
}

export function newGroup(match: 'all' | 'any' = 'all'): DraftGroup {
  return { key: nextKey(), match, rules: [newRule()] };
}

/** A rule moved to another field keeps its operator and value where they still make sense. */
export function withField(rule: DraftRule, field: SmartField): DraftRule {
  const sameKind = kindOf(rule.field) === kindOf(field);
  const op = operatorsOf(field).includes(rule.op) ? rule.op : (operatorsOf(field)[0] ?? 'is');
  return { ...rule, field, op, value: sameKind ? rule.value : '', second: sameKind ? rule.second : '' };
}

export const isGroup = (node: DraftNode): node is DraftGroup => 'rules' in node;

/** A typed number, or null when the box is empty or not a number (the server then names the rule). */
function numberOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

function ruleOf(rule: DraftRule): SmartRule {
  const kind = kindOf(rule.field);
  const base = { field: rule.field, op: rule.op };
  if (kind === 'boolean') return base as SmartRule;
  if (kind === 'text') return { ...base, value: rule.value } as SmartRule;
  if (rule.op === 'between') return { ...base, value: [numberOf(rule.value), numberOf(rule.second)] } as SmartRule;
  if (kind === 'date' && rule.op !== 'inTheLast') return { ...base, value: rule.value } as SmartRule;
  return { ...base, value: numberOf(rule.value) } as SmartRule;
}

function groupOf(group: DraftGroup): SmartGroup {
  return { match: group.match, rules: group.rules.map((node) => (isGroup(node) ? groupOf(node) : ruleOf(node))) };
}

export function definitionOf(draft: Draft): SmartDefinition {
  const limit: SmartLimit =
    draft.limitKind === 'none' ? null : { kind: draft.limitKind, value: numberOf(draft.limitValue) ?? 0 };
  return { rules: groupOf(draft.rules), sort: draft.sort, limit };
}

function draftRuleOf(rule: SmartRule): DraftRule {
  const value = 'value' in rule ? rule.value : undefined;
  if (Array.isArray(value)) {
    return { key: nextKey(), field: rule.field, op: rule.op, value: String(value[0]), second: String(value[1]) };
  }
  return {
    key: nextKey(),
    field: rule.field,
    op: rule.op,
    value: value === undefined ? '' : String(value),
    second: '',
  };
}

function draftGroupOf(group: SmartGroup): DraftGroup {
  return {
    key: nextKey(),
    match: group.match,
    rules: group.rules.map((node) => ('rules' in node ? draftGroupOf(node) : draftRuleOf(node))),
  };
}

export function draftOf(definition: SmartDefinition | null): Draft {
  if (definition === null) {
    return {
      rules: newGroup(),
      sort: { field: 'random', direction: 'asc' },
      limitKind: 'songs',
      limitValue: '100',
    };
  }
  return {
    rules: draftGroupOf(definition.rules),
    sort: definition.sort,
    limitKind: definition.limit?.kind ?? 'none',
    limitValue: definition.limit === null ? '100' : String(definition.limit.value),
  };
}

/** "42 songs · 2 h 57 min" for the preview. */
export function previewLabel(count: number, durationMs: number): string {
  const minutes = Math.round(durationMs / 60_000);
  const length = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `${count} ${count === 1 ? 'song' : 'songs'} · ${length}`;
}
