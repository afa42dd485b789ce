import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { StatsPeriod } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { StatsTexts } from './stats-texts.js';

/** The browser's time zone (IANA), so hours and days are the listener's own; UTC where the browser says none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export const statsKeys = {
  all: ['stats'] as const,
  mine: (period: StatsPeriod, tz: string) => [...statsKeys.all, 'mine', period, tz] as const,
  year: (year: number, tz: string) => [...statsKeys.all, 'year', year, tz] as const,
  server: (days: number, tz: string) => [...statsKeys.all, 'server', days, tz] as const,
};

export const statsQueries = {
  /** The caller's listening over a period; the previous period stays on screen while the next one loads. */
  mine: (period: StatsPeriod, tz: string) =>
    queryOptions({
      queryKey: statsKeys.mine(period, tz),
      queryFn: ({ signal }) => api.stats.mine({ query: { period, tz } }, { signal }),
      placeholderData: keepPreviousData,
      meta: { errorMessage: StatsTexts.failedToLoad },
    }),
  year: (year: number, tz: string) =>
    queryOptions({
      queryKey: statsKeys.year(year, tz),
      queryFn: ({ signal }) => api.stats.year({ year, query: { tz } }, { signal }),
      placeholderData: keepPreviousData,
      meta: { errorMessage: StatsTexts.failedToLoad },
    }),
  /** The server's statistics (administrators). */
  server: (days: number, tz: string) =>
    queryOptions({
      queryKey: statsKeys.server(days, tz),
      queryFn: ({ signal }) => api.stats.server({ query: { days, tz } }, { signal }),
      placeholderData: keepPreviousData,
      meta: { errorMessage: StatsTexts.failedToLoadServer },
    }),
};
