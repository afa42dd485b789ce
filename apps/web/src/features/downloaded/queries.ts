import { queryOptions } from '@tanstack/react-query';
import { cachedAudioSize } from '../../lib/offline-audio.js';

export const downloadKeys = {
  all: ['downloads'] as const,
  sizes: (links: readonly string[]) => [...downloadKeys.all, 'sizes', links] as const,
};

export const downloadQueries = {
  /** Bytes stored per audio URL (null: listed but not in Cache Storage, e.g. cleared by the browser). */
  sizes: (links: readonly string[]) =>
    queryOptions({
      queryKey: downloadKeys.sizes(links),
      queryFn: async () => {
        const sizes = await Promise.all(links.map(async (link) => [link, await cachedAudioSize(link)] as const));
        return new Map(sizes);
      },
      // Local reads: no retries, and offline is no reason to wait.
      networkMode: 'always',
      retry: false,
      staleTime: 0,
    }),
};
