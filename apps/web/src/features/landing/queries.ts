import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

export const authKeys = {
  all: ['auth'] as const,
  options: () => [...authKeys.all, 'options'] as const,
};

export const authQueries = {
  /**
   * Whether sign-up is open here, and whether an account made from this browser would administer the server.
   * Public; a failure leaves the sign-up form as it always was (the server still has the last word).
   */
  options: () =>
    queryOptions({
      queryKey: authKeys.options(),
      queryFn: ({ signal }) => api.auth.options({}, { signal }),
      staleTime: 60_000,
      retry: false,
    }),
};
