import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { LimitMessages, ServerMessages } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { CounterStore } from '../counters/counter-store.js';
import { rateLimitStoreOver } from '../counters/rate-limit-store.js';
import type { App } from '../http/app-types.js';
import { tooManyRequests } from '../http/errors.js';
import { currentUser } from '../http/session.js';

/**
 * Rate limiting is off globally and switched on per route (`config: { rateLimit: ... }`). Counts go to `counters`: the
 * database on PostgreSQL, so that instances sharing it count together (countersFor).
 */
export async function registerRateLimit(app: App, counters: CounterStore): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStoreOver(counters),
    errorResponseBuilder: () => tooManyRequests(ServerMessages.rateLimited),
  });
}

/** Route config for login and register: `max` attempts per client IP and minute. */
export function perMinute(max: number): { rateLimit: RateLimitOptions } {
  return { rateLimit: { max, timeWindow: 60_000 } };
}

/**
 * Route config for what a signed-in user does (uploads, checkouts): `max` requests per user and minute, whatever
 * address they come from, refused with 429 and `message`. A request without a session counts against its address
 * (the route answers it 401 anyway). `counts`, when given, picks the requests that count (e.g. only uploads).
 */
export function perUserPerMinute(
  max: number,
  message: string,
  counts?: (request: FastifyRequest) => boolean,
): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      // The session lookup is memoized on the request: the handler's requireUser costs nothing more.
      keyGenerator: async (request) => {
        const user = await currentUser(request);
        return user === null ? `ip:${request.ip}` : `user:${user.id}`;
      },
      ...(counts === undefined ? {} : { allowList: (request: FastifyRequest) => !counts(request) }),
      errorResponseBuilder: () => tooManyRequests(message),
    },
  };
}

/** A rate limit shared by several routes (one counter per user across all of them), attached as a route's preHandler. */
export type SharedRateLimit = ReturnType<App['rateLimit']>;

/**
 * UPLOAD_RATE_LIMIT: image uploads (profile photo, playlist create or edit with a cover) per user and minute, counted
 * together across those routes. Only multipart requests count: a JSON playlist edit (rename, make public) is no upload.
 * Runs before the body is read, so a refused upload costs no disk and no decoding.
 */
export function uploadRateLimit(app: App, perMinute: number): SharedRateLimit {
  const { rateLimit: options } = perUserPerMinute(perMinute, LimitMessages.tooManyUploads, (request) =>
    request.isMultipart(),
  );
  // Names its counters in the store (a limit of no one route has no route to be named by).
  return app.rateLimit({ ...options, groupId: 'uploads' });
}
