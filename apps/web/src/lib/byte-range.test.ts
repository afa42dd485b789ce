import { describe, expect, it } from 'vitest';
import { parseRange, rangeResponse } from './byte-range.js';

describe('parseRange', () => {
  it.each([
    [null, null],
    ['bytes=0-', { start: 0, end: 99 }],
    ['bytes=10-19', { start: 10, end: 19 }],
    ['bytes=90-500', { start: 90, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=-500', { start: 0, end: 99 }],
    ['bytes=5-9, 20-29', { start: 5, end: 9 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=20-10', null],
    ['items=0-5', null],
    ['bytes=abc', null],
    ['bytes=-', null],
  ] as const)('%s of 100 bytes reads as %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  it('has nothing to offer from an empty file but the whole (empty) body', () => {
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange(null, 0)).toBeNull();
  });
});

describe('rangeResponse', () => {
  // A typed array, not a Blob: jsdom's Blob is not the one the test runner's Response reads.
  const stored = () =>
    new Response(new Uint8Array(Array.from({ length: 100 }, (_, i) => i)), {
      headers: { 'Content-Type': 'audio/wav' },
    });

  it('answers a range with 206, Content-Range and exactly those bytes', async () => {
    const response = await rangeResponse(stored(), 'bytes=10-14');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-14/100');
    expect(response.headers.get('content-length')).toBe('5');
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([10, 11, 12, 13, 14]);
  });

  it('answers an open range to the end of the file', async () => {
    const response = await rangeResponse(stored(), 'bytes=98-');
    expect(response.headers.get('content-range')).toBe('bytes 98-99/100');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([98, 99]);
  });

  it('answers 416 past the end and 200 with the whole body without a range', async () => {
    const past = await rangeResponse(stored(), 'bytes=100-');
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */100');
    const whole = await rangeResponse(stored(), null);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect((await whole.arrayBuffer()).byteLength).toBe(100);
  });
});
