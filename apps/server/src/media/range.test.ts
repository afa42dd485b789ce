import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentRange, parseRange, unsatisfiedContentRange } from './range.js';

const size = fc.integer({ min: 0, max: 10_000_000 });
const nonEmptySize = fc.integer({ min: 1, max: 10_000_000 });
const offset = fc.integer({ min: 0, max: 20_000_000 });

describe('parseRange examples', () => {
  it.each([
    [undefined, 1000, { kind: 'full' }],
    ['bytes=0-0', 1000, { kind: 'partial', start: 0, end: 0 }],
    ['bytes=999-999', 1000, { kind: 'partial', start: 999, end: 999 }],
    ['bytes=-500', 1000, { kind: 'partial', start: 500, end: 999 }],
    ['bytes=-5000', 1000, { kind: 'partial', start: 0, end: 999 }],
    ['bytes=100-', 1000, { kind: 'partial', start: 100, end: 999 }],
    ['bytes=0-99999999999999999999', 1000, { kind: 'partial', start: 0, end: 999 }],
    ['BYTES=5-9', 1000, { kind: 'partial', start: 5, end: 9 }],
    ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=1000-2000', 1000, { kind: 'unsatisfiable' }],
    ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=-10', 0, { kind: 'full' }],
    ['bytes=5-2', 1000, { kind: 'full' }],
    ['bytes=-', 1000, { kind: 'full' }],
    ['bytes=0-1,5-6', 1000, { kind: 'full' }],
    ['items=0-1', 1000, { kind: 'full' }],
    ['bytes=a-b', 1000, { kind: 'full' }],
    ['bytes 0-1', 1000, { kind: 'full' }],
    ['bytes=0x10-', 1000, { kind: 'full' }],
    ['bytes=1.5-3', 1000, { kind: 'full' }],
  ])('%s of %i bytes → %o', (header, bytes, expected) => {
    expect(parseRange(header, bytes)).toEqual(expected);
  });

  it('formats Content-Range values', () => {
    expect(contentRange(0, 0, 10)).toBe('bytes 0-0/10');
    expect(unsatisfiedContentRange(10)).toBe('bytes */10');
  });
});

describe('parseRange properties', () => {
  it('never throws, and every partial answer lies inside the file', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((tail) => `bytes=${tail}`),
        ),
        size,
        (header, bytes) => {
          const range = parseRange(header, bytes);
          if (range.kind === 'partial') {
            expect(Number.isInteger(range.start) && Number.isInteger(range.end)).toBe(true);
            expect(0 <= range.start && range.start <= range.end && range.end < bytes).toBe(true);
          }
        },
      ),
    );
  });

  it('bytes=a-b with a ≤ b: the clamped range when a is inside the file, else unsatisfiable', () => {
    fc.assert(
      fc.property(offset, offset, nonEmptySize, (x, y, bytes) => {
        const [first, last] = x <= y ? [x, y] : [y, x];
        const range = parseRange(`bytes=${first}-${last}`, bytes);
        if (first < bytes) expect(range).toEqual({ kind: 'partial', start: first, end: Math.min(last, bytes - 1) });
        else expect(range).toEqual({ kind: 'unsatisfiable' });
      }),
    );
  });

  it('bytes=a- runs to the last byte', () => {
    fc.assert(
      fc.property(offset, nonEmptySize, (first, bytes) => {
        const range = parseRange(`bytes=${first}-`, bytes);
        expect(range).toEqual(
          first < bytes ? { kind: 'partial', start: first, end: bytes - 1 } : { kind: 'unsatisfiable' },
        );
      }),
    );
  });

  it('bytes=-n is the last n bytes (the whole file when n is larger)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000_000 }), nonEmptySize, (length, bytes) => {
        const range = parseRange(`bytes=-${length}`, bytes);
        expect(range).toEqual({ kind: 'partial', start: Math.max(0, bytes - length), end: bytes - 1 });
        if (range.kind === 'partial') expect(range.end - range.start + 1).toBe(Math.min(length, bytes));
      }),
    );
  });

  it('a reversed range is malformed and ignored (full answer)', () => {
    fc.assert(
      fc.property(offset, offset, size, (x, y, bytes) => {
        fc.pre(x !== y);
        expect(parseRange(`bytes=${Math.max(x, y)}-${Math.min(x, y)}`, bytes)).toEqual({ kind: 'full' });
      }),
    );
  });

  it('several ranges are answered with the full file', () => {
    const spec = fc.oneof(
      fc.tuple(offset, offset).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
      offset.map((a) => `${a}-`),
      fc.integer({ min: 1, max: 1000 }).map((n) => `-${n}`),
    );
    fc.assert(
      fc.property(fc.array(spec, { minLength: 2, maxLength: 5 }), size, (specs, bytes) => {
        expect(parseRange(`bytes=${specs.join(',')}`, bytes)).toEqual({ kind: 'full' });
      }),
    );
  });

  it('ignores the case of the unit', () => {
    fc.assert(
      fc.property(fc.constantFrom('bytes', 'BYTES', 'Bytes', 'bYtEs'), offset, nonEmptySize, (unit, first, bytes) => {
        expect(parseRange(`${unit}=${first}-`, bytes)).toEqual(parseRange(`bytes=${first}-`, bytes));
      }),
    );
  });
});
