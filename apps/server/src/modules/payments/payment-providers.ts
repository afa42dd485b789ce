import type Stripe from 'stripe';
import { DemoPaymentProvider } from './demo.provider.js';
import type { PaymentProvider } from './payment-provider.js';
import { StripePaymentProvider } from './stripe.provider.js';

export interface PaymentProviderSettings {
  paymentProvider: 'demo' | 'stripe' | 'none';
  stripe: { secretKey: string | null; webhookSecret: string | null; apiUrl?: string };
}

/** Client options that send the Stripe API calls to `apiUrl` (stripe-mock, or a local fake in tests). */
export function stripeClientFor(apiUrl: string): Stripe.StripeConfig {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port), protocol };
}

/** The active provider from configuration; null when payments are switched off (PAYMENT_PROVIDER=none). */
export function createPaymentProvider(settings: PaymentProviderSettings): PaymentProvider | null {
  switch (settings.paymentProvider) {
    case 'demo':
      return new DemoPaymentProvider();
    case 'stripe': {
      const { secretKey, webhookSecret, apiUrl } = settings.stripe;
      // config.ts already refuses to start without them; this keeps the invariant local.
      if (secretKey === null || webhookSecret === null) {
        throw new Error('Stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
      }
      return new StripePaymentProvider({
        secretKey,
        webhookSecret,
        ...(apiUrl === undefined ? {} : { client: stripeClientFor(apiUrl) }),
      });
    }
    case 'none':
      return null;
  }
}
