import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  DemoCards,
  ErrorCodes,
  PaymentMessages,
  ServerMessages,
  type CheckoutResponse,
  type DemoPayResponse,
  type Order,
  type Plan,
  type User,
} from '@tonearm/contract';
import { pino } from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, type AppSuiteOptions } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf, type TestApp } from '../../../test/harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** pino's numeric levels. */
const INFO = 30;
const WARN = 40;

interface LogEntry {
  level: number;
  msg?: string;
}

/** A logger at info level whose lines land, parsed, in `into`. */
function collectingLogger(into: LogEntry[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      into.push(JSON.parse(chunk.toString('utf8')) as LogEntry);
      done();
    },
  });
  return pino({ level: 'info' }, sink);
}
const goodCard = { cardNumber: '4242 4242 4242 4242', expiry: '12/99', cvc: '123' };

async function premiumUntilOf(t: TestApp, userId: number): Promise<string | null> {
  const row = await t.db.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.premium_until;
}

async function orderRow(t: TestApp, orderId: number) {
  return t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

function checkout(t: TestApp, user: TestUser | undefined, payload: Record<string, unknown>) {
  return t.as(user).post('/api/payment/checkout', payload);
}

async function openOrder(t: TestApp, user: TestUser, plan: 'monthly' | 'yearly'): Promise<CheckoutResponse> {
  const response = await checkout(t, user, { plan });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CheckoutResponse>();
}

function pay(t: TestApp, user: TestUser | undefined, orderId: number, card: Record<string, string> = goodCard) {
  return t.as(user).post(`/api/payment/demo/${orderId}/pay`, card);
}

const demo: AppSuiteOptions = {
  env: { PAYMENT_PROVIDER: 'demo', PRICE_MONTHLY_CENTS: '399', PRICE_YEARLY_CENTS: '3900', CURRENCY: 'usd' },
};

describeEachDialect('payments with the demo provider (%s)', demo, (t) => {
  let admin: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin(t);
  });

  it('lists the server-side plans to anyone, with the configured prices and currency', async () => {
    const response = await t.as(null).get('/api/payment/plans');
    expect(response.statusCode).toBe(200);
    expect(response.json<Plan[]>()).toEqual([
      { id: 'monthly', name: 'Premium monthly', amountCents: 399, currency: 'USD', periodDays: 30 },
      { id: 'yearly', name: 'Premium yearly', amountCents: 3900, currency: 'USD', periodDays: 365 },
    ]);
  });

  it('tells anyone, signed in or not, that the demo provider is on', async () => {
    const response = await t.as(null).get('/api/payment/provider');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ provider: 'demo' });
  });

  it('answers 401 without a session on every order route', async () => {
    expect((await checkout(t, undefined, { plan: 'monthly' })).statusCode).toBe(401);
    expect((await pay(t, undefined, 1)).statusCode).toBe(401);
    expect((await t.as(null).get('/api/payment/orders')).statusCode).toBe(401);
    expect((await t.as(null).get('/api/payment/orders/1')).statusCode).toBe(401);
  });

  it('opens a pending demo order at the server price, ignoring a tampered amount, with no redirect', async () => {
    const user = await makeUser(t);
    const response = await checkout(t, user, { plan: 'yearly', amountCents: 1, currency: 'XXX', periodDays: 9999 });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<CheckoutResponse>();
    expect(body.redirectUrl).toBeNull();
    expect(body.order).toMatchObject({
      plan: 'yearly',
      amountCents: 3900,
      currency: 'USD',
      provider: 'demo',
      status: 'pending',
      paidAt: null,
    });
    expect(await orderRow(t, body.order.id)).toMatchObject({ user_id: user.id, amount_cents: 3900, currency: 'USD' });
  });

  it('refuses an unknown plan with 400 and opens no order', async () => {
    const user = await makeUser(t);
    for (const plan of ['lifetime', '', 12]) {
      const response = await checkout(t, user, { plan });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body).field).toBe('plan');
    }
    const orders = await t.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(orders).toEqual([]);
  });

  it('a paid demo order extends premium by the plan period from now, once', async () => {
    const user = await makeUser(t);
    const { order } = await openOrder(t, user, 'monthly');
    const before = Date.now();
    const response = await pay(t, user, order.id);
    const after = Date.now();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<DemoPayResponse>();
    expect(body.order).toMatchObject({ id: order.id, status: 'paid' });
    expect(body.order.paidAt).not.toBeNull();
    expect(body.user).toMatchObject({ id: user.id, premium: true });
    const until = Date.parse(body.user.premiumUntil ?? '');
    expect(until).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(until).toBeLessThanOrEqual(after + 30 * DAY_MS);
    expect(await premiumUntilOf(t, user.id)).toBe(body.user.premiumUntil);

    // Paying the same order again is refused and changes nothing.
    const again = await pay(t, user, order.id);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again.body).message).toBe(PaymentMessages.orderNotOpen);
    expect(await premiumUntilOf(t, user.id)).toBe(body.user.premiumUntil);

    const me = await t.as(user).get('/api/auth/me');
    expect(me.json<User>().premium).toBe(true);
  });

  it('counts a renewal from the current premiumUntil while premium is still running', async () => {
    const user = await makeUser(t);
    const current = new Date(Date.now() + 10 * DAY_MS).toISOString();
    await t.db.updateTable('users').set({ premium_until: current }).where('id', '=', user.id).execute();
    const { order } = await openOrder(t, user, 'yearly');
    const response = await pay(t, user, order.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<DemoPayResponse>().user.premiumUntil).toBe(
      new Date(Date.parse(current) + 365 * DAY_MS).toISOString(),
    );
  });

  it('counts from now when premium has lapsed', async () => {
    const user = await makeUser(t);
    await t.db
      .updateTable('users')
      .set({ premium_until: new Date(Date.now() - 5 * DAY_MS).toISOString() })
      .where('id', '=', user.id)
      .execute();
    const { order } = await openOrder(t, user, 'monthly');
    const before = Date.now();
    const response = await pay(t, user, order.id);
    const until = Date.parse(response.json<DemoPayResponse>().user.premiumUntil ?? '');
    expect(until).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(until).toBeLessThan(before + 31 * DAY_MS);
  });

  it('a declined card answers 402, marks the order failed and changes nothing else', async () => {
    const user = await makeUser(t);
    const { order } = await openOrder(t, user, 'monthly');
    const response = await pay(t, user, order.id, { ...goodCard, cardNumber: DemoCards.declined });
    expect(response.statusCode).toBe(402);
    expect(errorOf(response.body)).toMatchObject({
      code: ErrorCodes.paymentDeclined,
      message: ServerMessages.cardDeclined,
    });
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'failed', paid_at: null });
    expect(await premiumUntilOf(t, user.id)).toBeNull();
    // A failed order stays failed; a new checkout is the way to try again.
    expect((await pay(t, user, order.id)).statusCode).toBe(409);
    expect(await premiumUntilOf(t, user.id)).toBeNull();
  });

  it('refuses card numbers other than the test cards, expired cards and malformed input with 400', async () => {
    const user = await makeUser(t);
    const { order } = await openOrder(t, user, 'monthly');
    const cases: [Record<string, string>, string, string | undefined][] = [
      [{ ...goodCard, cardNumber: '5555555555554444' }, 'cardNumber', PaymentMessages.demoUnknownCard],
      [{ ...goodCard, expiry: '01/20' }, 'expiry', PaymentMessages.cardExpired],
      [{ ...goodCard, cardNumber: '4242' }, 'cardNumber', undefined],
      [{ ...goodCard, expiry: '13/30' }, 'expiry', undefined],
      [{ ...goodCard, cvc: '12' }, 'cvc', undefined],
    ];
    for (const [card, field, message] of cases) {
      const response = await pay(t, user, order.id, card);
      expect(response.statusCode, JSON.stringify(card)).toBe(400);
      expect(errorOf(response.body).field).toBe(field);
      if (message !== undefined) expect(errorOf(response.body).message).toBe(message);
    }
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'pending' });
    expect(await premiumUntilOf(t, user.id)).toBeNull();
  });

  it('IDOR: another user or an admin cannot pay, read or see a user’s order (404), and nothing changes', async () => {
    const buyer = await makeUser(t);
    const stranger = await makeUser(t);
    const { order } = await openOrder(t, buyer, 'monthly');
    for (const user of [stranger, admin]) {
      const attempt = await pay(t, user, order.id);
      expect(attempt.statusCode).toBe(404);
      expect(errorOf(attempt.body).message).toBe(ServerMessages.notFound);
    }
    expect((await pay(t, buyer, 987_654)).statusCode).toBe(404);
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'pending', paid_at: null });
    expect(await premiumUntilOf(t, stranger.id)).toBeNull();
    expect(await premiumUntilOf(t, buyer.id)).toBeNull();

    const read = await t.as(stranger).get(`/api/payment/orders/${order.id}`);
    expect(read.statusCode).toBe(404);
    const byAdmin = await t.as(admin).get(`/api/payment/orders/${order.id}`);
    expect(byAdmin.statusCode).toBe(200);
    const own = await t.as(buyer).get(`/api/payment/orders/${order.id}`);
    expect(own.json<Order>()).toMatchObject({ id: order.id, status: 'pending' });

    const strangersList = await t.as(stranger).get('/api/payment/orders');
    expect(strangersList.json<Order[]>()).toEqual([]);
    const buyersList = await t.as(buyer).get('/api/payment/orders');
    expect(buyersList.json<Order[]>().map((o) => o.id)).toEqual([order.id]);
  });

  it('has no webhook for the demo provider', async () => {
    const response = await t.as(null).post('/api/payment/webhook', { type: 'x' });
    expect(response.statusCode).toBe(404);
  });

  describe('premium is granted only by a payment or an admin', () => {
    it('a user cannot make themself premium', async () => {
      const user = await makeUser(t);
      for (const payload of [{ premium: true }, { premiumUntil: '2099-01-01T00:00:00.000Z' }, { role: 'ADMIN' }]) {
        const response = await t.as(user).put(`/api/users/${user.id}`, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(403);
        expect(errorOf(response.body).message).toBe(ServerMessages.onlyAdminChangesRole);
      }
      const row = await t.db
        .selectFrom('users')
        .select(['premium_until', 'role'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ premium_until: null, role: 'USER' });
    });

    it('an admin grants and revokes premium', async () => {
      const user = await makeUser(t);
      const grant = await t.as(admin).put(`/api/users/${user.id}`, { premium: true });
      expect(grant.statusCode, grant.body).toBe(200);
      expect(grant.json<User>().premium).toBe(true);
      const revoke = await t.as(admin).put(`/api/users/${user.id}`, { premium: false });
      expect(revoke.json<User>()).toMatchObject({ premium: false, premiumUntil: null });
    });
  });
});

