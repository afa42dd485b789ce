import type { Plan } from '@tonearm/contract';

export type ProviderName = 'demo' | 'stripe';

/** What a provider needs to start collecting the money for one order. */
export interface CheckoutInput {
  orderId: number;
  userId: number;
  customerEmail: string;
  /** The server-side plan; the amount charged is plan.amountCents, never a client value. */
  plan: Plan;
  /** Where the provider sends the browser back to (absolute URLs). */
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutStart {
  /** The provider's handle for this checkout (e.g. a Stripe Checkout Session id); null when there is none. */
  providerRef: string | null;
  /** Where the browser goes to pay; null when the payment form is in the app (demo). */
  redirectUrl: string | null;
}

/** A verified notification from a provider, reduced to what Tonearm acts on. */
export type PaymentEvent =
  | {
      kind: 'paid';
      eventId: string;
      orderId: number;
      userId: number;
      providerRef: string;
      amountCents: number;
      currency: string;
    }
  | { kind: 'failed'; eventId: string; orderId: number; providerRef: string }
  | { kind: 'ignored'; eventId: string; eventType: string };

/** A webhook whose signature does not verify (or that cannot be read); answered 400 and acted on in no way. */
export class InvalidWebhookError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidWebhookError';
  }
}

/** One payment provider (DESIGN §4 Payments). Exactly one is active, chosen by PAYMENT_PROVIDER. */
export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(input: CheckoutInput): Promise<CheckoutStart>;
  /**
   * Verifies the signature of a webhook delivery over its exact raw bytes and decodes it. Throws InvalidWebhookError
   * when it does not verify. Absent for providers without webhooks.
   */
  parseWebhook?: (rawBody: Buffer, signature: string | undefined) => PaymentEvent;
}
