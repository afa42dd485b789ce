import { QueryClient } from '@tanstack/react-query';
import { SONG_LOAD_MAX_FAILURES, SONG_LOAD_RETRY_MS } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.js';
import { queryRetryOptions, shouldRetry, songLoadRetryPolicy } from './retry-policy.js';

describe('songLoadRetryPolicy', () => {
  it('uses the spec constants: every 5 s, give up after 5 failures', () => {
    expect(songLoadRetryPolicy).toEqual({ intervalMs: 5000, maxFailures: 5 });
    expect(SONG_LOAD_RETRY_MS).toBe(5000);
    expect(SONG_LOAD_MAX_FAILURES).toBe(5);
  });

  it('asks again after a server or network failure, never after a client error (4xx)', () => {
    const { retry } = queryRetryOptions(songLoadRetryPolicy);
    expect(retry(0, new ApiError(500, 'internal', 'down'))).toBe(true);
    expect(retry(0, new Error('offline'))).toBe(true);
    expect(retry(0, new ApiError(404, 'not-found', 'Playlist not found'))).toBe(false);
    expect(retry(0, new ApiError(403, 'forbidden', 'No'))).toBe(false);
  });

  it('retries after 1 to 4 failures and stops after the 5th', () => {
    expect([1, 2, 3, 4].map((n) => shouldRetry(songLoadRetryPolicy, n))).toEqual([true, true, true, true]);
    expect(shouldRetry(songLoadRetryPolicy, 5)).toBe(false);
  });
});

describe('queryRetryOptions with TanStack Query', () => {
  let client: QueryClient;

  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient();
  });

  afterEach(() => {
    client.clear();
    vi.useRealTimers();
  });

  it('attempts every 5 seconds and gives up after the 5th failure', async () => {
    const load = vi.fn(() => Promise.reject(new Error('down')));
    const outcome = client.query({ queryKey: ['t'], queryFn: load, ...queryRetryOptions(songLoadRetryPolicy) }).then(
      () => 'loaded',
      () => 'gave up',
    );

    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3 * 5000);
    expect(load).toHaveBeenCalledTimes(5);
    await expect(outcome).resolves.toBe('gave up');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('stops as soon as an attempt succeeds', async () => {
    const load = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValue(['song']);
    const outcome = client.query({ queryKey: ['t'], queryFn: load, ...queryRetryOptions(songLoadRetryPolicy) });

    await vi.advanceTimersByTimeAsync(10_000);
    await expect(outcome).resolves.toEqual(['song']);
    expect(load).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
