import { describe, expect, it } from 'vitest';
import { describePremium, premiumEnd } from './premium.js';

describe('premium', () => {
  it('reads a free account, a dated and an indefinite grant', () => {
    expect(describePremium({ premium: false, premiumUntil: null })).toBe('Free');
    expect(describePremium({ premium: true, premiumUntil: '2031-03-04T12:00:00.000Z' })).toMatch(
      /^Premium until .*2031/,
    );
    expect(describePremium({ premium: true, premiumUntil: '9999-12-31T23:59:59.999Z' })).toBe('Premium, no end date');
  });

  it('has no end for an indefinite or missing date', () => {
    expect(premiumEnd({ premiumUntil: '9999-12-31T23:59:59.999Z' })).toBeNull();
    expect(premiumEnd({ premiumUntil: null })).toBeNull();
    expect(premiumEnd({ premiumUntil: '2031-03-04T12:00:00.000Z' })).toBe('2031-03-04T12:00:00.000Z');
  });
});
