import { createHash, timingSafeEqual } from 'node:crypto';
import { endpoints, ServerMessages } from '@tonearm/contract';
import type { MetricsConfig } from '../config.js';
import type { App } from '../http/app-types.js';
import { unauthorized } from '../http/errors.js';
import type { RawHandler } from '../http/server-factory.js';
import { UNMATCHED_ROUTE, type AppMetrics } from './app-metrics.js';

export const METRICS_PATH = '/metrics';

const AUDIO_PREFIX = '/media/audio/';

/**
 * `GET /metrics` (Prometheus text) and the request timing behind it. Only called when metrics are on (METRICS=1 or a
 * METRICS_TOKEN): otherwise the path is unknown and answers 404 like any other. Call before the routes to time.
 */
export function registerMetrics(app: App, config: MetricsConfig, metrics: AppMetrics): void {
  const { requests } = metrics;
  // Synchronous, after the response is out: nothing here delays an answer. The route is the pattern as registered
  // (`/api/songs/:id`), never the URL, so the series stay as few as the routes.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    requests.record(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
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

/**
 * The /media handler in front of Fastify's router (app.ts), with its answers timed like the routes' and under the
 * same patterns (app.inject reaches the Fastify twins of these routes, timed by the hook above). Unchanged without
 * metrics. Responses cut off by the client are not timed, as Fastify's onResponse does not see them either.
 */
export function timedFront(handle: RawHandler | null, metrics: AppMetrics | null): RawHandler | null {
  if (handle === null || metrics === null) return handle;
  const { requests } = metrics;
  return (request, response) => {
    const started = performance.now();
    if (!handle(request, response)) return false;
    const route = request.url?.startsWith(AUDIO_PREFIX) ? endpoints.media.audio.path : endpoints.media.image.path;
    // `on`, not `once`: the response is used once, and once would wrap the listener in another.
    response.on('finish', () => {
      requests.record(route, request.method ?? 'GET', response.statusCode, (performance.now() - started) / 1000);
    });
    return true;
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `Authorization: Bearer <token>`, compared in constant time (digests of equal length, whatever was sent). */
function bearerMatches(header: string | undefined, wanted: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), wanted);
}
