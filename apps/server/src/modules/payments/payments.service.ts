import {
  ErrorCodes,
  mayManageOwned,
  LimitMessages,
  PENDING_ORDER_WINDOW_HOURS,
  PaymentMessages,
  ServerMessages,
  DbId,
  type CursorQuery,
  type DemoPayRequest,
  type PaymentProviderName,
  type Plan,
  type PlanId,
} from '@tonearm/contract';
import { z } from 'zod';
import type { OrderRow, UserRow } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors.js';
import { cursorCodec, keysetPage, pageLimit } from '../../http/page-cursor.js';
import { PREMIUM_FOREVER } from '../users/users.service.js';
import { DemoPaymentProvider } from './demo.provider.js';
import { PLAN_PERIOD_DAYS } from './payment-plans.js';
import { InvalidWebhookError, type PaymentEvent, type PaymentProvider } from './payment-provider.js';
import type { PaymentsRepository } from './payments.repository.js';
import { extendPremium } from './premium.rules.js';

/** Who is paying. */
export type Buyer = Pick<UserRow, 'id' | 'email' | 'role'>;

/** Pino-compatible; the service reports suspicious webhooks without knowing about Fastify. */
export interface PaymentsLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface PaymentsServiceOptions {
  repository: PaymentsRepository;
  /** The active provider; null when PAYMENT_PROVIDER=none. */
  provider: PaymentProvider | null;
  plans: Plan[];
  log: PaymentsLog;
  /**
   * Unpaid checkouts of the last PENDING_ORDER_WINDOW_HOURS a buyer may have open (PENDING_ORDERS_PER_USER); older
   * ones no longer count, so an abandoned checkout never locks anyone out. Unlimited when absent.
   */
  maxPendingOrders?: number;
  now?: () => Date;
}

const FOREVER = new Date(PREMIUM_FOREVER);

/** [created at, id] of a page's last order. */
const orderCursors = cursorCodec('orders', z.tuple([z.string().max(40), DbId]));

/** A page of a buyer's orders. */
export interface OrderPageResult {
  rows: OrderRow[];
  nextCursor: string | null;
  total: number;
}

/**
 * A checkout while the server runs no provider (PAYMENT_PROVIDER unset or none): how this server is set up, not a
 * failure, so a 409 with the text the payment page shows, and no error in the log.
 */
const paymentsNotSetUp = () => new HttpError(409, ErrorCodes.paymentsUnavailable, PaymentMessages.paymentsNotSetUp);

/** Where the provider sends the browser back to: the payment page, told which order and how it went. */
export function returnUrls(base: string, orderId: number): { successUrl: string; cancelUrl: string } {
  const page = `${base}/dashboard/payment?order=${orderId}`;
  return { successUrl: `${page}&status=success`, cancelUrl: `${page}&status=cancelled` };
}

/**
 * Plans, orders and premium (DESIGN §4 Payments). Premium changes only here, and only after a verified payment: a demo
 * charge of a test card, or a Stripe webhook whose signature verified and whose session matches the order.
 */
export class PaymentsService {
  private readonly repository: PaymentsRepository;
  private readonly provider: PaymentProvider | null;
  private readonly plans: Plan[];
  private readonly log: PaymentsLog;
  private readonly maxPendingOrders: number;
  private readonly now: () => Date;

  constructor(options: PaymentsServiceOptions) {
    this.repository = options.repository;
    this.provider = options.provider;
    this.plans = options.plans;
    this.log = options.log;
    this.maxPendingOrders = options.maxPendingOrders ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? (() => new Date());
  }

  listPlans(): Plan[] {
    return this.plans;
  }

  /** Which provider takes payments here; 'none' when checkout is switched off. */
  providerName(): PaymentProviderName {
    return this.provider?.name ?? 'none';
  }

  /** Opens an order for a plan at the server's price and starts the provider's checkout. */
  async checkout(
    buyer: Buyer,
    planId: PlanId,
    returnBase: string,
  ): Promise<{ order: OrderRow; redirectUrl: string | null }> {
    const provider = this.provider;
    if (provider === null) {
      this.log.info({ userId: buyer.id }, 'checkout refused: payments are not set up (PAYMENT_PROVIDER=none)');
      throw paymentsNotSetUp();
    }
    const plan = this.plans.find((p) => p.id === planId);
    if (plan === undefined) throw badRequest('Unknown plan', 'plan');
    const now = this.now();
    const order = await this.repository.createOrder(
      {
        userId: buyer.id,
        plan: plan.id,
        amountCents: plan.amountCents,
        currency: plan.currency,
        provider: provider.name,
        createdAt: now.toISOString(),
      },
      Number.isFinite(this.maxPendingOrders)
        ? {
            maxPending: this.maxPendingOrders,
            sinceIso: new Date(now.getTime() - PENDING_ORDER_WINDOW_HOURS * 3_600_000).toISOString(),
          }
        : undefined,
    );
    if (order === null) {
      throw new HttpError(409, ErrorCodes.limitReached, LimitMessages.pendingOrdersPerUser(this.maxPendingOrders));
    }
    let start;
    try {
      start = await provider.createCheckout({
        orderId: order.id,
        userId: buyer.id,
        customerEmail: buyer.email,
        plan,
        ...returnUrls(returnBase, order.id),
      });
    } catch (error) {
      this.log.error({ err: error, orderId: order.id }, 'payment provider refused the checkout');
      await this.repository.markFailed(order.id);
      throw new HttpError(502, ErrorCodes.paymentsUnavailable, PaymentMessages.providerUnavailable);
    }
    const stored =
      start.providerRef === null ? order : await this.repository.setProviderRef(order.id, start.providerRef);
    return { order: stored ?? order, redirectUrl: start.redirectUrl };
  }

