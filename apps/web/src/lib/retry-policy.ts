import { SONG_LOAD_MAX_FAILURES, SONG_LOAD_RETRY_MS } from '@tonearm/contract';
import { isApiError } from './api-client.js';

/** Every 4xx status. */
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i);

export interface RetryPolicy {
  /** Pause between a failed attempt and the next one. */
  readonly intervalMs: number;
  /** Attempts that may fail before loading gives up. */
  readonly maxFailures: number;
}

/** SPEC §4: song loading is retried every 5 seconds and gives up after 5 failures. */
export const songLoadRetryPolicy: RetryPolicy = {
  intervalMs: SONG_LOAD_RETRY_MS,
  maxFailures: SONG_LOAD_MAX_FAILURES,
};

/** Whether another attempt follows after `failures` failed attempts. */
export function shouldRetry(policy: RetryPolicy, failures: number): boolean {
  return failures < policy.maxFailures;
}

/**
 * The policy as TanStack Query options; a client error (4xx) is not asked again. TanStack passes the failures so far minus one (0 after the first
 * failure). networkMode 'always' makes an offline browser count as failures instead of pausing forever, so the
 * user still gets the spec's message.
 */
export function queryRetryOptions(policy: RetryPolicy) {
  return {
    // A client error (4xx: a playlist that is not there, a session that ended) answers the same on every attempt.
    retry: (failureCount: number, error: Error) =>
      !isApiError(error, ...CLIENT_ERRORS) && shouldRetry(policy, failureCount + 1),
    retryDelay: policy.intervalMs,
    networkMode: 'always' as const,
  };
}
