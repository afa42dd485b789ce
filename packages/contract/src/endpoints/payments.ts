import { endpoint } from './define.js';

/** Premium (DESIGN §4 Payments): plans and the provider are public; orders belong to the signed-in buyer. */
export const payments = {
  plans: endpoint({ method: 'GET', path: '/api/payment/plans', access: 'public', responses: { 200: 'PlansResponse' } }),
  provider: endpoint({
    method: 'GET',
    path: '/api/payment/provider',
    access: 'public',
    responses: { 200: 'PaymentProviderResponse' },
  }),
  checkout: endpoint({
    method: 'POST',
    path: '/api/payment/checkout',
    access: 'session',
    body: 'CheckoutRequest',
    responses: { 200: 'CheckoutResponse' },
  }),
  payDemo: endpoint({
    method: 'POST',
    path: '/api/payment/demo/:id/pay',
    access: 'owner',
    params: 'IdParam',
    body: 'DemoPayRequest',
    responses: { 200: 'DemoPayResponse' },
  }),
  orders: endpoint({
    method: 'GET',
    path: '/api/payment/orders',
    access: 'session',
    responses: { 200: 'OrdersResponse' },
  }),
  orderPage: endpoint({
    method: 'GET',
    path: '/api/payment/orders/page',
    access: 'session',
    query: 'OrderPageQuery',
    responses: { 200: 'OrderPage' },
  }),
  order: endpoint({
    method: 'GET',
    path: '/api/payment/orders/:id',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: 'Order' },
  }),
  /** No session: the provider calls it, authenticated by its signature over the raw body alone. */
  webhook: endpoint({
    method: 'POST',
    path: '/api/payment/webhook',
    access: 'public',
    responses: { 200: 'WebhookAck' },
  }),
} as const;
