import { z } from 'zod';
import { DB_ID_MAX, PAGE_LIMIT_MAX, PAGE_OFFSET_MAX } from './constants.js';
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

/** DbId written as text: path and query parameters, multipart fields. */
export const DbIdText = z.coerce.number().pipe(DbId);

/** A positive integer id taken from a URL path segment. */
export const IdParam = z.object({ id: DbIdText });
export type IdParam = z.infer<typeof IdParam>;

export const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
  offset: z.coerce.number().int().min(0).max(PAGE_OFFSET_MAX, RequestMessages.offsetOutOfRange).optional(),
});

/** A multipart form without text fields (only its file parts count). */
export const EmptyForm = z.object({});
