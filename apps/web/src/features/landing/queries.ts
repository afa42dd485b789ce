import { queryOptions } from '@tanstack/react-query';
import { fetchAuthOptions } from '../../shell/auth/auth.api.js';

export const authKeys = {
  all: ['auth'] as const,
  options: () => [...authKeys.all, 'options'] as const,
};

export const authQueries = {
  /** Public; a failure leaves the sign-up form as it always was (the server still has the last word). */
  options: () =>
    queryOptions({
      queryKey: authKeys.options(),
      queryFn: ({ signal }) => fetchAuthOptions(signal),
      staleTime: 60_000,
      retry: false,
    }),
};
