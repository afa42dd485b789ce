import { describe, expect, it } from 'vitest';
import { formatTime, spokenTime } from './format-time.js';

describe('formatTime', () => {
  it.each([
    [0, '0:00'],
    [7.9, '0:07'],
    [65, '1:05'],
    [205, '3:25'],
    [3729, '1:02:09'],
    [Number.NaN, '0:00'],
    [Number.POSITIVE_INFINITY, '0:00'],
    [-3, '0:00'],
  ])('%d s reads %s', (seconds, expected) => {
    expect(formatTime(seconds)).toBe(expected);
  });
});

describe('spokenTime', () => {
  it('spells minutes and seconds', () => {
    expect(spokenTime(65)).toBe('1 minute 5 seconds');
    expect(spokenTime(1)).toBe('1 second');
    expect(spokenTime(Number.NaN)).toBe('0 seconds');
  });
});
