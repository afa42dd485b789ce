import type {
  CheckoutResponse,
  DemoPayRequest,
  DemoPayResponse,
  Order,
  PaymentProviderResponse,
  Plan,
  PlanId,
} from '@tonearm/contract';
import { getJson, sendForJson } from '../../lib/api-client.js';

export function fetchPlans(signal?: AbortSignal): Promise<Plan[]> {
  return getJson<Plan[]>('/api/payment/plans', signal);
}

/** GET /api/payment/provider: which provider takes payments here ('none': checkout is off). */
export function fetchProvider(signal?: AbortSignal): Promise<PaymentProviderResponse> {
  return getJson<PaymentProviderResponse>('/api/payment/provider', signal);
}

/** Only the plan id is sent: prices live on the server. */
export function checkout(plan: PlanId): Promise<CheckoutResponse> {
  return sendForJson<CheckoutResponse>('/api/payment/checkout', 'POST', { plan });
}

/** The built-in demo provider's in-app card step; answers the paid order and the upgraded user. */
export function payDemoOrder(orderId: number, card: DemoPayRequest): Promise<DemoPayResponse> {
  return sendForJson<DemoPayResponse>(`/api/payment/demo/${orderId}/pay`, 'POST', card);
}

/** The caller's orders, newest first. */
export function fetchOrders(signal?: AbortSignal): Promise<Order[]> {
  return getJson<Order[]>('/api/payment/orders', signal);
}
