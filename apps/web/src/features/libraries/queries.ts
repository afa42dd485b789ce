import { queryOptions } from '@tanstack/react-query';
import { LibraryClientMessages, type Library, type LibraryList } from '@tonearm/contract';
import { api } from '../../lib/api.js';

/** How often the list is asked for again while a scan runs (its progress comes from GET /api/libraries). */
export const LIBRARY_SCAN_POLL_MS = 1000;

export const libraryKeys = {
  all: ['libraries'] as const,
  list: () => [...libraryKeys.all, 'list'] as const,
};

export function isScanning(library: Library): boolean {
  return library.scan?.state === 'running';
}

/** The interval of the list's refetch: every LIBRARY_SCAN_POLL_MS while any scan runs, else none. */
export function scanPollInterval(list: LibraryList | undefined): number | false {
  return list?.libraries.some(isScanning) === true ? LIBRARY_SCAN_POLL_MS : false;
}

export const libraryQueries = {
  /**
   * `libraries.list` (administrators): every library with its running scan or last report, polled while a scan runs.
   * `alertOnError` raises the red alert when it fails (the Libraries page); the home page's first step stays quiet.
   */
  list: ({ alertOnError = true }: { alertOnError?: boolean } = {}) =>
    queryOptions({
      queryKey: libraryKeys.list(),
      queryFn: ({ signal }) => api.libraries.list({}, { signal }),
      refetchInterval: (query) => scanPollInterval(query.state.data),
      meta: alertOnError ? { errorMessage: LibraryClientMessages.failedToLoad } : {},
    }),
};
