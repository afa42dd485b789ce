import { describe, expect, it } from 'vitest';
import { idOfKind, parseSubsonicId } from './subsonic-ids.js';

describe('Subsonic ids', () => {
  it('reads a plain number as a song and a prefixed one as its kind', () => {
    expect(parseSubsonicId('12')).toEqual({ kind: 'song', id: 12 });
    expect(parseSubsonicId('al-5')).toEqual({ kind: 'album', id: 5 });
    expect(idOfKind('3', 'artist')).toBe(3);
  });

  it('accepts only canonical decimal numbers: no leading zero, sign, space or exponent', () => {
    for (const id of ['0001', '01', 'al-007', '+1', ' 1', '1 ', '0x10', '1e3', '0', '2147483648', 'ar-']) {
      expect(parseSubsonicId(id), id).toBeNull();
    }
  });
});
