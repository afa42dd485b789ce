import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { UiMessages } from '../../lib/ui-messages.js';

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
      queryFn: ({ signal }) => api.payments.plans({}, { signal }),
      staleTime: 10 * 60_000,
      meta: { errorMessage: UiMessages.failedToLoadPlans },
    }),
  /** Which provider takes payments here ('none': checkout is off). Fails quietly: a server too old to answer is treated as one that takes payments (checkout then says otherwise). */
  provider: () =>
    queryOptions({
      queryKey: paymentKeys.provider(),
      queryFn: ({ signal }) => api.payments.provider({}, { signal }),
      staleTime: 10 * 60_000,
      retry: false,
    }),
  /** The caller's orders, newest first. */
  orders: () =>
    queryOptions({
      queryKey: paymentKeys.orders(),
      queryFn: ({ signal }) => api.payments.orders({}, { signal }),
      staleTime: 0,
    }),
};
