import { z } from 'zod';
import { CursorQuery, pageOf } from './common.js';
import { User } from './users.js';

export const PlanId = z.enum(['monthly', 'yearly']);
export type PlanId = z.infer<typeof PlanId>;

export const Plan = z.object({
  id: PlanId,
  name: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  periodDays: z.number().int(),
});
export type Plan = z.infer<typeof Plan>;

export const OrderStatus = z.enum(['pending', 'paid', 'failed']);
export const Order = z.object({
  id: z.number().int(),
  plan: PlanId,
  amountCents: z.number().int(),
  currency: z.string(),
  provider: z.enum(['demo', 'stripe']),
  status: OrderStatus,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Order = z.infer<typeof Order>;

/** Only the plan id is taken from the client; any amount sent along is ignored. */
export const CheckoutRequest = z.object({ plan: PlanId });
export const CheckoutResponse = z.object({ order: Order, redirectUrl: z.string().nullable() });
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;

/** Demo provider test cards (documented in docs/payments.md). */
export const DemoCards = { success: '4242424242424242', declined: '4000000000000002' } as const;

export const DemoPayRequest = z.object({
  cardNumber: z
    .string()
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, 'Enter a valid card number')),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Expiry must be MM/YY'),
  cvc: z.string().regex(/^\d{3,4}$/, 'CVC must be 3 or 4 digits'),
});
export type DemoPayRequest = z.infer<typeof DemoPayRequest>;
export const DemoPayResponse = z.object({ order: Order, user: User });
export type DemoPayResponse = z.infer<typeof DemoPayResponse>;

/** Which payment provider this server runs; `none` means checkout is off and only an administrator grants premium. */
export const PaymentProviderName = z.enum(['demo', 'stripe', 'none']);
export type PaymentProviderName = z.infer<typeof PaymentProviderName>;
/** Answer of GET /api/payment/provider (public). */
export const PaymentProviderResponse = z.object({ provider: PaymentProviderName });
export type PaymentProviderResponse = z.infer<typeof PaymentProviderResponse>;

/** Answer of GET /api/payment/plans (server-side prices). */
export const PlansResponse = z.array(Plan);
export const OrdersResponse = z.array(Order);

/** GET /api/payment/orders/page: the caller's orders, newest first, a page at a time. */
export const OrderPageQuery = CursorQuery;
export const OrderPage = pageOf(Order);
export type OrderPage = z.infer<typeof OrderPage>;

/** Server texts of the payment endpoints besides those in ServerMessages. */
export const PaymentMessages = {
  paymentsDisabled: 'Payments are not enabled on this server',
  providerUnavailable: 'The payment provider could not be reached. Please try again later.',
  orderNotOpen: 'This order is no longer open for payment. Start a new checkout.',
  demoUnknownCard: `This is a demo checkout: use the test card ${DemoCards.success} (or ${DemoCards.declined} to see a decline)`,
  cardExpired: 'This card has expired',
  /** The payment page when the server runs no provider (PAYMENT_PROVIDER unset or none). */
  paymentsNotSetUp: 'Payments are not set up on this server. Ask an administrator of this server to grant you Premium.',
} as const;

/** Answer of POST /api/payment/webhook once the delivery verified. */
export const WebhookAck = z.object({ received: z.literal(true) });
