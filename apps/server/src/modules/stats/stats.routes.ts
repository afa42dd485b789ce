import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import type { StatsService } from './stats.service.js';

/** A listener's own statistics and year card; the server's statistics for administrators (the access guard's). */
export function statsRoutes(app: App, stats: StatsService): void {
  route(app, endpoints.stats.mine, async (request) => {
    const viewer = await requireViewer(request);
    return stats.listening(viewer, request.query.period, request.query.tz);
  });

  route(app, endpoints.stats.year, async (request) => {
    const viewer = await requireViewer(request);
    return stats.year(viewer, request.params.year, request.query.tz);
  });

  route(app, endpoints.stats.yearCard, async (request, reply) => {
    const viewer = await requireViewer(request);
    const png = await stats.yearCard(viewer, request.params.year, request.query.tz);
    return reply
      .header('content-type', 'image/png')
      .header('content-disposition', `inline; filename="tonearm-${String(request.params.year)}.png"`)
      .header('cache-control', 'private, no-cache')
      .send(png);
  });

  route(app, endpoints.stats.server, async (request) => {
    await requireViewer(request);
    return stats.serverStats(request.query.days, request.query.tz);
  });
}
