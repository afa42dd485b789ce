import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoCards, DemoPayRequest, PaymentMessages } from '@tonearm/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoPaymentProvider, isExpired } from './demo.provider.js';
import { buildPlans } from './payment-plans.js';
import { InvalidWebhookError } from './payment-provider.js';
import { createPaymentProvider, stripeClientFor } from './payment-providers.js';
import { StripePaymentProvider, toPaymentEvent } from './stripe.provider.js';

const now = new Date('2025-03-10T12:00:00.000Z');
const card = (cardNumber: string, expiry = '12/30') => DemoPayRequest.parse({ cardNumber, expiry, cvc: '123' });

describe('demo provider', () => {
  const demo = new DemoPaymentProvider();

  it('charges the success test card, also when typed with spaces', () => {
    const result = demo.charge(card('4242 4242 4242 4242'), now);
    expect(result.outcome).toBe('succeeded');
    if (result.outcome === 'succeeded') expect(result.providerRef).toMatch(/^demo_/);
  });

  it('declines the declined test card', () => {
    expect(demo.charge(card(DemoCards.declined), now)).toEqual({ outcome: 'declined' });
  });

  it('refuses any other card number, so a real card is never "charged" by the demo', () => {
    expect(demo.charge(card('5555555555554444'), now)).toEqual({
      outcome: 'invalid',
      field: 'cardNumber',
      message: PaymentMessages.demoUnknownCard,
    });
  });

  it('refuses an expired card before looking at the number', () => {
    expect(demo.charge(card(DemoCards.success, '02/25'), now)).toEqual({
      outcome: 'invalid',
      field: 'expiry',
      message: PaymentMessages.cardExpired,
    });
  });

  it('treats a card as valid through the end of its expiry month', () => {
    expect(isExpired('03/25', now)).toBe(false);
    expect(isExpired('02/25', now)).toBe(true);
    expect(isExpired('01/26', now)).toBe(false);
    expect(isExpired('12/24', now)).toBe(true);
  });

  it('has no redirect: the card form is in the app', async () => {
    const start = await demo.createCheckout();
    expect(start).toEqual({ providerRef: null, redirectUrl: null });
  });
});

describe('provider selection', () => {
  const stripe = { secretKey: 'sk_test_x', webhookSecret: 'whsec_x' };
  it('follows PAYMENT_PROVIDER', () => {
    expect(createPaymentProvider({ paymentProvider: 'demo', stripe })?.name).toBe('demo');
    expect(createPaymentProvider({ paymentProvider: 'stripe', stripe })?.name).toBe('stripe');
    expect(createPaymentProvider({ paymentProvider: 'none', stripe })).toBeNull();
  });
  it('points the Stripe client at STRIPE_API_URL when one is configured', () => {
    expect(stripeClientFor('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeClientFor('https://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
  });
  it('refuses stripe without its secrets', () => {
    expect(() =>
      createPaymentProvider({ paymentProvider: 'stripe', stripe: { secretKey: null, webhookSecret: 'whsec_x' } }),
    ).toThrow(/STRIPE_SECRET_KEY/);
  });
});

interface Captured {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

describe('stripe provider: Checkout Session creation (offline, against a local fake API)', () => {
  let server: Server;
  let port: number;
  const received: Captured[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_test' });
        res.end(
          JSON.stringify({
            id: 'cs_test_abc',
            object: 'checkout.session',
            url: 'https://checkout.stripe.com/c/pay/cs_test_abc',
          }),
        );
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });

  it('sends the server-side price, the order id and the return URLs, and returns the session URL', async () => {
    const provider = new StripePaymentProvider({
      secretKey: 'sk_test_local',
      webhookSecret: 'whsec_local',
      client: { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false },
    });
    const [, yearly] = buildPlans({ monthlyCents: 499, yearlyCents: 4990, currency: 'EUR' });
    if (!yearly) throw new Error('no yearly plan');
    const start = await provider.createCheckout({
      orderId: 42,
      userId: 7,
      customerEmail: 'ann@example.org',
      plan: yearly,
      successUrl: 'https://music.example.org/dashboard/payment?order=42&status=success',
      cancelUrl: 'https://music.example.org/dashboard/payment?order=42&status=cancelled',
    });

    expect(start).toEqual({ providerRef: 'cs_test_abc', redirectUrl: 'https://checkout.stripe.com/c/pay/cs_test_abc' });
    expect(received).toHaveLength(1);
    const request = received[0];
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.headers.authorization).toBe('Bearer sk_test_local');
    expect(request.headers['idempotency-key']).toBe('tonearm-order-42');
    const form = request.form;
    expect(form.get('mode')).toBe('payment');
    expect(form.get('line_items[0][quantity]')).toBe('1');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('4990');
    expect(form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(form.get('line_items[0][price_data][product_data][name]')).toBe('Tonearm Premium yearly');
    expect(form.get('client_reference_id')).toBe('42');
    expect(form.get('metadata[orderId]')).toBe('42');
    expect(form.get('metadata[userId]')).toBe('7');
    expect(form.get('customer_email')).toBe('ann@example.org');
    expect(form.get('success_url')).toBe('https://music.example.org/dashboard/payment?order=42&status=success');
    expect(form.get('cancel_url')).toBe('https://music.example.org/dashboard/payment?order=42&status=cancelled');
  });
});

const secret = 'whsec_test_secret';

function sessionEvent(type: string, session: Record<string, unknown>, id = 'evt_1'): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    data: {
      object: {
        id: 'cs_test_abc',
        object: 'checkout.session',
        client_reference_id: '42',
        metadata: { orderId: '42', userId: '7' },
        amount_total: 4990,
        currency: 'eur',
        payment_status: 'paid',
        ...session,
      },
    },
  });
}

