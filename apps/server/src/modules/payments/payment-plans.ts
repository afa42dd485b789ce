import type { Plan, PlanId } from '@tonearm/contract';

/** Prices as configured by the operator (config.ts: PRICE_MONTHLY_CENTS, PRICE_YEARLY_CENTS, CURRENCY). */
export interface PlanPrices {
  monthlyCents: number;
  yearlyCents: number;
  currency: string;
}

export const PLAN_PERIOD_DAYS: Record<PlanId, number> = { monthly: 30, yearly: 365 };

/** The plans offered for sale. Amounts only ever come from here, never from a request. */
export function buildPlans(prices: PlanPrices): Plan[] {
  return [
    {
      id: 'monthly',
      name: 'Premium monthly',
      amountCents: prices.monthlyCents,
      currency: prices.currency,
      periodDays: PLAN_PERIOD_DAYS.monthly,
    },
    {
      id: 'yearly',
      name: 'Premium yearly',
      amountCents: prices.yearlyCents,
      currency: prices.currency,
      periodDays: PLAN_PERIOD_DAYS.yearly,
    },
  ];
}
