import { describe, expect, it } from 'vitest';
import { buildPlans } from './payment-plans.js';
import { extendPremium } from './premium.rules.js';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2025-03-10T12:00:00.000Z');

describe('extendPremium', () => {
  it('starts from now for a user who never had premium', () => {
    expect(extendPremium(null, now, 30)).toEqual(new Date(now.getTime() + 30 * DAY));
  });

  it('starts from now when premium has lapsed', () => {
    const lapsed = new Date(now.getTime() - 5 * DAY);
    expect(extendPremium(lapsed, now, 30)).toEqual(new Date(now.getTime() + 30 * DAY));
  });

  it('adds to the current end while premium is still running, so an early renewal loses no days', () => {
    const running = new Date(now.getTime() + 10 * DAY);
    expect(extendPremium(running, now, 365)).toEqual(new Date(now.getTime() + 375 * DAY));
  });
});

describe('buildPlans', () => {
  it('offers monthly and yearly at the configured prices and currency', () => {
    expect(buildPlans({ monthlyCents: 499, yearlyCents: 4990, currency: 'EUR' })).toEqual([
      { id: 'monthly', name: 'Premium monthly', amountCents: 499, currency: 'EUR', periodDays: 30 },
      { id: 'yearly', name: 'Premium yearly', amountCents: 4990, currency: 'EUR', periodDays: 365 },
    ]);
    const plans = buildPlans({ monthlyCents: 100, yearlyCents: 900, currency: 'USD' });
    expect(plans.map((p) => [p.amountCents, p.currency])).toEqual([
      [100, 'USD'],
      [900, 'USD'],
    ]);
  });
});

describe('extendPremium with a ceiling', () => {
  it('keeps an indefinite grant as it is instead of running past the ceiling', () => {
    const forever = new Date('9999-12-31T23:59:59.999Z');
    expect(extendPremium(forever, now, 365, forever)).toEqual(forever);
    expect(extendPremium(null, now, 30, forever)).toEqual(new Date(now.getTime() + 30 * DAY));
  });
});
