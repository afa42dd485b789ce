import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1.0 KB'],
    [1_540_000, '1.5 MB'],
    [12_400_000, '12 MB'],
    [999_400_000, '999 MB'],
    [1_200_000_000, '1.2 GB'],
    [-5, '0 bytes'],
    [Number.NaN, '0 bytes'],
  ])('%d bytes read as %s', (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});
