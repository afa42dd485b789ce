import { z } from 'zod';
import { DB_ID_MAX, PAGE_CURSOR_MAX, PAGE_LIMIT_MAX, PAGE_OFFSET_MAX } from './constants.js';
import { RequestMessages } from './messages.js';

/**
 * Every id a client sends (bodies, form fields, path and query parameters): a whole number the database can hold. An
 * id past DB_ID_MAX is a 400 validation error on both dialects (never a database error), as is 0 or a negative one.
 */
export const DbId = z
  .number()
  .int(RequestMessages.idOutOfRange)
  .min(1, RequestMessages.idOutOfRange)
  .max(DB_ID_MAX, RequestMessages.idOutOfRange);

/** An id as text: decimal digits without a sign, a leading zero, spaces or an exponent (` 1`, `0001`, `0x10` are not ids). */
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/** DbId written as text (path and query parameters, multipart fields), canonical only; `message` for any other text. */
export function dbIdText(message: string = RequestMessages.idOutOfRange) {
  return z.union([z.number(), z.string().regex(CANONICAL_ID).transform(Number)], { error: message }).pipe(DbId);
}

/** DbId written as text: path and query parameters, multipart fields. */
export const DbIdText = dbIdText();

/** A positive integer id taken from a URL path segment. */
export const IdParam = z.object({ id: DbIdText });
export type IdParam = z.infer<typeof IdParam>;

export const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
  offset: z.coerce.number().int().min(0).max(PAGE_OFFSET_MAX, RequestMessages.offsetOutOfRange).optional(),
});

/**
 * Keyset paging (issue 11): a page answers `nextCursor`, and the next request sends it back as `cursor`; null means
 * the list is done. A cursor is opaque base64url text that names the last row's sort key (never an offset), so rows
 * added or removed meanwhile neither repeat nor skip the rest. `limit` defaults to PAGE_LIMIT_DEFAULT.
 */
export const PageCursor = z
  .string()
  .min(1, RequestMessages.badCursor)
  .max(PAGE_CURSOR_MAX, RequestMessages.badCursor)
  .regex(/^[A-Za-z0-9_-]+$/, RequestMessages.badCursor);

export const CursorQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
  cursor: PageCursor.optional(),
});
export type CursorQuery = z.infer<typeof CursorQuery>;

/** The envelope of every cursor page: the rows, the cursor of the next page (null at the end), the list's size. */
export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable(), total: z.number().int() });
}

/** A multipart form without text fields (only its file parts count). */
export const EmptyForm = z.object({});
