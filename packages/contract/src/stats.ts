import { z } from 'zod';
import { YEAR_MAX, YEAR_MIN } from './constants.js';

/*
 * Your listening in numbers (issue 28): a listener's statistics over their listens (listens.ts), the yearly summary
 * card, and the server's statistics for administrators. Hours, weekdays, days and months are the listener's own: the
 * client passes its time zone (an IANA name such as `Europe/Paris`, or a fixed offset such as `+05:30`).
 */

/** The periods of the statistics page: the last 7, 30 or 365 days up to now, or every listen. */
export const STATS_PERIODS = ['week', 'month', 'year', 'all'] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];
export const STATS_PERIOD_DAYS: Record<Exclude<StatsPeriod, 'all'>, number> = { week: 7, month: 30, year: 365 };
/** Entries of each top list. */
export const STATS_TOP_MAX = 10;
/** The days an administrator's activity chart may span. */
export const SERVER_STATS_DAYS_MAX = 366;
export const SERVER_STATS_DAYS_DEFAULT = 30;
/** The yearly card's size in pixels (a 4:5 portrait that social apps show whole). */
export const YEAR_CARD_WIDTH = 1080;
export const YEAR_CARD_HEIGHT = 1350;

const FIXED_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** Minutes east of UTC of a fixed offset such as `+05:30`; null for anything else (14 hours at most, as zones go). */
export function fixedOffsetMinutes(text: string): number | null {
  const match = FIXED_OFFSET.exec(text);
  if (match === null) return null;
  const [, sign, hours = '', minutes = ''] = match;
  const total = Number(hours) * 60 + Number(minutes);
  if (Number(minutes) >= 60 || total > 14 * 60) return null;
  return sign === '-' ? -total : total;
}

/** Whether the text names a time zone this runtime knows (IANA), or is a fixed offset. */
export function isTimeZone(text: string): boolean {
  if (fixedOffsetMinutes(text) !== null) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(text)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: text });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneText = z.string().max(64).refine(isTimeZone, {
  error: 'Unknown time zone: give an IANA name such as Europe/Paris, or an offset such as +02:00',
});

export const StatsQuery = z.object({
  period: z.enum(STATS_PERIODS).default('month'),
  tz: TimeZoneText.default('UTC'),
});
export type StatsQuery = z.input<typeof StatsQuery>;

export const TimeZoneQuery = z.object({ tz: TimeZoneText.default('UTC') });
export type TimeZoneQuery = z.input<typeof TimeZoneQuery>;

export const ServerStatsQuery = z.object({
  days: z.coerce.number().int().min(1).max(SERVER_STATS_DAYS_MAX).default(SERVER_STATS_DAYS_DEFAULT),
  tz: TimeZoneText.default('UTC'),
});
export type ServerStatsQuery = z.input<typeof ServerStatsQuery>;

export const StatsYearParams = z.object({
  year: z
    .string()
    .regex(/^\d{4}$/, 'A year is four digits')
    .transform(Number)
    .pipe(z.number().int().min(YEAR_MIN).max(YEAR_MAX)),
});

/** How much was heard: the number of listens and their time. */
const Amount = { plays: z.number().int(), listenedMs: z.number().int() };

export const TopSong = z.object({
  songId: z.number().int(),
  name: z.string(),
  artistName: z.string(),
  ...Amount,
});
export type TopSong = z.infer<typeof TopSong>;
export const TopArtist = z.object({ artistId: z.number().int(), name: z.string(), ...Amount });
export type TopArtist = z.infer<typeof TopArtist>;
export const TopAlbum = z.object({ albumId: z.number().int(), name: z.string(), artistName: z.string(), ...Amount });
export type TopAlbum = z.infer<typeof TopAlbum>;
export const TopGenre = z.object({ genre: z.string(), ...Amount });
export type TopGenre = z.infer<typeof TopGenre>;

/** Listening in one hour of the day (0–23) or one weekday (1 Monday … 7 Sunday), in the listener's time zone. */
export const HourAmount = z.object({ hour: z.number().int(), ...Amount });
export const WeekdayAmount = z.object({ weekday: z.number().int(), ...Amount });

/** Songs and artists heard for the first time in the period (never before it). */
export const Discoveries = z.object({
  songCount: z.number().int(),
  artistCount: z.number().int(),
  /** The new songs and artists played most in the period. */
  songs: z.array(TopSong),
  artists: z.array(TopArtist),
});
export type Discoveries = z.infer<typeof Discoveries>;

export const ListeningStats = z.object({
  period: z.enum(STATS_PERIODS),
  timeZone: z.string(),
  /** The period's start (null for all time) and end (now), as instants. */
  from: z.string().nullable(),
  to: z.string(),
  ...Amount,
  /** Whole minutes listened (listenedMs rounded down). */
  minutes: z.number().int(),
  topSongs: z.array(TopSong),
  topArtists: z.array(TopArtist),
  topAlbums: z.array(TopAlbum),
  topGenres: z.array(TopGenre),
  /** 24 entries, hour 0 first. */
  byHour: z.array(HourAmount),
  /** 7 entries, Monday first. */
  byWeekday: z.array(WeekdayAmount),
  discoveries: Discoveries,
});
export type ListeningStats = z.infer<typeof ListeningStats>;

/** One calendar year of a listener, in their time zone: what the card shows. */
export const YearSummary = z.object({
  year: z.number().int(),
  timeZone: z.string(),
  ...Amount,
  minutes: z.number().int(),
  topSongs: z.array(TopSong),
  topArtists: z.array(TopArtist),
  topGenres: z.array(TopGenre),
  /** 12 entries, January first. */
  byMonth: z.array(z.object({ month: z.number().int(), ...Amount })),
  newArtistCount: z.number().int(),
});
export type YearSummary = z.infer<typeof YearSummary>;

export const ServerStats = z.object({
  days: z.number().int(),
  timeZone: z.string(),
  /** The songs listened to most over the days, by everyone. */
  mostPlayed: z.array(TopSong.extend({ listeners: z.number().int() })),
  /** One entry per day (`YYYY-MM-DD` in the time zone), oldest first, days without listens included. */
  activeListeners: z.array(z.object({ day: z.string(), listeners: z.number().int(), plays: z.number().int() })),
  storage: z.object({
    songs: z.number().int(),
    albums: z.number().int(),
    artists: z.number().int(),
    users: z.number().int(),
    listens: z.number().int(),
    /** Audio bytes of every song; of those in the blob store (uploads, imports); of library files read in place. */
    audioBytes: z.number().int(),
    storedAudioBytes: z.number().int(),
    libraryAudioBytes: z.number().int(),
  }),
  /** Songs added per month (`YYYY-MM`, UTC), oldest first, with the running totals. */
  growth: z.array(
    z.object({
      month: z.string(),
      songsAdded: z.number().int(),
      bytesAdded: z.number().int(),
      songs: z.number().int(),
      bytes: z.number().int(),
    }),
  ),
});
export type ServerStats = z.infer<typeof ServerStats>;

/** Where a listen was counted (listens.source). */
export const ListenSources = ['web', 'subsonic'] as const;
export type ListenSource = (typeof ListenSources)[number];

/** One listen as the export writes it (JSON; the CSV has the same columns, snake_case). */
export const ExportedListen = z.object({
  playedAt: z.string(),
  listenedMs: z.number().int(),
  /** Null once the song was deleted, or is in a library hidden from the listener (its title and artist too). */
  songId: z.number().int().nullable(),
  song: z.string().nullable(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  source: z.enum(ListenSources),
  client: z.string().nullable(),
});
export type ExportedListen = z.infer<typeof ExportedListen>;