describeEachDialect('payments switched off or in production (%s)', { uses: 'nothing' }, (suite) => {
  it('PAYMENT_PROVIDER=none: plans are listed, checkout answers 409 "not set up", logged at info without a stack', async () => {
    const logged: LogEntry[] = [];
    await suite.withApp({ env: { PAYMENT_PROVIDER: 'none' }, logger: collectingLogger(logged) }, async (t) => {
      const user = await makeUser(t);
      expect((await t.as(null).get('/api/payment/plans')).statusCode).toBe(200);
      const provider = await t.as(null).get('/api/payment/provider');
      expect(provider.json()).toEqual({ provider: 'none' });
      const response = await checkout(t, user, { plan: 'monthly' });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response.body)).toEqual({
        code: ErrorCodes.paymentsUnavailable,
        message: PaymentMessages.paymentsNotSetUp,
      });
      expect(PaymentMessages.paymentsNotSetUp).toMatch(/^Payments are not set up on this server\./);
      expect(await t.db.selectFrom('orders').select('id').execute()).toEqual([]);
    });
    expect(logged.filter((entry) => entry.level >= WARN)).toEqual([]);
    const refused = logged.filter((entry) => entry.msg?.includes('payments are not set up') === true);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.level).toBe(INFO);
    expect(JSON.stringify(refused)).not.toMatch(/"(err|stack)"/);
  });

  it('has no demo checkout unless PAYMENT_PROVIDER=demo says so, in development as in production', async () => {
    for (const nodeEnv of ['development', 'production']) {
      await suite.withApp({ env: { NODE_ENV: nodeEnv } }, async (unset) => {
        const user = await makeUser(unset);
        expect((await checkout(unset, user, { plan: 'monthly' })).statusCode).toBe(409);
        const provider = await unset.as(null).get('/api/payment/provider');
        expect(provider.json()).toEqual({ provider: 'none' });
      });
    }
    await suite.withApp({ env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'demo' } }, async (explicit) => {
      const user = await makeUser(explicit);
      const { order } = await openOrder(explicit, user, 'monthly');
      expect((await pay(explicit, user, order.id)).statusCode).toBe(200);
    });
  });
});

