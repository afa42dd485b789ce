import { createHash, timingSafeEqual } from 'node:crypto';
import { ServerMessages } from '@tonearm/contract';
import type { MetricsConfig } from '../config.js';
import type { App } from '../http/app-types.js';
import { unauthorized } from '../http/errors.js';
import type { AppMetrics } from './app-metrics.js';

const METRICS_PATH = '/metrics';

/**
 * `GET /metrics`: the Prometheus text, to anyone (METRICS=1) or with `Authorization: Bearer <METRICS_TOKEN>` (401
 * otherwise). Not in the contract nor in OpenAPI: it exists only when metrics are on, for a scraper, not for the apps.
 */
export function metricsRoute(app: App, config: MetricsConfig, metrics: AppMetrics): void {
  const wanted = config.token === null ? null : digest(config.token);
  app.get(METRICS_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (wanted !== null && !bearerMatches(request.headers.authorization, wanted)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized(ServerMessages.metricsTokenRequired);
    }
    reply.type(metrics.contentType);
    return metrics.text();
  });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `Authorization: Bearer <token>`, compared in constant time (digests of equal length, whatever was sent). */
function bearerMatches(header: string | undefined, wanted: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), wanted);
}
