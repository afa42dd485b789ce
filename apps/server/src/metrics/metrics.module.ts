import type { Config } from '../config.js';
import type { PoolUse } from '../db/database.js';
import type { App } from '../http/app-types.js';
import type { AppMetrics } from './app-metrics.js';
import { metricsRoute } from './metrics.routes.js';
import { timeRequests } from './request-timing.js';

/**
 * The app's metrics when METRICS or METRICS_TOKEN turns them on; null (nothing made, nothing measured) otherwise.
 * prom-client is loaded only then (its own chunk of the built server).
 */
export async function createMetrics(config: Config, poolUse: () => PoolUse | null): Promise<AppMetrics | null> {
  if (!config.metrics.enabled) return null;
  const { AppMetrics } = await import('./app-metrics.js');
  return new AppMetrics({ poolUse });
}

/** `GET /metrics` and the timing of every request (docs/operations.md). Without metrics the path stays unknown: 404. */
export function registerMetrics(app: App, config: Config, metrics: AppMetrics | null): void {
  if (metrics === null) return;
  timeRequests(app, metrics.requests);
  metricsRoute(app, config.metrics, metrics);
}
