import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { CheckoutInput, CheckoutStart, PaymentEvent, PaymentProvider } from './payment-provider.js';
import { InvalidWebhookError } from './payment-provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Client options; tests point host/port/protocol at a local server. */
  client?: Stripe.StripeConfig;
}

function positiveInt(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Maps a verified Stripe event to what Tonearm acts on; sessions Tonearm did not create are ignored. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const ignored: PaymentEvent = { kind: 'ignored', eventId: event.id, eventType: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A completed session with a delayed method (bank debit) is still unpaid; its async_payment_succeeded follows.
      if (session.payment_status !== 'paid') return ignored;
      const orderId = positiveInt(session.client_reference_id ?? session.metadata?.orderId);
      const userId = positiveInt(session.metadata?.userId);
      if (orderId === null || userId === null || session.amount_total === null || session.currency === null) {
        return ignored;
      }
      return {
        kind: 'paid',
        eventId: event.id,
        orderId,
        userId,
        providerRef: session.id,
        amountCents: session.amount_total,
        currency: session.currency.toUpperCase(),
      };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const orderId = positiveInt(session.client_reference_id ?? session.metadata?.orderId);
      return orderId === null ? ignored : { kind: 'failed', eventId: event.id, orderId, providerRef: session.id };
    }
    default:
      return ignored;
  }
}

/**
 * The Stripe SDK (about 8 MB resident once loaded) is required when a Stripe provider is made, so a server with
 * payments off or on the demo provider never loads it. Synchronous on purpose: providers are built synchronously.
 */
function loadStripe(): typeof Stripe {
  return createRequire(import.meta.url)('stripe') as typeof Stripe;
}

/** Stripe Checkout: the browser pays on Stripe's page; the webhook is what grants premium. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(options: StripeProviderOptions) {
    const StripeClient = loadStripe();
    this.stripe = new StripeClient(options.secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...options.client });
    this.webhookSecret = options.webhookSecret;
  }

  async createCheckout(input: CheckoutInput): Promise<CheckoutStart> {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.plan.currency.toLowerCase(),
              unit_amount: input.plan.amountCents,
              product_data: { name: `Tonearm ${input.plan.name}` },
            },
          },
        ],
        client_reference_id: String(input.orderId),
        metadata: { orderId: String(input.orderId), userId: String(input.userId) },
        customer_email: input.customerEmail,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      // Retries of this request must not open a second session for the same order.
      { idempotencyKey: `tonearm-order-${input.orderId}` },
    );
    return { providerRef: session.id, redirectUrl: session.url };
  }

  parseWebhook = (rawBody: Buffer, signature: string | undefined): PaymentEvent => {
    if (signature === undefined || signature === '') throw new InvalidWebhookError('missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch (error) {
      throw new InvalidWebhookError(error instanceof Error ? error.message : 'signature does not verify');
    }
    return toPaymentEvent(event);
  };
}
