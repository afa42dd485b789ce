import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB, OrderRow, UserRow } from '../../db/schema.js';
import { lockUser } from '../../db/user-lock.js';

export interface NewOrder {
  userId: number;
  plan: string;
  amountCents: number;
  currency: string;
  provider: string;
  createdAt: string;
}

export interface CompletedOrder {
  order: OrderRow;
  /** False when the order was already paid (a repeated delivery): nothing changed. */
  changed: boolean;
  /** The buyer as stored after the change; null when the account has been deleted since. */
  user: UserRow | null;
}

/** At most `maxPending` pending orders of the buyer created after `sinceIso` may exist beside a new one. */
export interface PendingLimit {
  maxPending: number;
  sinceIso: string;
}

export interface PaymentsRepository {
  /**
   * Opens a pending order; null (nothing written) when the buyer already has `limit.maxPending` pending orders created
   * after `limit.sinceIso`, counted under the buyer's lock so concurrent checkouts cannot both slip in.
   */
  createOrder(order: NewOrder, limit?: PendingLimit): Promise<OrderRow | null>;
  setProviderRef(orderId: number, providerRef: string): Promise<OrderRow | undefined>;
  findOrder(orderId: number): Promise<OrderRow | undefined>;
  findUser(userId: number): Promise<UserRow | undefined>;
  /** A user's orders, newest first, at most ORDERS_LISTED_MAX. */
  listOrders(userId: number): Promise<OrderRow[]>;
  /** A user's orders newest first (created_at, then id, descending), after `after` when given; `limit` at most. */
  orderPage(userId: number, after: OrderKey | undefined, limit: number): Promise<OrderRow[]>;
  countOrders(userId: number): Promise<number>;
  /** Marks an order failed unless it is already paid; answers the order as it now is. */
  markFailed(orderId: number): Promise<OrderRow | undefined>;
  /**
   * In one transaction: flips the order to paid (only if it is not paid yet, so a repeated or concurrent delivery
   * changes nothing), recording `providerRef` when given, and, when it flipped, sets the buyer's premium_until to `extend(current premium_until)`.
   */
  completeOrder(
    orderId: number,
    paidAt: string,
    providerRef: string | undefined,
    extend: (currentUntil: string | null) => string,
  ): Promise<CompletedOrder | undefined>;
}

export const ORDERS_LISTED_MAX = 100;

/** Where a page of orders starts: after this order (newest first). */
export interface OrderKey {
  createdAt: string;
  id: number;
}

export function createPaymentsRepository(db: Kysely<DB>, dialect: Dialect): PaymentsRepository {
  return {
    createOrder(order, limit) {
      return db.transaction().execute(async (trx) => {
        if (limit !== undefined) {
          await lockUser(trx, dialect, order.userId);
          const pending = await trx
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('user_id', '=', order.userId)
            .where('status', '=', 'pending')
            .where('created_at', '>', limit.sinceIso)
            .executeTakeFirstOrThrow();
          if (pending.count >= limit.maxPending) return null;
        }
        return trx
          .insertInto('orders')
          .values({
            user_id: order.userId,
            plan: order.plan,
            amount_cents: order.amountCents,
            currency: order.currency,
            provider: order.provider,
            status: 'pending',
            created_at: order.createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    setProviderRef(orderId, providerRef) {
      return db
        .updateTable('orders')
        .set({ provider_ref: providerRef })
        .where('id', '=', orderId)
        .returningAll()
        .executeTakeFirst();
    },

    findOrder(orderId) {
      return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    },

    findUser(userId) {
      return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    },

    listOrders(userId) {
      return db
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(ORDERS_LISTED_MAX)
        .execute();
    },

    orderPage(userId, after, limit) {
      let query = db.selectFrom('orders').selectAll().where('user_id', '=', userId);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    async countOrders(userId) {
      const row = await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return row.count;
    },

    markFailed(orderId) {
      return db
        .updateTable('orders')
        .set({ status: 'failed' })
        .where('id', '=', orderId)
        .where('status', '!=', 'paid')
        .returningAll()
        .executeTakeFirst();
    },

    completeOrder(orderId, paidAt, providerRef, extend) {
      return db.transaction().execute(async (trx) => {
        const flipped = await trx
          .updateTable('orders')
          .set({ status: 'paid', paid_at: paidAt, ...(providerRef === undefined ? {} : { provider_ref: providerRef }) })
          .where('id', '=', orderId)
          .where('status', '!=', 'paid')
          .returningAll()
          .executeTakeFirst();
        const order =
          flipped ?? (await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst());
        if (order === undefined) return undefined;
        const changed = flipped !== undefined;
        if (order.user_id === null) return { order, changed, user: null };
        // PostgreSQL: lock the buyer's row so two orders paid at the same moment both count. SQLite runs one
        // transaction at a time on its single connection.
        const current = await trx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', order.user_id)
          .$if(dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        if (current === undefined || !changed) return { order, changed, user: current ?? null };
        const user = await trx
          .updateTable('users')
          .set({ premium_until: extend(current.premium_until) })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { order, changed, user };
      });
    },
  };
}
