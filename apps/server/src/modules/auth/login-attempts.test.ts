import { describe, expect, it } from 'vitest';
import { LoginAttempts } from './login-attempts.js';

describe('LoginAttempts', () => {
  const minute = 60_000;

  it('refuses an account after the allowed failures within the window, and lets it try once they age out', () => {
    let now = 1_000_000;
    const attempts = new LoginAttempts(3, 15 * minute, () => now);
    for (let i = 0; i < 3; i += 1) {
      expect(attempts.allowed('u:1')).toBe(true);
      attempts.recordFailure('u:1');
      now += minute;
    }
    expect(attempts.allowed('u:1')).toBe(false);
    expect(attempts.retryAfterSeconds('u:1')).toBe(12 * 60);
    expect(attempts.allowed('u:2')).toBe(true);
    now += 12 * minute;
    expect(attempts.allowed('u:1')).toBe(true);
    expect(attempts.retryAfterSeconds('u:1')).toBe(0);
  });

  it('clears the count on a successful sign-in', () => {
    const attempts = new LoginAttempts(2, minute);
    attempts.recordFailure('u:1');
    attempts.recordFailure('u:1');
    expect(attempts.allowed('u:1')).toBe(false);
    attempts.recordSuccess('u:1');
    expect(attempts.allowed('u:1')).toBe(true);
  });

  it('keeps at most the configured number of accounts in memory, forgetting the least recently failed', () => {
    const attempts = new LoginAttempts(1, minute, Date.now, 2);
    attempts.recordFailure('a');
    attempts.recordFailure('b');
    attempts.recordFailure('c');
    expect(attempts.allowed('a')).toBe(true);
    expect(attempts.allowed('b')).toBe(false);
    expect(attempts.allowed('c')).toBe(false);
  });
});
