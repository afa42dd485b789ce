import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { OffsetSpan } from './time-zone.js';

/*
 * The dialect-neutral pieces of the statistics' SQL: a timestamp column (ISO text, UTC) as seconds since the epoch,
 * then as the listener's local clock's seconds (the zone's offset at each instant, from its spans), then as a local
 * hour, weekday or day. Integer arithmetic only: both dialects divide integers the same way. PostgreSQL answers its
 * bigint results as text, hence `number | string` (read them with Number()).
 */

/** What an integer expression answers: a number on SQLite, text for PostgreSQL's bigint. */
export type Integer = number | string;

/** Seconds since the epoch of an ISO text column. */
export function epochSeconds(dialect: Dialect, column: string): RawBuilder<number> {
  const ref = sql.ref(column);
  return dialect === 'postgres'
    ? sql<number>`cast(floor(extract(epoch from cast(${ref} as timestamptz))) as bigint)`
    : sql<number>`cast(strftime('%s', ${ref}) as integer)`;
}

/** `seconds` (since the epoch, UTC) as the local clock shows them: plus the offset of the span each falls in. */
export function localSeconds(seconds: RawBuilder<number>, spans: readonly OffsetSpan[]): RawBuilder<number> {
  const [first, ...rest] = spans;
  if (first === undefined) return seconds;
  // Whole numbers written into the statement: bound, they would be floats on SQLite and text on PostgreSQL.
  if (rest.length === 0) return sql<number>`(${seconds} + ${sql.lit(first.offsetMinutes * 60)})`;
  // Span i holds until span i+1 starts.
  const cases = spans.slice(0, -1).map((span, index) => {
    const next = spans[index + 1]?.startMs ?? 0;
    return sql`when ${seconds} < ${sql.lit(Math.floor(next / 1000))} then ${sql.lit(span.offsetMinutes * 60)}`;
  });
  const last = spans[spans.length - 1]?.offsetMinutes ?? 0;
  return sql<number>`(${seconds} + case ${sql.join(cases, sql` `)} else ${sql.lit(last * 60)} end)`;
}

/** The local hour, 0–23. */
export const hourOf = (local: RawBuilder<number>) => sql<Integer>`((${local} / 3600) % 24)`;
/** The local weekday, 1 Monday … 7 Sunday (1970-01-01, day 0, was a Thursday). */
export const weekdayOf = (local: RawBuilder<number>) => sql<Integer>`(((${local} / 86400) + 3) % 7 + 1)`;
/** The local day, counted from 1970-01-01. */
export const dayOf = (local: RawBuilder<number>) => sql<Integer>`(${local} / 86400)`;
