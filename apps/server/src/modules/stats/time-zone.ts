import { fixedOffsetMinutes } from '@tonearm/contract';

/*
 * A listener's time zone, for the statistics' hours, weekdays, days and months. SQLite knows no time zones, so the SQL
 * never names one: it adds to each listen's UTC instant the zone's offset at that instant, taken from a short list of
 * the spans of time over which the offset stays the same (`offsetSpans`, made here with Intl). A year has one span in
 * most zones and three where clocks change.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** From `startMs` on (until the next span), the zone is `offsetMinutes` east of UTC. */
export interface OffsetSpan {
  startMs: number;
  offsetMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    // Time zones are few; the map cannot grow past them (an unknown name throws above).
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Minutes east of UTC of `timeZone` (IANA, or a fixed offset such as `+05:30`) at the instant `ms`. */
export function offsetMinutesAt(timeZone: string, ms: number): number {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) return fixed;
  const name = formatterOf(timeZone)
    .formatToParts(ms)
    .find((part) => part.type === 'timeZoneName')?.value;
  // "GMT" at UTC, else "GMT+05:30" / "GMT-03:00".
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name ?? '');
  if (match === null) return 0;
  const [, sign, hours = '0', minutes = '0'] = match;
  const total = Number(hours) * 60 + Number(minutes);
  return sign === '-' ? -total : total;
}

/** The first instant after `beforeMs` (exclusive) and at or before `afterMs` whose offset differs from `beforeMs`'s. */
function changeBetween(timeZone: string, beforeMs: number, afterMs: number): number {
  const offset = offsetMinutesAt(timeZone, beforeMs);
  let [low, high] = [beforeMs, afterMs];
  // Zones change on whole minutes.
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetMinutesAt(timeZone, middle) === offset) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * The spans over which the zone's offset holds, covering [fromMs, toMs]: the first from `fromMs`, each next one from
 * a change of the offset. Clocks change at most a few times a year, never twice in a day, so a day's step finds every
 * change.
 */
export function offsetSpans(timeZone: string, fromMs: number, toMs: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [{ startMs: fromMs, offsetMinutes: offsetMinutesAt(timeZone, fromMs) }];
  if (fixedOffsetMinutes(timeZone) !== null) return spans;
  let last = fromMs;
  for (let at = fromMs + DAY_MS; last < toMs; at += DAY_MS) {
    const step = Math.min(at, toMs);
    const offset = offsetMinutesAt(timeZone, step);
    const current = spans[spans.length - 1];
    if (current !== undefined && offset !== current.offsetMinutes) {
      spans.push({ startMs: changeBetween(timeZone, last, step), offsetMinutes: offset });
    }
    last = step;
  }
  return spans;
}

/** The instant (ms) at which the zone's local clock shows midnight of that day (`month` 1–12). */
export function localMidnight(timeZone: string, year: number, month: number, day: number): number {
  const wall = Date.UTC(year, month - 1, day);
  let instant = wall - offsetMinutesAt(timeZone, wall) * MINUTE_MS;
  // Once more with the offset at the guess: right unless midnight falls in a change.
  instant = wall - offsetMinutesAt(timeZone, instant) * MINUTE_MS;
  return instant;
}

/** `YYYY-MM-DD` of a day counted from 1970-01-01 (day 0). */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day (counted from 1970-01-01) that the zone's clock shows at the instant `ms`. */
export function localDay(timeZone: string, ms: number): number {
  return Math.floor((ms + offsetMinutesAt(timeZone, ms) * MINUTE_MS) / DAY_MS);
}
