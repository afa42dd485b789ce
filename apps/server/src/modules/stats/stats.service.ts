import {
  STATS_PERIOD_DAYS,
  STATS_TOP_MAX,
  type ListeningStats,
  type ServerStats,
  type StatsPeriod,
  type YearSummary,
} from '@tonearm/contract';
import type { WorkGate } from '../../media/image-work.js';
import type { ServerStatsRepository } from './server-stats.repository.js';
import type { Amount, HourWeekdayAmount, Range, Scope, StatsRepository } from './stats.repository.js';
import { dayText, localDay, localMidnight, offsetSpans } from './time-zone.js';
import { renderYearCard } from './year-card.js';

const DAY_MS = 86_400_000;

/** How far past the server's clock a listen's time may lie (a device whose clock runs a little fast). */
const CLOCK_SKEW_MS = 60_000;
/** Entries of the card's lists (the page's come STATS_TOP_MAX at a time). */
const CARD_TOP = 5;
const CARD_GENRES = 3;
/** New songs and artists the page names. */
const DISCOVERIES_SHOWN = 5;

/** Who asks: the user, and the libraries hidden from them (their songs are in no list). */
export interface StatsViewer {
  id: number;
  username: string;
  hiddenLibraries: readonly number[];
}

const minutesOf = (amount: Amount) => Math.floor(amount.listenedMs / 60_000);