interface FakeStripe {
  server: Server;
  url: string;
  sessions: URLSearchParams[];
  failNext: boolean;
}

async function startFakeStripe(): Promise<FakeStripe> {
  const fake: FakeStripe = { server: createServer(), url: '', sessions: [], failNext: false };
  fake.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions' || fake.failNext) {
        fake.failNext = false;
        // Not retryable (a 5xx would be retried by the client with the same idempotency key).
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'authentication_error', message: 'Invalid API Key provided' } }));
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      fake.sessions.push(form);
      const id = `cs_test_${fake.sessions.length}_${form.get('client_reference_id') ?? ''}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/pay/${id}` }));
    });
  });
  fake.server.listen(0, '127.0.0.1');
  await once(fake.server, 'listening');
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

const WEBHOOK_SECRET = 'whsec_tonearm_test';

let fake: FakeStripe;

/** The app talks to a fake Stripe API, started first (its URL is the app's STRIPE_API_URL). */
const stripe: AppSuiteOptions = {
  prepare: async () => {
    fake = await startFakeStripe();
    return {
      env: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_tonearm',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: fake.url,
        PUBLIC_URL: 'https://music.example.org',
      },
    };
  },
};

describeEachDialect('payments with Stripe (%s)', stripe, (t) => {
  afterAll(async () => {
    fake.server.close();
    await once(fake.server, 'close');
  });

  function sessionEvent(eventId: string, type: string, session: Record<string, unknown>): string {
    return JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      data: { object: { object: 'checkout.session', ...session } },
    });
  }

  function deliver(payload: string, signature?: string) {
    return t.as(null).post('/api/payment/webhook', payload, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
  }

  async function stripeCheckout(user: TestUser, plan: 'monthly' | 'yearly') {
    const body = await openOrder(t, user, plan);
    const order = await orderRow(t, body.order.id);
    return {
      body,
      order,
      completed: (overrides: Record<string, unknown> = {}) => ({
        id: order.provider_ref,
        client_reference_id: String(order.id),
        metadata: { orderId: String(order.id), userId: String(user.id) },
        amount_total: order.amount_cents,
        currency: order.currency.toLowerCase(),
        payment_status: 'paid',
        ...overrides,
      }),
    };
  }

  it('tells the web app that Stripe takes the payments', async () => {
    const response = await t.as(null).get('/api/payment/provider');
    expect(response.json()).toEqual({ provider: 'stripe' });
  });

  it('opens a Checkout Session at the server price and answers its URL', async () => {
    const user = await makeUser(t);
    const { body, order } = await stripeCheckout(user, 'yearly');
    expect(body.order).toMatchObject({ provider: 'stripe', status: 'pending', amountCents: 4990, currency: 'EUR' });
    expect(body.redirectUrl).toBe(`https://checkout.stripe.test/pay/${order.provider_ref ?? ''}`);
    const sent = fake.sessions.at(-1);
    expect(sent?.get('line_items[0][price_data][unit_amount]')).toBe('4990');
    expect(sent?.get('client_reference_id')).toBe(String(order.id));
    expect(sent?.get('metadata[userId]')).toBe(String(user.id));
    expect(sent?.get('success_url')).toBe(
      `https://music.example.org/dashboard/payment?order=${order.id}&status=success`,
    );
  });

  it('marks the order failed and answers 502 when Stripe refuses the checkout', async () => {
    const user = await makeUser(t);
    fake.failNext = true;
    const response = await checkout(t, user, { plan: 'monthly' });
    expect(response.statusCode).toBe(502);
    expect(errorOf(response.body).message).toBe(PaymentMessages.providerUnavailable);
    const orders = await t.db.selectFrom('orders').select('status').where('user_id', '=', user.id).execute();
    expect(orders).toEqual([{ status: 'failed' }]);
  });

  it('a verified checkout.session.completed grants premium once, even when delivered twice', async () => {
    const user = await makeUser(t);
    const { order, completed } = await stripeCheckout(user, 'monthly');
    expect(await premiumUntilOf(t, user.id)).toBeNull();
    const payload = sessionEvent('evt_paid_1', 'checkout.session.completed', completed());
    const before = Date.now();
    const first = await deliver(payload);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });
    const until = await premiumUntilOf(t, user.id);
    expect(Date.parse(until ?? '')).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'paid' });

    const second = await deliver(payload);
    expect(second.statusCode).toBe(200);
    // The same payment under another event id (e.g. async_payment_succeeded after completed) counts once too.
    const third = await deliver(sessionEvent('evt_paid_2', 'checkout.session.async_payment_succeeded', completed()));
    expect(third.statusCode).toBe(200);
    expect(await premiumUntilOf(t, user.id)).toBe(until);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const user = await makeUser(t);
    const { order, completed } = await stripeCheckout(user, 'monthly');
    const payload = sessionEvent('evt_forged', 'checkout.session.completed', completed());
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const signedOther = Stripe.webhooks.generateTestHeaderString({
      payload: payload.replace('paid', 'xxxx'),
      secret: WEBHOOK_SECRET,
    });
    for (const signature of [forged, signedOther, 't=1,v1=deadbeef', '']) {
      const response = await deliver(payload, signature);
      expect(response.statusCode, signature).toBe(400);
      expect(errorOf(response.body).message).toBe(ServerMessages.invalidSignature);
    }
    const unsigned = await t.as(null).post('/api/payment/webhook', payload);
    expect(unsigned.statusCode).toBe(400);
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'pending' });
    expect(await premiumUntilOf(t, user.id)).toBeNull();
  });

  it('grants nothing for a verified event whose session, user, amount or currency does not match the order', async () => {
    const user = await makeUser(t);
    const thief = await makeUser(t);
    const { order, completed } = await stripeCheckout(user, 'yearly');
    const mismatches = [
      completed({ id: 'cs_someone_elses_session' }),
      completed({ metadata: { orderId: String(order.id), userId: String(thief.id) } }),
      completed({ amount_total: 1 }),
      completed({ currency: 'usd' }),
      completed({ payment_status: 'unpaid' }),
      completed({ client_reference_id: '987654', metadata: { orderId: '987654', userId: String(user.id) } }),
    ];
    for (const [index, session] of mismatches.entries()) {
      const response = await deliver(sessionEvent(`evt_mismatch_${index}`, 'checkout.session.completed', session));
      expect(response.statusCode).toBe(200);
    }
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'pending' });
    expect(await premiumUntilOf(t, user.id)).toBeNull();
    expect(await premiumUntilOf(t, thief.id)).toBeNull();
  });

  it('marks an expired session’s order failed without touching premium', async () => {
    const user = await makeUser(t);
    const { order, completed } = await stripeCheckout(user, 'monthly');
    const response = await deliver(
      sessionEvent('evt_expired', 'checkout.session.expired', completed({ payment_status: 'unpaid' })),
    );
    expect(response.statusCode).toBe(200);
    expect(await orderRow(t, order.id)).toMatchObject({ status: 'failed' });
    expect(await premiumUntilOf(t, user.id)).toBeNull();
  });

  it('needs no session and ignores one: the signature alone authenticates', async () => {
    const user = await makeUser(t);
    const { completed } = await stripeCheckout(user, 'monthly');
    const payload = sessionEvent('evt_cookie', 'checkout.session.completed', completed());
    const response = await t.as(user).post('/api/payment/webhook', payload, {
      headers: { 'content-type': 'application/json', 'stripe-signature': 'v1=nope' },
    });
    expect(response.statusCode).toBe(400);
    expect(await premiumUntilOf(t, user.id)).toBeNull();
  });

  it('the demo pay route does not exist under Stripe', async () => {
    const user = await makeUser(t);
    const { order } = await stripeCheckout(user, 'monthly');
    expect((await pay(t, user, order.id)).statusCode).toBe(404);
    expect(await premiumUntilOf(t, user.id)).toBeNull();
  });
});
