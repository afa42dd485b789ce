import { RequestMessages } from '@tonearm/contract';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

const NUL = '\u0000';

/**
 * The dotted path of the first string (value or object key) in `value` that holds U+0000, or null when none does. The
 * walk is iterative: a parsed JSON body may be nested far deeper than the call stack allows.
 */
export function findNul(value: unknown, root = ''): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: root }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return next.path;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const path = next.path === '' ? key : `${next.path}.${key}`;
        if (key.includes(NUL)) return path;
        pending.push({ value: item, path });
      }
    }
  }
  return null;
}

/** Throws the 400 for a NUL character in `value` (see findNul), naming the field. */
export function assertNoNul(value: unknown, root = ''): void {
  const path = findNul(value, root);
  if (path !== null) throw badRequest(RequestMessages.nulCharacter, path === '' ? undefined : path);
}

/**
 * Refuses U+0000 in every path parameter, query parameter and parsed body with a 400, before any route validates or
 * uses them: PostgreSQL cannot store it in text (SQLite would, and nothing downstream expects it). Multipart text
 * fields are read by the route itself; readMultipart applies the same check.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      assertNoNul(request.params);
      assertNoNul(request.query);
      assertNoNul(request.body);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
