import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

export const mediaKeys = {
  all: ['media'] as const,
  capabilities: () => [...mediaKeys.all, 'capabilities'] as const,
};

export const mediaQueries = {
  /** Whether the server converts audio (ffmpeg found at its start); it changes only with a restart of the server. */
  capabilities: () =>
    queryOptions({
      queryKey: mediaKeys.capabilities(),
      queryFn: ({ signal }) => api.media.capabilities({}, { signal }),
      staleTime: 5 * 60_000,
      retry: false,
    }),
};
