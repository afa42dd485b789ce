import { describe, expect, it } from 'vitest';
import { DEFAULT_SEPARATORS, joinCommaPieces, performerParts, splitNames } from './tag-people.js';

describe('splitNames', () => {
  it('splits on ";", " feat. " and " ft. " (any case), and never on "/" or "&"', () => {
    expect(splitNames(['Main feat. Guest; Other'])).toEqual(['Main', 'Guest', 'Other']);
    expect(splitNames(['Main FEAT. Guest', 'Main Ft. Third'])).toEqual(['Main', 'Guest', 'Third']);
    expect(splitNames(['AC/DC; Simon & Garfunkel'])).toEqual(['AC/DC', 'Simon & Garfunkel']);
    expect(splitNames(['Earth, Wind & Fire'])).toEqual(['Earth, Wind & Fire']);
    // " feat. " needs its spaces: a name that only contains the letters is left alone.
    expect(splitNames(['Featherweight; Defeat.Band'])).toEqual(['Featherweight', 'Defeat.Band']);
    expect(DEFAULT_SEPARATORS).toEqual([';', ' feat. ', ' ft. ']);
  });

  it('trims, drops blanks, cleans each name, and keeps the first spelling of a name met again', () => {
    expect(splitNames([' A ;; ;b\u0000 ', 'a', 'B; C'])).toEqual(['A', 'b', 'C']);
    expect(splitNames(['', '   '])).toEqual([]);
    // Split first, then capped: each name may be as long as a name may be.
    const long = 'x'.repeat(90);
    expect(splitNames([`${long}1; ${long}2`])).toEqual([`${long}1`, `${long}2`]);
  });

  it('takes the separators it is given, and still never "/", "&" or a blank one', () => {
    expect(splitNames(['A x B; C & D'], [' x '])).toEqual(['A', 'B; C & D']);
    expect(splitNames(['A X B'], [' x '])).toEqual(['A', 'B']);
    expect(splitNames(['AC/DC', 'Simon & Garfunkel'], ['/', ' & ', '&', ' '.repeat(2), ''])).toEqual([
      'AC/DC',
      'Simon & Garfunkel',
    ]);
    expect(splitNames(['A; B'], [])).toEqual(['A; B']);
    // Separators are text, not patterns.
    expect(splitNames(['A.B|C'], ['.', '|'])).toEqual(['A', 'B', 'C']);
  });

  it('keeps at most 100 names', () => {
    const many = Array.from({ length: 150 }, (_, index) => `Name ${index}`).join('; ');
    expect(splitNames([many])).toHaveLength(100);
  });
});

describe('involved-people names', () => {
  it('joins back the pieces music-metadata cut at a comma inside a name', () => {
    expect(joinCommaPieces(['P1', 'Earth', ' Wind & Fire', 'P2'])).toEqual(['P1', 'Earth, Wind & Fire', 'P2']);
    expect(joinCommaPieces(['A', 'B'])).toEqual(['A', 'B']);
    expect(joinCommaPieces([' leading'])).toEqual([' leading']);
  });

  it('reads "Name (instrument)" as a performer and the instrument', () => {
    expect(performerParts('Joe Pass (guitar)')).toEqual({ name: 'Joe Pass', instrument: 'guitar' });
    expect(performerParts('Ann')).toEqual({ name: 'Ann', instrument: null });
    expect(performerParts('Ann ()')).toEqual({ name: 'Ann', instrument: null });
    expect(performerParts('(guitar)')).toEqual({ name: null, instrument: 'guitar' });
    expect(performerParts('The (Real) Band')).toEqual({ name: 'The (Real) Band', instrument: null });
  });
});
