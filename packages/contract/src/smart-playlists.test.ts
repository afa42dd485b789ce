import { describe, expect, it } from 'vitest';
import { SMART_RULES_MAX, SMART_RULES_MAX_DEPTH, SmartDefinition } from './smart-playlists.js';

const base = { sort: { field: 'year', direction: 'desc' }, limit: { kind: 'songs', value: 100 } };
const withRules = (rules: unknown[], extra: object = {}) => ({ ...base, rules: { match: 'all', rules }, ...extra });

function messages(raw: unknown): string[] {
  const result = SmartDefinition.safeParse(raw);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('SmartDefinition', () => {
  it('accepts a rule of every field with a fitting operator, nested groups, sort and limit', () => {
    const rules = [
      { field: 'genre', op: 'is', value: 'Rock' },
      { field: 'artist', op: 'contains', value: 'beat' },
      { field: 'album', op: 'startsWith', value: 'Abbey' },
      { field: 'format', op: 'isNot', value: 'mp3' },
      { field: 'year', op: 'between', value: [1960, 1969] },
      { field: 'rating', op: 'gte', value: 4 },
      { field: 'playCount', op: 'eq', value: 0 },
      { field: 'duration', op: 'lt', value: 300 },
      { field: 'bitrate', op: 'ne', value: 128 },
      { field: 'library', op: 'eq', value: 1 },
      { field: 'lastPlayed', op: 'inTheLast', value: 30 },
      { field: 'dateAdded', op: 'after', value: '2024-01-31' },
      { field: 'liked', op: 'isTrue' },
      { match: 'any', rules: [{ field: 'year', op: 'lte', value: 2000 }] },
    ];
    expect(messages(withRules(rules))).toEqual([]);
    expect(messages({ ...withRules(rules), limit: null, sort: { field: 'random', direction: 'asc' } })).toEqual([]);
  });

  it.each([
    [[{ field: 'year', op: 'eq', value: 'x' }], 'rules[0]: year needs a number'],
    [[{ field: 'year', op: 'between', value: [3] }], 'rules[0]: year between needs two numbers'],
    [[{ field: 'year', op: 'between', value: [2000, 1990] }], 'rules[0]: year between needs the smaller number first'],
    [[{ field: 'genre', op: 'gt', value: 'Rock' }], 'rules[0]: genre cannot use the operator "gt"'],
    [[{ field: 'genre', op: 'is', value: '  ' }], 'rules[0]: genre needs some text'],
    [[{ field: 'genre', op: 'is', value: 'x'.repeat(201) }], 'rules[0]: genre text must be at most 200 characters'],
    [[{ field: 'mood', op: 'is', value: 'x' }], 'rules[0]: unknown field "mood"'],
    [[{ field: 'library', op: 'lt', value: 2 }], 'rules[0]: library cannot use the operator "lt"'],
    [[{ field: 'lastPlayed', op: 'before', value: '2024-13-45' }], 'rules[0]: lastPlayed needs a date (YYYY-MM-DD)'],
    [
      [{ field: 'dateAdded', op: 'inTheLast', value: 0 }],
      'rules[0]: dateAdded in the last N days needs a whole number of days from 1 to 36500',
    ],
    [[{ field: 'liked', op: 'isTrue', value: 3 }], 'rules[0]: liked takes no value'],
    [[42], 'rules[0]: needs a rule or a group'],
    [[{ match: 'some', rules: [{ field: 'liked', op: 'isFalse' }] }], 'rules[0]: a group matches "all" or "any"'],
    [[{ match: 'any', rules: [] }], 'rules[0]: a group needs at least one rule'],
  ])('refuses %j naming the rule', (rules, message) => {
    expect(messages(withRules(rules))).toEqual([message]);
  });

  it('names a nested rule by its whole path', () => {
    const rules = [
      { field: 'liked', op: 'isTrue' },
      { field: 'liked', op: 'isTrue' },
      { match: 'any', rules: [{ field: 'year', op: 'eq', value: null }] },
    ];
    expect(messages(withRules(rules))).toEqual(['rules[2].rules[0]: year needs a number']);
  });

  it('bounds the depth and the number of rules', () => {
    let group: object = { field: 'liked', op: 'isTrue' };
    for (let depth = 0; depth < SMART_RULES_MAX_DEPTH; depth += 1) group = { match: 'all', rules: [group] };
    expect(messages(withRules([group]))[0]).toMatch(/groups nest at most 4 deep/);
    const many = Array.from({ length: SMART_RULES_MAX + 1 }, () => ({ field: 'liked', op: 'isTrue' }));
    expect(messages(withRules(many))).toEqual([`rules: at most ${SMART_RULES_MAX} rules`]);
  });

  it('refuses a bad sort, a bad limit and a missing definition', () => {
    const rules = [{ field: 'liked', op: 'isTrue' }];
    expect(messages(withRules(rules, { sort: { field: 'mood', direction: 'asc' } }))).toEqual([
      'sort: sort needs a known field',
    ]);
    expect(messages(withRules(rules, { sort: { field: 'year', direction: 'up' } }))).toEqual([
      'sort: sort direction is "asc" or "desc"',
    ]);
    expect(messages(withRules(rules, { limit: { kind: 'hours', value: 1 } }))).toEqual([
      'limit: limit is in "songs" or "minutes"',
    ]);
    expect(messages(withRules(rules, { limit: { kind: 'songs', value: 0 } }))).toEqual([
      'limit: limit needs a whole number of songs from 1 to 5000',
    ]);
    expect(messages(null)).toEqual(['a smart playlist needs rules, sort and limit']);
    expect(messages({ ...base, rules: undefined })).toEqual(['rules: needs a rule or a group']);
  });
});
