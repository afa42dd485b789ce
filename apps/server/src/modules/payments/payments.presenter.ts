import { Order, PlanId } from '@tonearm/contract';
import type { OrderRow } from '../../db/schema.js';

const Provider = Order.shape.provider;

/** The Order JSON of the contract. Rows are only ever written by this module, so their values parse. */
export function toOrderJson(row: OrderRow): Order {
  return {
    id: row.id,
    plan: PlanId.parse(row.plan),
    amountCents: row.amount_cents,
    currency: row.currency,
    provider: Provider.parse(row.provider),
    status: row.status,
    createdAt: row.created_at,
    paidAt: row.paid_at,
  };
}
