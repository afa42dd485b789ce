import { queryOptions } from '@tanstack/react-query';
import { UiMessages } from '../../lib/ui-messages.js';
import { fetchOrders, fetchPlans } from './payment.api.js';

export const paymentKeys = {
  all: ['payment'] as const,
  plans: () => [...paymentKeys.all, 'plans'] as const,
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
  orders: () =>
    queryOptions({
      queryKey: paymentKeys.orders(),
      queryFn: ({ signal }) => fetchOrders(signal),
      staleTime: 0,
    }),
};
