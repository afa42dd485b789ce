import { queryOptions } from '@tanstack/react-query';
import { UiMessages } from '../../lib/ui-messages.js';
import { fetchOrders, fetchPlans, fetchProvider } from './payment.api.js';

export const paymentKeys = {
  all: ['payment'] as const,
  plans: () => [...paymentKeys.all, 'plans'] as const,
  provider: () => [...paymentKeys.all, 'provider'] as const,
  orders: () => [...paymentKeys.all, 'orders'] as const,
};

export const paymentQueries = {
  plans: () =>
    queryOptions({
      queryKey: paymentKeys.plans(),
      queryFn: ({ signal }) => fetchPlans(signal),
      staleTime: 10 * 60_000,
      meta: { errorMessage: UiMessages.failedToLoadPlans },
    }),
  /** Fails quietly: a server too old to answer is treated as one that takes payments (checkout then says otherwise). */
  provider: () =>
    queryOptions({
      queryKey: paymentKeys.provider(),
      queryFn: ({ signal }) => fetchProvider(signal),
      staleTime: 10 * 60_000,
      retry: false,
    }),
  orders: () =>
    queryOptions({
      queryKey: paymentKeys.orders(),
      queryFn: ({ signal }) => fetchOrders(signal),
      staleTime: 0,
    }),
};
