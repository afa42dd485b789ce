import { describe, expect, it } from 'vitest';
import { idMixes, shuffledPage, shuffleKey, SortedShuffle, type ShuffleRequest } from './shuffle-order.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every page of `ids` from the first to the last. */
function allPages(ids: number[], request: Omit<ShuffleRequest, 'afterId'>): number[][] {
  const pages: number[][] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = shuffledPage(ids, { ...request, afterId });
    pages.push(page.ids);
    if (!page.more) return pages;
    afterId = page.ids.at(-1);
  }
}

/** Spearman's rank correlation of two orders of the same ids. */
function rankCorrelation(a: number[], b: number[]): number {
  const rankInB = new Map(b.map((id, index) => [id, index]));
  const n = a.length;
  const squared = a.reduce((sum, id, index) => sum + (index - (rankInB.get(id) ?? 0)) ** 2, 0);
  return 1 - (6 * squared) / (n * (n * n - 1));
}

describe('the seeded shuffle', () => {
  const ids = range(1, 2000);

  it('pages the same with the ids’ mixes kept by the caller, from the start and after any cursor', () => {
    const mixes = idMixes(ids);
    for (const limit of [1, 7, 50]) {
      for (const afterId of [undefined, 1, 777, 2000, 5000]) {
        const request = { seed: 9, limit, afterId };
        expect(shuffledPage(ids, { ...request, mixes })).toEqual(shuffledPage(ids, request));
      }
    }
  });

  it('pages through every id once, in key order, for several page sizes', () => {
    const whole = [...ids].sort((a, b) => shuffleKey(42, a) - shuffleKey(42, b));
    for (const limit of [1, 7, 50, 500, 2000, 5000]) {
      const pages = allPages(ids, { seed: 42, limit });
      expect(pages.flat()).toEqual(whole);
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    }
  });

  it('answers the same order for the same seed whatever order the ids come in', () => {
    const reversed = [...ids].reverse();
    expect(allPages(reversed, { seed: 7, limit: 100 }).flat()).toEqual(allPages(ids, { seed: 7, limit: 100 }).flat());
  });

  it('gives unrelated orders for other seeds, not shifts or rotations of one another', () => {
    const orders = [0, 1, 2, 1000, 2_147_483_647].map((seed) => allPages(ids, { seed, limit: 500 }).flat());
    for (let i = 0; i < orders.length; i += 1) {
      for (let j = i + 1; j < orders.length; j += 1) {
        const [a, b] = [orders[i] ?? [], orders[j] ?? []];
        expect(a).not.toEqual(b);
        expect(Math.abs(rankCorrelation(a, b))).toBeLessThan(0.1);
        // A rotation keeps each song's successor; unrelated orders share almost none.
        const next = new Map(a.map((id, index) => [id, a[index + 1]]));
        const shared = b.filter((id, index) => next.get(id) === b[index + 1]).length;
        expect(shared).toBeLessThan(ids.length / 100);
      }
    }
  });

  it('is not the id order', () => {
    const order = allPages(ids, { seed: 3, limit: 2000 }).flat();
    expect(Math.abs(rankCorrelation(order, ids))).toBeLessThan(0.1);
  });

  it('neither repeats nor skips when ids are added and removed between pages', () => {
    const catalogue = range(1, 300);
    const seen: number[] = [];
    let future = 0;
    let afterId: number | undefined;
    for (let round = 0; ; round += 1) {
      const page = shuffledPage(catalogue, { seed: 11, limit: 40, afterId });
      seen.push(...page.ids);
      if (!page.more) break;
      afterId = page.ids.at(-1);
      if (round === 2) {
        // Two new ids; one id already listed and one still to come go away.
        catalogue.push(301, 302);
        future = catalogue.find((id) => !seen.includes(id)) ?? 0;
        for (const gone of [seen[0] ?? 0, future]) catalogue.splice(catalogue.indexOf(gone), 1);
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    const keyAfter = shuffleKey(11, seen[119] ?? 0);
    const expected = range(1, 302).filter((id) => id !== future && (id <= 300 || shuffleKey(11, id) > keyAfter));
    expect([...seen].sort((a, b) => a - b)).toEqual(expected);
  });

  it('counts and pages only the ids that pass the filter', () => {
    const column = ids.map((id) => id % 3);
    const page = shuffledPage(ids, { seed: 5, limit: 10, filters: [{ column, value: 1 }] });
    expect(page.total).toBe(ids.filter((id) => id % 3 === 1).length);
    expect(page.ids.every((id) => id % 3 === 1)).toBe(true);
    expect(page.more).toBe(true);
    const none = shuffledPage(ids, { seed: 5, limit: 10, filters: [{ column, value: 7 }] });
    expect(none).toEqual({ ids: [], more: false, total: 0 });
    const parity = ids.map((id) => id % 2);
    const both = shuffledPage(ids, {
      seed: 5,
      limit: 2000,
      filters: [
        { column, value: 1 },
        { column: parity, value: 0 },
      ],
    });
    expect([...both.ids].sort((a, b) => a - b)).toEqual(ids.filter((id) => id % 6 === 4));
  });

  it('continues after a cursor id that is no longer listed', () => {
    const first = shuffledPage(ids, { seed: 9, limit: 10 });
    const gone = first.ids.at(-1) ?? 0;
    const rest = ids.filter((id) => id !== gone);
    expect(shuffledPage(rest, { seed: 9, limit: 10, afterId: gone }).ids).toEqual(
      shuffledPage(ids, { seed: 9, limit: 10, afterId: gone }).ids,
    );
  });

  it('sorted once, answers the same pages as the pass over the ids, from any cursor, gone or not', () => {
    const catalogue = range(1, 3000).filter((id) => id % 7 !== 0);
    for (const seed of [0, 5, 2_147_483_647]) {
      const sorted = new SortedShuffle(catalogue, seed);
      for (const limit of [1, 50, 500, 5000]) {
        let afterId: number | undefined;
        for (;;) {
          const page = sorted.page(afterId, limit);
          expect(page).toEqual(shuffledPage(catalogue, { seed, afterId, limit }));
          if (!page.more) break;
          afterId = page.ids.at(-1);
        }
      }
      // Cursors on songs that are not (or no longer) in the catalogue: multiples of 7, and ids past the end.
      for (const gone of [7, 700, 2996, 9999]) {
        expect(sorted.page(gone, 30)).toEqual(shuffledPage(catalogue, { seed, afterId: gone, limit: 30 }));
      }
    }
    expect(new SortedShuffle([], 1).page(undefined, 10)).toEqual({ ids: [], more: false, total: 0 });
  });
});
