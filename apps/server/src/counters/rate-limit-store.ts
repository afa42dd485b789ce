import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterStore } from './counter-store.js';

interface Result {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Result) => void;

/**
 * What the plugin really hands `child` (its types say otherwise): the merged limit options, with the route in
 * `routeInfo` (empty for a limit made by app.rateLimit).
 */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  groupId?: string;
}

/** The key prefix of a route's counters: its method and URL, or the group of a limit several routes use. */
function scopeOf(options: ChildOptions): string {
  const { method, url } = options.routeInfo ?? {};
  if (url === undefined) return `group:${options.groupId ?? 'shared'}`;
  return `${Array.isArray(method) ? method.join(',') : (method ?? '')}${url}`;
}

/**
 * @fastify/rate-limit's custom `store` over a CounterStore, so the route limits count where the sign-in failures do:
 * in the database when several instances share it. Each route counts on its own (as the plugin's memory store does).
 */
export function rateLimitStoreOver(counters: CounterStore): FastifyRateLimitStoreCtor {
  class CounterRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = 'route:',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      this.answer(counters.hit(this.prefix + key, timeWindow), callback);
    }

    /** `{ increment: false }` checks: the count without counting. */
    read(key: string, callback: Callback): void {
      this.answer(counters.read(this.prefix + key), callback);
    }

    child(options: object): FastifyRateLimitStore {
      return new CounterRateLimitStore({}, `route:${scopeOf(options)}:`);
    }

    private answer(pending: Promise<{ count: number; resetsAtMs: number }>, callback: Callback): void {
      pending.then(
        (hit) => callback(null, { current: hit.count, ttl: Math.max(0, hit.resetsAtMs - Date.now()) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
  }
  return CounterRateLimitStore;
}
