import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api-client.js';

export interface AppQueryMeta extends Record<string, unknown> {
  /**
   * Red alert raised when the query finally fails (after its retries); a function answering null raises none (a
   * page that shows the failure itself, such as a playlist that is not there).
   */
  errorMessage?: string | ((error: Error) => string | null);
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
  }
}

/** Client errors (4xx) will not change on a retry; server and network errors get one more try by default. */
function defaultRetry(failureCount: number, error: Error): boolean {
  if (isApiError(error) && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(onQueryError: (message: string) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        const message = query.meta?.errorMessage;
        const text = typeof message === 'function' ? message(error) : message;
        if (text === undefined || text === null) return;
        onQueryError(text);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: defaultRetry,
      },
    },
  });
}
