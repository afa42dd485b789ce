import type { StatsPeriod } from '@tonearm/contract';

/** The statistics pages' texts (issue 28), shared by the pages and their tests. */
export const StatsTexts = {
  pageTitle: 'Your listening',
  pageIntro: 'What you played, counted once a song was half heard (or four minutes of it).',
  periods: { week: 'Week', month: 'Month', year: 'Year', all: 'All time' } satisfies Record<StatsPeriod, string>,
  periodLabel: 'Period',
  minutesListened: 'Minutes listened',
  listens: 'Listens',
  newSongs: 'New songs',
  newArtists: 'New artists',
  byHour: 'Listening by hour',
  byWeekday: 'Listening by weekday',
  minutes: 'Minutes',
  topSongs: 'Top songs',
  topArtists: 'Top artists',
  topAlbums: 'Top albums',
  topGenres: 'Top genres',
  discoveries: 'New discoveries',
  discoveriesIntro: 'Songs and artists you heard for the first time in this period.',
  nothingYet: 'Nothing heard in this period yet. Play a song past its middle and it counts.',
  playsAndMinutes: (plays: number, minutes: number) =>
    `${plays} ${plays === 1 ? 'listen' : 'listens'} · ${minutes} min`,
  failedToLoad: 'Failed to load your statistics',
  yourYear: 'Your year',
  yearLabel: 'Year',
  yearCardAlt: (year: number, minutes: number) => `Your ${year} in music: ${minutes} minutes listened`,
  downloadCard: 'Download the card',
  shareCard: 'Share',
  shareTitle: (year: number) => `My ${year} in music`,
  shareFailed: 'The card could not be shared',
  exportTitle: 'Your listens',
  exportIntro: 'Every listen, when and how long, to keep or to take elsewhere.',
  exportCsv: 'Download CSV',
  exportJson: 'Download JSON',
  serverTitle: 'Server statistics',
  serverIntro: 'Everyone’s listening and the library, as this server counts them.',
  daysLabel: 'Days',
  dayChoices: [7, 30, 90, 365] as const,
  lastDays: (days: number) => `Last ${days} days`,
  mostPlayed: 'Most played',
  listeners: 'Listeners',
  activeListeners: 'Active listeners per day',
  storage: 'Storage',
  growth: 'Library growth',
  songsInLibrary: 'Songs in the library',
  failedToLoadServer: 'Failed to load the server statistics',
  storageRows: {
    songs: 'Songs',
    albums: 'Albums',
    artists: 'Artists',
    users: 'Users',
    listens: 'Listens',
    audioBytes: 'Audio, in all',
    storedAudioBytes: 'Audio in the store (uploads, imports)',
    libraryAudioBytes: 'Audio in library folders',
  },
} as const;

/** Weekdays as the statistics number them: 1 Monday … 7 Sunday. */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** An hour of the day as a clock reads it: "00:00" … "23:00". */
export const hourLabel = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;

/** Whole minutes of a duration in ms (rounded down, as the server's `minutes`). */
export const minutesOf = (ms: number): number => Math.floor(ms / 60_000);

/** Minutes listened as the page shows them: tenths under ten minutes (a first song is not "0"), whole ones above. */
export function minutesFigure(ms: number): string {
  const minutes = ms / 60_000;
  return minutes < 10 ? (Math.floor(minutes * 10) / 10).toFixed(1) : Math.floor(minutes).toLocaleString();
}
