import { PageCursor, RequestMessages } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './errors.js';
import { cursorCodec, keysetPage } from './page-cursor.js';

const songs = cursorCodec('songs', z.tuple([z.string(), z.number().int().min(1)]));
const users = cursorCodec('users', z.tuple([z.string(), z.number().int().min(1)]));

function refusal(work: () => unknown): HttpError {
  try {
    work();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('page cursors', () => {
  it('round-trips a key as text the contract accepts', () => {
    const cursor = songs.encode(['Rock', 4], ['2026-01-01T00:00:00.000Z', 42]);
    expect(PageCursor.safeParse(cursor).success).toBe(true);
    expect(songs.decode(['Rock', 4], cursor)).toEqual(['2026-01-01T00:00:00.000Z', 42]);
    expect(songs.decode(['Rock', 4], undefined)).toBeUndefined();
  });

  it('refuses with 400 a cursor of another list, of another scope, edited, or not a cursor at all', () => {
    const cursor = songs.encode(['Rock', 4], ['x', 1]);
    const bytes = Buffer.from(cursor, 'base64url');
    const edited = Buffer.from(bytes);
    edited[0] = (edited[0] ?? 0) ^ 1;
    const forged = Buffer.concat([bytes.subarray(0, 8), Buffer.from('["x",2]')]).toString('base64url');
    const attempts: [string, () => unknown][] = [
      ['another list', () => users.decode(['Rock', 4], cursor)],
      ['another scope', () => songs.decode(['Jazz', 4], cursor)],
      ['a scope part left out', () => songs.decode(['Rock'], cursor)],
      ['an edited seal', () => songs.decode(['Rock', 4], edited.toString('base64url'))],
      ['a new key under the old seal', () => songs.decode(['Rock', 4], forged)],
      ['a seal alone', () => songs.decode(['Rock', 4], bytes.subarray(0, 8).toString('base64url'))],
      ['garbage', () => songs.decode(['Rock', 4], 'bm90IGEgY3Vyc29y')],
    ];
    for (const [what, attempt] of attempts) {
      const error = refusal(attempt);
      expect(error.status, what).toBe(400);
      expect(error.message, what).toBe(RequestMessages.badCursor);
      expect(error.field, what).toBe('cursor');
    }
  });

  it('refuses a well-sealed key its list does not accept', () => {
    const loose = cursorCodec('songs', z.unknown());
    const cursor = loose.encode([], ['x', 0]);
    expect(refusal(() => songs.decode([], cursor)).status).toBe(400);
  });

  it('cuts a limit + 1 answer to a page with the cursor of its last row', () => {
    expect(keysetPage([1, 2, 3], 3, String)).toEqual({ rows: [1, 2, 3], nextCursor: null });
    expect(keysetPage([1, 2, 3, 4], 3, String)).toEqual({ rows: [1, 2, 3], nextCursor: '3' });
    expect(keysetPage([], 3, String)).toEqual({ rows: [], nextCursor: null });
  });
});
