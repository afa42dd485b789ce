import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from '../../counters/counter-store.js';
import { LoginAttempts } from './login-attempts.js';

describe('LoginAttempts', () => {
  const minute = 60_000;

  function attemptsAt(clock: () => number, max: number) {
    return new LoginAttempts(new MemoryCounterStore(clock), 'login', max, 15 * minute, clock);
  }

  it('refuses an account after the allowed failures within the window, and lets it try once the window ends', async () => {
    let now = 1_000_000;
    const attempts = attemptsAt(() => now, 3);
    for (let i = 0; i < 3; i += 1) {
      expect((await attempts.begin('u:1')).allowed).toBe(true);
      now += minute;
    }
    expect(await attempts.begin('u:1')).toEqual({ allowed: false, retryAfterSeconds: 12 * 60 });
    expect((await attempts.begin('u:2')).allowed).toBe(true);
    now += 12 * minute;
    expect((await attempts.begin('u:1')).allowed).toBe(true);
  });

  it('clears the count on a successful sign-in, and frees the place of an attempt that was no failure', async () => {
    const attempts = attemptsAt(Date.now, 2);
    const first = await attempts.begin('u:1');
    const second = await attempts.begin('u:1');
    expect((await attempts.begin('u:1')).allowed).toBe(false);
    if (!second.allowed || !first.allowed) throw new Error('expected both to be allowed');
    await attempts.giveBack(second.place);
    const third = await attempts.begin('u:1');
    expect(third.allowed).toBe(true);
    expect((await attempts.begin('u:1')).allowed).toBe(false);
    if (third.allowed) await attempts.succeeded(third.place);
    expect((await attempts.begin('u:1')).allowed).toBe(true);
  });

  it('counts attempts begun at once, before any is decided', async () => {
    const attempts = attemptsAt(Date.now, 3);
    const starts = await Promise.all(Array.from({ length: 10 }, () => attempts.begin('u:1')));
    expect(starts.filter((start) => start.allowed)).toHaveLength(3);
  });

  it('keeps counts of different names apart in one store', async () => {
    const counters = new MemoryCounterStore();
    const web = new LoginAttempts(counters, 'login', 1, minute);
    const subsonic = new LoginAttempts(counters, 'subsonic-account', 1, minute);
    expect((await web.begin('user:1')).allowed).toBe(true);
    expect((await web.begin('user:1')).allowed).toBe(false);
    expect((await subsonic.begin('user:1')).allowed).toBe(true);
  });
});