  /**
   * Pays a pending demo order with a test card. Only the order's buyer may pay it; to anyone else it does not exist.
   * A declined card marks the order failed and changes nothing else.
   */
  async payDemo(buyer: Buyer, orderId: number, card: DemoPayRequest): Promise<{ order: OrderRow; user: UserRow }> {
    const demo = this.provider instanceof DemoPaymentProvider ? this.provider : null;
    if (demo === null) throw notFound(ServerMessages.notFound);
    const order = await this.repository.findOrder(orderId);
    if (order?.user_id !== buyer.id || order.provider !== demo.name) throw notFound(ServerMessages.notFound);
    if (order.status !== 'pending') throw conflict(PaymentMessages.orderNotOpen);

    const result = demo.charge(card, this.now());
    if (result.outcome === 'invalid') throw badRequest(result.message, result.field);
    if (result.outcome === 'declined') {
      await this.repository.markFailed(order.id);
      throw new HttpError(402, ErrorCodes.paymentDeclined, ServerMessages.cardDeclined);
    }
    const completed = await this.complete(order, result.providerRef);
    if (completed === undefined || completed.user === null) throw notFound(ServerMessages.notFound);
    return { order: completed.order, user: completed.user };
  }

  listOrders(buyer: Buyer): Promise<OrderRow[]> {
    return this.repository.listOrders(buyer.id);
  }

  /** The buyer's orders, newest first, a page at a time (a cursor is the buyer's own). */
  async orderPage(buyer: Buyer, query: CursorQuery): Promise<OrderPageResult> {
    const scope = [buyer.id];
    const after = orderCursors.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, total] = await Promise.all([
      this.repository.orderPage(buyer.id, after && { createdAt: after[0], id: after[1] }, limit + 1),
      this.repository.countOrders(buyer.id),
    ]);
    const page = keysetPage(rows, limit, (row) => orderCursors.encode(scope, [row.created_at, row.id]));
    return { rows: page.rows, nextCursor: page.nextCursor, total };
  }

  /** One order: its buyer or an admin; to anyone else it does not exist. */
  async getOrder(actor: Buyer, orderId: number): Promise<OrderRow> {
    const order = await this.repository.findOrder(orderId);
    if (order?.user_id == null || !mayManageOwned(actor, order.user_id)) {
      throw notFound(ServerMessages.notFound);
    }
    return order;
  }

  /**
   * A provider webhook delivery. Refused (400) unless its signature verifies over the raw bytes; acknowledged once it
   * does, even when it is not for us, so the provider stops retrying. Safe to receive any number of times.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
    const provider = this.provider;
    if (provider?.parseWebhook === undefined) throw notFound(ServerMessages.notFound);
    let event: PaymentEvent;
    try {
      event = provider.parseWebhook(rawBody, signature);
    } catch (error) {
      if (error instanceof InvalidWebhookError) throw badRequest(ServerMessages.invalidSignature);
      throw error;
    }
    if (event.kind === 'ignored') return;
    const order = await this.repository.findOrder(event.orderId);
    if (order?.provider !== provider.name || order.provider_ref !== event.providerRef) {
      this.log.warn({ eventId: event.eventId, orderId: event.orderId }, 'webhook names no matching order; ignored');
      return;
    }
    if (event.kind === 'failed') {
      if (order.status === 'pending') await this.repository.markFailed(order.id);
      return;
    }
    if (
      order.user_id !== event.userId ||
      order.amount_cents !== event.amountCents ||
      order.currency !== event.currency
    ) {
      this.log.warn(
        { eventId: event.eventId, orderId: order.id, amountCents: event.amountCents, currency: event.currency },
        'webhook payment does not match the order; premium not granted',
      );
      return;
    }
    await this.complete(order);
  }

  private complete(order: OrderRow, providerRef?: string) {
    const periodDays = PLAN_PERIOD_DAYS[order.plan as PlanId];
    const now = this.now();
    return this.repository.completeOrder(order.id, now.toISOString(), providerRef, (currentUntil) =>
      extendPremium(currentUntil === null ? null : new Date(currentUntil), now, periodDays, FOREVER).toISOString(),
    );
  }
}