/** The cells' listening, summed. */
function total(cells: readonly HourWeekdayAmount[]): Amount {
  return {
    plays: cells.reduce((sum, cell) => sum + cell.plays, 0),
    listenedMs: cells.reduce((sum, cell) => sum + cell.listenedMs, 0),
  };
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/**
 * Your listening in numbers (issue 28): a listener's statistics over their own listens, their year as a card, and the
 * server's statistics for administrators. Hours, weekdays, days and months are those of the time zone the client
 * names (validated by the contract); lists leave out songs the listener may not see, minutes count every listen.
 */
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly server: ServerStatsRepository,
    private readonly imageGate: WorkGate,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async listening(viewer: StatsViewer, period: StatsPeriod, timeZone: string): Promise<ListeningStats> {
    const now = this.now().getTime();
    const from = period === 'all' ? null : new Date(now - STATS_PERIOD_DAYS[period] * DAY_MS).toISOString();
    const scope: Scope = { userId: viewer.id, range: { from, to: null }, hidden: viewer.hiddenLibraries };
    // Independent reads: on PostgreSQL they run side by side on the pool's connections.
    const [totals, cells, counts, topSongs, topArtists, topAlbums, topGenres, newSongs, newArtists] = await Promise.all(
      [
        this.stats.totals(viewer.id, scope.range),
        this.hourCells(viewer.id, scope.range, timeZone, now),
        this.stats.discoveryCounts(scope),
        this.stats.topSongs(scope, STATS_TOP_MAX),
        this.stats.topArtists(scope, STATS_TOP_MAX),
        this.stats.topAlbums(scope, STATS_TOP_MAX),
        this.stats.topGenres(scope, STATS_TOP_MAX),
        this.stats.topSongs(scope, DISCOVERIES_SHOWN, true),
        this.stats.topArtists(scope, DISCOVERIES_SHOWN, true),
      ],
    );
    return {
      period,
      timeZone,
      from,
      to: new Date(now).toISOString(),
      ...totals,
      minutes: minutesOf(totals),
      topSongs,
      topArtists,
      topAlbums,
      topGenres,
      byHour: HOURS.map((hour) => ({ hour, ...total(cells.filter((cell) => cell.hour === hour)) })),
      byWeekday: WEEKDAYS.map((weekday) => ({ weekday, ...total(cells.filter((cell) => cell.weekday === weekday)) })),
      discoveries: { songCount: counts.songs, artistCount: counts.artists, songs: newSongs, artists: newArtists },
    };
  }

  /** The listener's calendar year in the time zone. */
  async year(viewer: StatsViewer, year: number, timeZone: string): Promise<YearSummary> {
    // Each month's first local midnight, and the next year's: the bounds of the twelve months.
    const starts = Array.from({ length: 13 }, (_, index) =>
      new Date(localMidnight(timeZone, year + Math.floor(index / 12), (index % 12) + 1, 1)).toISOString(),
    );
    const [from = '', ...bounds] = starts;
    const range = { from, to: bounds[bounds.length - 1] ?? null };
    const scope: Scope = { userId: viewer.id, range, hidden: viewer.hiddenLibraries };
    const [totals, months, topSongs, topArtists, topGenres, counts] = await Promise.all([
      this.stats.totals(viewer.id, range),
      this.stats.byBounds(viewer.id, from, bounds),
      this.stats.topSongs(scope, CARD_TOP),
      this.stats.topArtists(scope, CARD_TOP),
      this.stats.topGenres(scope, CARD_GENRES),
      this.stats.discoveryCounts(scope),
    ]);
    return {
      year,
      timeZone,
      ...totals,
      minutes: minutesOf(totals),
      topSongs,
      topArtists,
      topGenres,
      byMonth: months.map((amount, index) => ({ month: index + 1, ...amount })),
      newArtistCount: counts.artists,
    };
  }

  /** The year as a PNG card, drawn through the image gate (a busy server answers 429, as for uploads). */
  async yearCard(viewer: StatsViewer, year: number, timeZone: string): Promise<Buffer> {
    const summary = await this.year(viewer, year, timeZone);
    return this.imageGate.run(() => renderYearCard(summary, viewer.username));
  }

  /** The server's statistics over the last `days` days (their local days in the time zone). */
  async serverStats(days: number, timeZone: string): Promise<ServerStats> {
    const now = this.now().getTime();
    const today = localDay(timeZone, now);
    const firstDay = today - days + 1;
    // From the first day's local midnight on.
    const first = dayText(firstDay);
    const fromMs = localMidnight(
      timeZone,
      Number(first.slice(0, 4)),
      Number(first.slice(5, 7)),
      Number(first.slice(8)),
    );
    const from = new Date(fromMs).toISOString();
    const spans = offsetSpans(timeZone, fromMs, now + CLOCK_SKEW_MS);
    const [activity, mostPlayed, storage, growth] = await Promise.all([
      this.server.activeListeners(from, spans),
      this.server.mostPlayed(from, STATS_TOP_MAX),
      this.server.storage(),
      this.server.growth(),
    ]);
    const active = new Map(activity.map((row) => [row.day, row]));
    return {
      days,
      timeZone,
      mostPlayed,
      activeListeners: Array.from({ length: days }, (_, index) => {
        const day = firstDay + index;
        const row = active.get(day);
        return { day: dayText(day), listeners: row?.listeners ?? 0, plays: row?.plays ?? 0 };
      }),
      storage,
      growth: runningTotals(growth),
    };
  }

  /** The listens of the range by local hour and weekday; the zone's spans from the range's first listen to now. */
  private async hourCells(userId: number, range: Range, timeZone: string, now: number) {
    const first = range.from ?? (await this.stats.firstListen(userId));
    if (first === null) return [];
    const spans = offsetSpans(timeZone, Date.parse(first), now + CLOCK_SKEW_MS);
    return this.stats.byHourAndWeekday(userId, range, spans);
  }
}

/** Songs added per month, every month from the first to the last (none added: 0), with the running totals. */
function runningTotals(months: readonly { month: string; songsAdded: number; bytesAdded: number }[]) {
  const byMonth = new Map(months.map((month) => [month.month, month]));
  const first = months[0]?.month;
  const last = months[months.length - 1]?.month;
  if (first === undefined || last === undefined) return [];
  const growth: ServerStats['growth'] = [];
  let [songs, bytes] = [0, 0];
  // Bounded whatever the dates say: two centuries of months.
  for (let month = first; month <= last && growth.length < 2400; month = nextMonth(month)) {
    const added = byMonth.get(month) ?? { songsAdded: 0, bytesAdded: 0 };
    songs += added.songsAdded;
    bytes += added.bytesAdded;
    growth.push({ month, songsAdded: added.songsAdded, bytesAdded: added.bytesAdded, songs, bytes });
  }
  return growth;
}

/** `YYYY-MM` of the month after. */
function nextMonth(month: string): string {
  const [year = 0, number = 0] = month.split('-').map(Number);
  return number === 12 ? `${String(year + 1)}-01` : `${String(year)}-${String(number + 1).padStart(2, '0')}`;
}
