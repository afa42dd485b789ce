/** A count as the reader's locale writes it (1,234). */
export function formatCount(count: number): string {
  return count.toLocaleString();
}

/** Files per second, to one decimal at most. */
export function formatRate(perSecond: number): string {
  return perSecond.toLocaleString(undefined, { maximumFractionDigits: 1 });
}

/** A moment of a scan: its date and time of day, in the reader's locale and time zone. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
