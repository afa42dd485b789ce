import { queryOptions } from '@tanstack/react-query';
import type { AnalysisProgress } from '@tonearm/contract';
import { api } from '../../lib/api.js';

/** How often the analysis's progress is asked for again while it works, and while songs wait for it. */
export const ANALYSIS_POLL_MS = 2000;
export const ANALYSIS_IDLE_POLL_MS = 10_000;

export const analysisKeys = {
  progress: () => ['analysis', 'progress'] as const,
};

/** Every 2 s while it works; every 10 s while songs wait (a scan may wake it); not at all when it is off or done. */
export function analysisPollInterval(progress: AnalysisProgress | undefined): number | false {
  if (progress === undefined || progress.state === 'off') return false;
  if (progress.state === 'working') return ANALYSIS_POLL_MS;
  return progress.pending > 0 ? ANALYSIS_IDLE_POLL_MS : false;
}

export const analysisQueries = {
  /** `analysis.progress` (administrators): how far the background audio analysis has gone; quiet when it fails. */
  progress: () =>
    queryOptions({
      queryKey: analysisKeys.progress(),
      queryFn: ({ signal }) => api.analysis.progress({}, { signal }),
      refetchInterval: (query) => analysisPollInterval(query.state.data),
    }),
};
