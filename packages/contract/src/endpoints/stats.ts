import { endpoint } from './define.js';

/**
 * The caller's listens (issue 28): the export (the web player's report of a play that counted is plays.listen). Every route is the
 * caller's own: nobody, administrators included, reads another listener's listens.
 */
export const listens = {
  exportCsv: endpoint({
    method: 'GET',
    path: '/api/listens/export.csv',
    access: 'session',
    description: 'The caller’s listens, oldest first, as CSV (RFC 4180).',
    responses: { 200: 'binary' },
  }),
  exportJson: endpoint({
    method: 'GET',
    path: '/api/listens/export.json',
    access: 'session',
    description: 'The caller’s listens, oldest first, as JSON.',
    responses: { 200: 'binary' },
  }),
} as const;

/** Listening statistics: the caller's own, and the server's for administrators. */
export const stats = {
  mine: endpoint({
    method: 'GET',
    path: '/api/stats',
    access: 'session',
    query: 'StatsQuery',
    description: 'The caller’s listening over a period, hours and days in `tz`.',
    responses: { 200: 'ListeningStats' },
  }),
  year: endpoint({
    method: 'GET',
    path: '/api/stats/year/:year',
    access: 'session',
    params: 'StatsYearParams',
    query: 'TimeZoneQuery',
    description: 'The caller’s calendar year in `tz`.',
    responses: { 200: 'YearSummary' },
  }),
  yearCard: endpoint({
    method: 'GET',
    path: '/api/stats/year/:year/card.png',
    access: 'session',
    params: 'StatsYearParams',
    query: 'TimeZoneQuery',
    description: 'The caller’s year as a PNG card (1080×1350).',
    responses: { 200: 'binary' },
  }),
  server: endpoint({
    method: 'GET',
    path: '/api/admin/stats',
    access: 'admin',
    query: 'ServerStatsQuery',
    description: 'Most played, active listeners, storage, growth.',
    responses: { 200: 'ServerStats' },
  }),
} as const;
