import { describe, expect, it } from 'vitest';
import { greeting } from './greeting.js';

const at = (hours: number, minutes: number): Date => new Date(2025, 5, 14, hours, minutes, 0);

describe('greeting', () => {
  it.each([
    [0, 0, 'Good Morning'],
    [11, 59, 'Good Morning'],
    [12, 0, 'Good Afternoon'],
    [17, 59, 'Good Afternoon'],
    [18, 0, 'Good Evening'],
    [23, 59, 'Good Evening'],
  ])('at %i:%i says %s', (hours, minutes, expected) => {
    expect(greeting(at(hours, minutes))).toBe(expected);
  });
});
