import type { Config } from '../config.js';
import type { PoolUse } from '../db/database.js';
import type { App } from '../http/app-types.js';
import { AppMetrics } from './app-metrics.js';
import { metricsRoute } from './metrics.routes.js';
import { timeRequests } from './request-timing.js';

/** The app's metrics when METRICS or METRICS_TOKEN turns them on; null (nothing made, nothing measured) otherwise. */
export function createMetrics(config: Config, poolUse: () => PoolUse | null): AppMetrics | null {
  return config.metrics.enabled ? new AppMetrics({ poolUse }) : null;
}

/** `GET /metrics` and the timing of every request (docs/operations.md). Without metrics the path stays unknown: 404. */
export function registerMetrics(app: App, config: Config, metrics: AppMetrics | null): void {
  if (metrics === null) return;
  timeRequests(app, metrics.requests);
  metricsRoute(app, config.metrics, metrics);
}
