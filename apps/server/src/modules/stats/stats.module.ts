import type { App } from '../../http/app-types.js';
import { statsRoutes } from './stats.routes.js';
import type { StatsService } from './stats.service.js';

/** Listening statistics (`/api/stats`, `/api/admin/stats`). */
export function registerStats(app: App, { stats }: { stats: StatsService }): void {
  statsRoutes(app, stats);
}
