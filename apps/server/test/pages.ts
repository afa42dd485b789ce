import { RequestMessages } from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * Keyset pages in tests: `urlOf(path, query)` builds a request URL, `pageThrough(fetchPage)` follows nextCursor from
 * the first page to the last.
 */

/** Query parameters; undefined ones are left out. */
export type Query = Record<string, string | number | undefined>;

export function urlOf(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * Every page, from the first (no cursor) to the one whose nextCursor is null. `between` runs after each page that has
 * a next one, told how many pages came so far (to change the data mid-way).
 */
export async function pageThrough<Page extends { nextCursor: string | null }>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  between?: (pagesSoFar: number) => Promise<void>,
): Promise<Page[]> {
  const pages: Page[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await fetchPage(cursor);
    pages.push(page);
    if (page.nextCursor === null) return pages;
    if (pages.length > 10_000) throw new Error('pageThrough: the pages never end');
    cursor = page.nextCursor;
    await between?.(pages.length);
  }
}

/** Asserts the 400 that a bad, edited or foreign cursor gets. */
export function expectBadCursor(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(400);
  const { error } = response.json<{ error: { message: string; field?: string } }>();
  expect(error).toMatchObject({ message: RequestMessages.badCursor, field: 'cursor' });
}
