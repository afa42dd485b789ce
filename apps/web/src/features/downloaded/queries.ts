import { queryOptions } from '@tanstack/react-query';
import { cachedAudioSizes } from '../../lib/offline-audio.js';

export const downloadKeys = {
  all: ['downloads'] as const,
  sizes: (userId: number | null, links: readonly string[]) => [...downloadKeys.all, 'sizes', userId, links] as const,
};

export const downloadQueries = {
  /** Bytes the user stored per audio URL (null: listed but not in Cache Storage, e.g. cleared by the browser). */
  sizes: (userId: number | null, links: readonly string[]) =>
    queryOptions({
      queryKey: downloadKeys.sizes(userId, links),
      queryFn: () => (userId === null ? new Map(links.map((link) => [link, null])) : cachedAudioSizes(links, userId)),
      // Local reads: no retries, and offline is no reason to wait.
      networkMode: 'always',
      retry: false,
      staleTime: 0,
    }),
};