describe('stripe provider: webhook verification', () => {
  const provider = new StripePaymentProvider({ secretKey: 'sk_test_x', webhookSecret: secret });
  const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? secret, ...options });

  it('decodes a correctly signed checkout.session.completed into a paid event', () => {
    const payload = sessionEvent('checkout.session.completed', {});
    expect(provider.parseWebhook(Buffer.from(payload), sign(payload))).toEqual({
      kind: 'paid',
      eventId: 'evt_1',
      orderId: 42,
      userId: 7,
      providerRef: 'cs_test_abc',
      amountCents: 4990,
      currency: 'EUR',
    });
  });

  it('refuses a payload changed after signing', () => {
    const payload = sessionEvent('checkout.session.completed', {});
    const header = sign(payload);
    const tampered = payload.replace('4990', '1');
    expect(() => provider.parseWebhook(Buffer.from(tampered), header)).toThrow(InvalidWebhookError);
  });

  it('refuses a signature made with another secret, a missing header and a stale timestamp', () => {
    const payload = sessionEvent('checkout.session.completed', {});
    expect(() => provider.parseWebhook(Buffer.from(payload), sign(payload, { secret: 'whsec_other' }))).toThrow(
      InvalidWebhookError,
    );
    expect(() => provider.parseWebhook(Buffer.from(payload), undefined)).toThrow(InvalidWebhookError);
    expect(() => provider.parseWebhook(Buffer.from(payload), 'garbage')).toThrow(InvalidWebhookError);
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect(() => provider.parseWebhook(Buffer.from(payload), sign(payload, { timestamp: anHourAgo }))).toThrow(
      InvalidWebhookError,
    );
  });
});

describe('stripe event mapping', () => {
  const parse = (payload: string) => toPaymentEvent(JSON.parse(payload) as Stripe.Event);

  it('waits for async_payment_succeeded when a completed session is not paid yet', () => {
    expect(parse(sessionEvent('checkout.session.completed', { payment_status: 'unpaid' }))).toEqual({
      kind: 'ignored',
      eventId: 'evt_1',
      eventType: 'checkout.session.completed',
    });
    expect(parse(sessionEvent('checkout.session.async_payment_succeeded', {})).kind).toBe('paid');
  });

  it('reports expired and failed sessions as failed', () => {
    expect(parse(sessionEvent('checkout.session.expired', { payment_status: 'unpaid' }))).toEqual({
      kind: 'failed',
      eventId: 'evt_1',
      orderId: 42,
      providerRef: 'cs_test_abc',
    });
    expect(parse(sessionEvent('checkout.session.async_payment_failed', {})).kind).toBe('failed');
  });

  it('ignores sessions Tonearm did not create and unrelated events', () => {
    expect(parse(sessionEvent('checkout.session.completed', { client_reference_id: null, metadata: {} })).kind).toBe(
      'ignored',
    );
    expect(parse(sessionEvent('customer.created', {})).kind).toBe('ignored');
  });
});
