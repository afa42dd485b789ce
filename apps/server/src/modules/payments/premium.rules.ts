const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The new premiumUntil after paying for `periodDays`: counted from the current end when premium is still running
 * (so renewing early loses no paid days), otherwise from now. Never beyond `ceiling` (an indefinite admin grant stays
 * what it is rather than overflowing the timestamp format).
 */
export function extendPremium(premiumUntil: Date | null, now: Date, periodDays: number, ceiling?: Date): Date {
  const start = premiumUntil !== null && premiumUntil.getTime() > now.getTime() ? premiumUntil : now;
  const end = start.getTime() + periodDays * DAY_MS;
  return new Date(ceiling === undefined ? end : Math.min(end, ceiling.getTime()));
}
