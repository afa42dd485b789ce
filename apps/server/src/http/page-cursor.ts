import { createHmac, timingSafeEqual } from 'node:crypto';
import { PAGE_LIMIT_DEFAULT, RequestMessages } from '@tonearm/contract';
import type { z } from 'zod';
import { badRequest } from './errors.js';

/*
 * Keyset page cursors (issue 11). A cursor is base64url of a seal and a small JSON key (the last row's sort key, never
 * an offset). The seal is an HMAC over the list's name, the parameters that must stay the same from page to page
 * (seed, sort, filters, search text) and the key, so a cursor sent to another list, with other parameters, or edited,
 * is a 400 RequestMessages.badCursor rather than a wrong page or a 500. The HMAC key is fixed, not secret: a cursor
 * only positions a list its caller may read anyway, and every key is validated before it reaches SQL; the seal is
 * there to refuse mistakes and edits plainly.
 */

/** Bytes of the HMAC kept in a cursor. */
const SEAL_BYTES = 8;
const SEAL_KEY = 'tonearm page cursor 1';

/** What a list's cursors are bound to besides its name: parameters that must not change between its pages. */
export type CursorScope = readonly (string | number | boolean | null | undefined)[];

/** Encodes and decodes one list's cursors. */
export interface CursorCodec<Key> {
  encode(scope: CursorScope, key: Key): string;
  /** The key of `cursor` (undefined without one); a cursor of another list or scope, or an edited one, is a 400. */
  decode(scope: CursorScope, cursor: string | undefined): Key | undefined;
}

export const badCursor = () => badRequest(RequestMessages.badCursor, 'cursor');

function seal(list: string, scope: CursorScope, json: string): Buffer {
  const bound = JSON.stringify([list, scope.map((part) => part ?? null)]);
  return createHmac('sha256', SEAL_KEY).update(bound).update('\n').update(json).digest().subarray(0, SEAL_BYTES);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badCursor();
  }
}

/** The cursors of the list named `list`, whose keys `key` describes (and validates on the way in). */
export function cursorCodec<Key>(list: string, key: z.ZodType<Key>): CursorCodec<Key> {
  return {
    encode(scope, value) {
      const json = JSON.stringify(value);
      return Buffer.concat([seal(list, scope, json), Buffer.from(json)]).toString('base64url');
    },
    decode(scope, cursor) {
      if (cursor === undefined) return undefined;
      const bytes = Buffer.from(cursor, 'base64url');
      if (bytes.length <= SEAL_BYTES) throw badCursor();
      const json = bytes.subarray(SEAL_BYTES).toString('utf8');
      if (!timingSafeEqual(bytes.subarray(0, SEAL_BYTES), seal(list, scope, json))) throw badCursor();
      const parsed = key.safeParse(parseJson(json));
      if (!parsed.success) throw badCursor();
      return parsed.data;
    },
  };
}

/** A page's size: the client's `limit`, else PAGE_LIMIT_DEFAULT. */
export const pageLimit = (limit: number | undefined): number => limit ?? PAGE_LIMIT_DEFAULT;

/** A keyset page: its rows, and the cursor after the last of them (null at the end of the list). */
export interface KeysetPage<Row> {
  rows: Row[];
  nextCursor: string | null;
}

/**
 * The page of a keyset query that asked for `limit + 1` rows: the first `limit`, and a cursor after the last one when
 * the extra row shows that more follow.
 */
export function keysetPage<Row>(rows: Row[], limit: number, cursorAfter: (row: Row) => string): KeysetPage<Row> {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: cursorAfter(page[page.length - 1] as Row) };
}
