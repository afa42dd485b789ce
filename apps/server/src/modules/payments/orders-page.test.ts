import { OrderPage } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser, type TestUser } from '../../../test/factories.js';
import { expectBadCursor, pageThrough, urlOf, type Query } from '../../../test/pages.js';

describeEachDialect('order pages (%s)', { env: { PAYMENT_PROVIDER: 'demo' } }, (t) => {
  let buyer: TestUser;
  let other: TestUser;
  /** The buyer's order ids, newest first (created_at, then id). */
  let expected: number[];

  async function page(who: TestUser, query: Query): Promise<OrderPage> {
    const response = await t.as(who).get(urlOf('/api/payment/orders/page', query));
    expect(response.statusCode, response.body).toBe(200);
    return OrderPage.parse(response.json());
  }

  async function insertOrder(userId: number, createdAt: string): Promise<number> {
    const row = await t.db
      .insertInto('orders')
      .values({
        user_id: userId,
        plan: 'monthly',
        amount_cents: 499,
        currency: 'eur',
        provider: 'demo',
        status: 'pending',
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeAll(async () => {
    buyer = await makeUser(t);
    other = await makeUser(t);
    // Out of time order by id, and two pairs created at the same instant (ties go by id, newest first).
    const times = ['2026-03-01', '2026-01-01', '2026-03-01', '2026-02-01', '2026-02-01', '2025-12-01'];
    const orders: { id: number; at: string }[] = [];
    for (const day of times) {
      const at = `${day}T00:00:00.000Z`;
      orders.push({ id: await insertOrder(buyer.id, at), at });
      await insertOrder(other.id, at);
    }
    expected = orders.sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id).map((order) => order.id);
  });

  it('pages the caller’s orders newest first, ties by id, with the total', async () => {
    for (const limit of [1, 2, 4, 50]) {
      const pages = await pageThrough((cursor) => page(buyer, { limit, cursor }));
      expect(pages.flatMap((p) => p.items.map((order) => order.id))).toEqual(expected);
      expect(pages.every((p) => p.total === expected.length && p.items.length <= limit)).toBe(true);
    }
    expect((await t.as(null).get('/api/payment/orders/page')).statusCode).toBe(401);
  });

  it('refuses another buyer’s cursor and bad limits with 400', async () => {
    const first = await page(buyer, { limit: 1 });
    expectBadCursor(await t.as(other).get(urlOf('/api/payment/orders/page', { cursor: first.nextCursor ?? '' })));
    for (const limit of [0, 501]) {
      expect((await t.as(buyer).get(urlOf('/api/payment/orders/page', { limit }))).statusCode).toBe(400);
    }
  });
});
