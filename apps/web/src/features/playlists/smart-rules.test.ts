import { type SmartDefinition } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { definitionOf, draftOf, newRule, previewLabel, withField, type DraftGroup } from './smart-rules.js';

const definition: SmartDefinition = {
  rules: {
    match: 'all',
    rules: [
      { field: 'genre', op: 'contains', value: 'rock' },
      {
        match: 'any',
        rules: [
          { field: 'year', op: 'between', value: [1970, 1979] },
          { field: 'lastPlayed', op: 'inTheLast', value: 30 },
          { field: 'dateAdded', op: 'after', value: '2026-01-31' },
          { field: 'liked', op: 'isTrue' },
        ],
      },
    ],
  },
  sort: { field: 'playCount', direction: 'desc' },
  limit: { kind: 'minutes', value: 90 },
};

describe('smart playlist editor model', () => {
  it('turns a definition into the form and back unchanged (every kind of value)', () => {
    expect(definitionOf(draftOf(definition))).toEqual(definition);
    expect(definitionOf(draftOf({ ...definition, limit: null }))).toEqual({ ...definition, limit: null });
  });

  it('sends what is half typed as it is, for the server to name the rule (an empty number is null)', () => {
    const draft = draftOf(null);
    const year = { ...withField(newRule(), 'year'), value: '' };
    const rules: DraftGroup = { ...draft.rules, rules: [year] };
    expect(definitionOf({ ...draft, rules }).rules.rules).toEqual([{ field: 'year', op: 'eq', value: null }]);
    expect(definitionOf({ ...draft, limitKind: 'songs', limitValue: 'many' }).limit).toEqual({
      kind: 'songs',
      value: 0,
    });
  });

  it('keeps operator and value when a rule moves to a field of the same kind, else starts it afresh', () => {
    const rule = { ...newRule('genre'), op: 'contains', value: 'jazz' };
    expect(withField(rule, 'artist')).toMatchObject({ field: 'artist', op: 'contains', value: 'jazz' });
    expect(withField(rule, 'rating')).toMatchObject({ field: 'rating', op: 'eq', value: '' });
    expect(withField(rule, 'liked')).toMatchObject({ field: 'liked', op: 'isTrue', value: '' });
  });

  it('labels the preview with songs and length', () => {
    expect(previewLabel(1, 200_000)).toBe('1 song · 3 min');
    expect(previewLabel(42, 10_620_000)).toBe('42 songs · 2 h 57 min');
  });
});
