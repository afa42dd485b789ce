import type { User } from '@tonearm/contract';

/** An administrator's indefinite grant is stored as the last instant of year 9999. */
const INDEFINITE_YEAR = 9000;

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

/** When premium ends, or null when it does not (an indefinite grant) or is unknown. */
export function premiumEnd(user: Pick<User, 'premiumUntil'>): string | null {
  if (user.premiumUntil === null) return null;
  const end = new Date(user.premiumUntil);
  return Number.isNaN(end.getTime()) || end.getUTCFullYear() >= INDEFINITE_YEAR ? null : user.premiumUntil;
}

/** "Free", "Premium until 5 June 2026" or "Premium, no end date". */
export function describePremium(user: Pick<User, 'premium' | 'premiumUntil'>): string {
  if (!user.premium) return 'Free';
  const end = premiumEnd(user);
  return end === null ? 'Premium, no end date' : `Premium until ${formatDate(end)}`;
}
