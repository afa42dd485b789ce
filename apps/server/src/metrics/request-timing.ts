import { endpoints, MEDIA_AUDIO_PATH } from '@tonearm/contract';
import type { App } from '../http/app-types.js';
import type { RawHandler } from '../http/server-factory.js';
import type { RequestLatency } from './request-latency.js';

/** The label of requests no route matched (any URL at all): one series, however many URLs are tried. */
export const UNMATCHED_ROUTE = '(unmatched)';

const AUDIO_PREFIX = MEDIA_AUDIO_PATH;

/**
 * Times every request Fastify answers (Fastify applies the hook to every route, registered before or after it).
 * Synchronous, after the response is out: nothing here delays an answer. The route is the pattern as registered
 * (`/api/songs/:id`), never the URL, so the series stay as few as the routes.
 */
export function timeRequests(app: App, requests: RequestLatency): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    requests.record(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * The /media handler in front of Fastify's router (app.ts), with its answers timed like the routes' and under the
 * same patterns (app.inject reaches the Fastify twins of these routes, timed by the hook above). Unchanged without
 * metrics. Responses cut off by the client are not timed, as Fastify's onResponse does not see them either.
 */
export function timedFront(handle: RawHandler | null, requests: RequestLatency | null): RawHandler | null {
  if (handle === null || requests === null) return handle;
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
