import { z } from 'zod';
import { PAGE_LIMIT_MAX } from './constants.js';

/** A positive integer id taken from a URL path segment. */
export const IdParam = z.object({ id: z.coerce.number().int().positive() });
export type IdParam = z.infer<typeof IdParam>;

export const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** A plain-text success answer (the spec's "response text shown as message"). */
export const TextAnswer = z.string();
