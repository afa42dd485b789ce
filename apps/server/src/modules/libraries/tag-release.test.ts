import { describe, expect, it } from 'vitest';
import { validDate } from './tag-release.js';

describe('validDate', () => {
  it('keeps YYYY, YYYY-MM and YYYY-MM-DD as tagged, without an ID3v2.4 time', () => {
    expect(validDate('1999')).toBe('1999');
    expect(validDate(' 1999-05 ')).toBe('1999-05');
    expect(validDate('2000-02-29')).toBe('2000-02-29');
    expect(validDate('1999-05-01T12:30')).toBe('1999-05-01');
  });

  it('refuses dates that do not exist or are not written so', () => {
    expect(validDate('1999-02-29')).toBeNull();
    expect(validDate('1999-13')).toBeNull();
    expect(validDate('1999-00-10')).toBeNull();
    expect(validDate('1999-04-31')).toBeNull();
    expect(validDate('1999-5-1')).toBeNull();
    expect(validDate('1999/05/01')).toBeNull();
    expect(validDate('05/01/1999')).toBeNull();
    expect(validDate('0000')).toBeNull();
    expect(validDate('1999-05-01 and more')).toBeNull();
    expect(validDate('')).toBeNull();
  });
});
