import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { ServerMessages } from '@tonearm/contract';
import type { App } from '../http/app-types.js';
import { tooManyRequests } from '../http/errors.js';

/**
 * Rate limiting is off globally and switched on per route (`config: { rateLimit: ... }`). Counters live in this
 * process's memory: behind N instances each instance counts on its own, which still bounds guessing per instance.
 */
export async function registerRateLimit(app: App): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => tooManyRequests(ServerMessages.rateLimited),
  });
}

/** Route config for login and register: `max` attempts per client IP and minute. */
export function perMinute(max: number): { rateLimit: RateLimitOptions } {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
