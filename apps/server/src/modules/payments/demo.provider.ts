import { randomUUID } from 'node:crypto';
import { DemoCards, PaymentMessages, type DemoPayRequest } from '@tonearm/contract';
import type { CheckoutStart, PaymentProvider } from './payment-provider.js';

export type DemoChargeResult =
  | { outcome: 'succeeded'; providerRef: string }
  | { outcome: 'declined' }
  | { outcome: 'invalid'; field: 'cardNumber' | 'expiry'; message: string };

/** Whether a MM/YY expiry is still valid in the month of `now` (a card is valid through the end of its month). */
export function isExpired(expiry: string, now: Date): boolean {
  const [month, year] = expiry.split('/').map(Number);
  if (month === undefined || year === undefined) return true;
  const fullYear = 2000 + year;
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return fullYear < currentYear || (fullYear === currentYear && month < currentMonth);
}

/**
 * The built-in demo provider: an in-app test checkout that never moves money. It accepts only the documented test
 * cards (DemoCards), so a real card number typed by mistake is refused rather than "charged".
 */
export class DemoPaymentProvider implements PaymentProvider {
  readonly name = 'demo' as const;

  createCheckout(): Promise<CheckoutStart> {
    return Promise.resolve({ providerRef: null, redirectUrl: null });
  }

  charge(card: DemoPayRequest, now: Date): DemoChargeResult {
    if (isExpired(card.expiry, now))
      return { outcome: 'invalid', field: 'expiry', message: PaymentMessages.cardExpired };
    if (card.cardNumber === DemoCards.declined) return { outcome: 'declined' };
    if (card.cardNumber === DemoCards.success) return { outcome: 'succeeded', providerRef: `demo_${randomUUID()}` };
    return { outcome: 'invalid', field: 'cardNumber', message: PaymentMessages.demoUnknownCard };
  }
}
