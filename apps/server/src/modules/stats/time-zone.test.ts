import { describe, expect, it } from 'vitest';
import { dayText, localDay, localMidnight, offsetMinutesAt, offsetSpans } from './time-zone.js';

const at = (iso: string) => Date.parse(iso);

describe('time zones of the statistics', () => {
  it('reads the offset of a zone at an instant, summer and winter, and of a fixed offset', () => {
    expect(offsetMinutesAt('Europe/Paris', at('2026-01-15T12:00:00Z'))).toBe(60);
    expect(offsetMinutesAt('Europe/Paris', at('2026-07-15T12:00:00Z'))).toBe(120);
    expect(offsetMinutesAt('America/St_Johns', at('2026-01-15T12:00:00Z'))).toBe(-210);
    expect(offsetMinutesAt('Asia/Kathmandu', at('2026-01-15T12:00:00Z'))).toBe(345);
    expect(offsetMinutesAt('UTC', at('2026-01-15T12:00:00Z'))).toBe(0);
    expect(offsetMinutesAt('+05:30', 0)).toBe(330);
    expect(offsetMinutesAt('-03:00', 0)).toBe(-180);
  });

  it('cuts a year into the spans over which the offset holds, at the exact minute clocks change', () => {
    const from = at('2026-01-01T00:00:00Z');
    const to = at('2027-01-01T00:00:00Z');
    expect(offsetSpans('Europe/Paris', from, to)).toEqual([
      { startMs: from, offsetMinutes: 60 },
      { startMs: at('2026-03-29T01:00:00Z'), offsetMinutes: 120 },
      { startMs: at('2026-10-25T01:00:00Z'), offsetMinutes: 60 },
    ]);
    // Lord Howe Island moves its clocks by half an hour.
    expect(offsetSpans('Australia/Lord_Howe', from, to).map((span) => span.offsetMinutes)).toEqual([660, 630, 660]);
    expect(offsetSpans('Asia/Kolkata', from, to)).toEqual([{ startMs: from, offsetMinutes: 330 }]);
    expect(offsetSpans('+02:00', from, to)).toEqual([{ startMs: from, offsetMinutes: 120 }]);
    // A span shorter than a day.
    expect(offsetSpans('Europe/Paris', at('2026-03-29T00:00:00Z'), at('2026-03-29T05:00:00Z'))).toEqual([
      { startMs: at('2026-03-29T00:00:00Z'), offsetMinutes: 60 },
      { startMs: at('2026-03-29T01:00:00Z'), offsetMinutes: 120 },
    ]);
  });

  it('finds local midnight as an instant, and the local day of an instant', () => {
    expect(new Date(localMidnight('Europe/Paris', 2026, 1, 1)).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(new Date(localMidnight('Europe/Paris', 2026, 7, 1)).toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(new Date(localMidnight('America/New_York', 2027, 1, 1)).toISOString()).toBe('2027-01-01T05:00:00.000Z');
    expect(new Date(localMidnight('+05:45', 2026, 1, 1)).toISOString()).toBe('2025-12-31T18:15:00.000Z');
    // Late on New Year's Eve in New York is already the first in UTC.
    const day = localDay('America/New_York', at('2027-01-01T03:00:00Z'));
    expect(dayText(day)).toBe('2026-12-31');
    expect(dayText(localDay('Asia/Tokyo', at('2026-12-31T16:00:00Z')))).toBe('2027-01-01');
  });
});
