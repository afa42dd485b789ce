import { useQuery } from '@tanstack/react-query';
import {
  endpoints,
  STATS_PERIODS,
  type ListeningStats,
  type StatsPeriod,
  type TopAlbum,
  type TopArtist,
  type TopGenre,
  type TopSong,
} from '@tonearm/contract';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { urlOf } from '../../lib/api.js';
import { artistHref, Paths } from '../../lib/paths.js';
import { useDocumentTitle } from '../../lib/useDocumentTitle.js';
import { DownloadIcon } from '../../ui/icons.js';
import { BarChart } from './BarChart.js';
import { browserTimeZone, statsQueries } from './queries.js';
import { hourLabel, minutesFigure, minutesOf, StatsTexts as Texts, WEEKDAY_NAMES } from './stats-texts.js';
import { YearCardSection } from './YearCardSection.js';
import '../../ui/buttons.css';
import '../../ui/card.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';
import './StatsPage.css';

/** One entry of a top list: what, by whom (a link where it has a page), and how much. */
interface TopEntry {
  key: string | number;
  name: ReactNode;
  by?: ReactNode;
  plays: number;
  listenedMs: number;
}

function TopList({ title, entries }: { title: string; entries: readonly TopEntry[] }) {
  return (
    <section className="card stats-top" aria-label={title}>
      <h3 className="stats-top__title">{title}</h3>
      {entries.length === 0 ? (
        <p className="muted">—</p>
      ) : (
        <ol className="stats-top__list">
          {entries.map((entry) => (
            <li key={entry.key} className="stats-top__entry">
              <span className="stats-top__name">
                {/* Its own box: a link in it stays a link in a line of text (a flex item would be a block). */}
                <span>{entry.name}</span>
                {entry.by !== undefined && <span className="stats-top__by">{entry.by}</span>}
              </span>
              <span className="stats-top__amount">
                {Texts.playsAndMinutes(entry.plays, minutesOf(entry.listenedMs))}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const amount = (entry: { plays: number; listenedMs: number }) => ({ plays: entry.plays, listenedMs: entry.listenedMs });
const songEntries = (songs: readonly TopSong[]): TopEntry[] =>
  songs.map((song) => ({ key: song.songId, name: song.name, by: song.artistName, ...amount(song) }));
const artistEntries = (artists: readonly TopArtist[]): TopEntry[] =>
  artists.map((artist) => ({
    key: artist.artistId,
    name: <Link to={artistHref(artist.artistId)}>{artist.name}</Link>,
    ...amount(artist),
  }));
const albumEntries = (albums: readonly TopAlbum[]): TopEntry[] =>
  albums.map((album) => ({
    key: album.albumId,
    name: <Link to={`${Paths.album}?id=${String(album.albumId)}`}>{album.name}</Link>,
    by: album.artistName,
    ...amount(album),
  }));
const genreEntries = (genres: readonly TopGenre[]): TopEntry[] =>
  genres.map((genre) => ({ key: genre.genre, name: genre.genre, ...amount(genre) }));

/** The period's figures: minutes, listens, and what was new. */
function Figures({ stats }: { stats: ListeningStats }) {
  const figures: [string, string][] = [
    [Texts.minutesListened, minutesFigure(stats.listenedMs)],
    [Texts.listens, stats.plays.toLocaleString()],
    [Texts.newSongs, stats.discoveries.songCount.toLocaleString()],
    [Texts.newArtists, stats.discoveries.artistCount.toLocaleString()],
  ];
  return (
    <dl className="stats-figures">
      {figures.map(([label, value]) => (
        <div key={label} className="card stats-figure">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const minutesText = (minutes: number): string => `${minutes.toLocaleString()} min`;

/** Listening by hour and by weekday, in minutes, as charts with their tables. */
function Rhythm({ stats }: { stats: ListeningStats }) {
  const hours = useMemo(
    () => ({
      labels: stats.byHour.map((entry) => hourLabel(entry.hour)),
      values: stats.byHour.map((entry) => minutesOf(entry.listenedMs)),
    }),
    [stats.byHour],
  );
  const weekdays = useMemo(
    () => ({
      labels: stats.byWeekday.map((entry) => WEEKDAY_NAMES[entry.weekday - 1] ?? String(entry.weekday)),
      values: stats.byWeekday.map((entry) => minutesOf(entry.listenedMs)),
    }),
    [stats.byWeekday],
  );
  return (
    <div className="stats-charts">
      <div className="card">
        <BarChart title={Texts.byHour} valueLabel={Texts.minutes} format={minutesText} {...hours} />
      </div>
      <div className="card">
        <BarChart title={Texts.byWeekday} valueLabel={Texts.minutes} format={minutesText} {...weekdays} />
      </div>
    </div>
  );
}

function PeriodChoice({ period, onChange }: { period: StatsPeriod; onChange: (period: StatsPeriod) => void }) {
  return (
    <div className="stats-periods" role="group" aria-label={Texts.periodLabel}>
      {STATS_PERIODS.map((choice) => (
        <button
          key={choice}
          type="button"
          className="stats-period"
          aria-pressed={choice === period}
          onClick={() => {
            onChange(choice);
          }}
        >
          {Texts.periods[choice]}
        </button>
      ))}
    </div>
  );
}

function ListeningReport({ stats }: { stats: ListeningStats }) {
  if (stats.plays === 0) {
    return (
      <div className="empty-state">
        <p>{Texts.nothingYet}</p>
      </div>
    );
  }
  return (
    <>
      <Figures stats={stats} />
      <section className="section" aria-label={Texts.byHour}>
        <Rhythm stats={stats} />
      </section>
      <div className="section stats-tops">
        <TopList title={Texts.topSongs} entries={songEntries(stats.topSongs)} />
        <TopList title={Texts.topArtists} entries={artistEntries(stats.topArtists)} />
        <TopList title={Texts.topAlbums} entries={albumEntries(stats.topAlbums)} />
        <TopList title={Texts.topGenres} entries={genreEntries(stats.topGenres)} />
      </div>
      <section className="section">
        <h2 className="section-title">{Texts.discoveries}</h2>
        <p className="muted">{Texts.discoveriesIntro}</p>
        <div className="stats-tops">
          <TopList title={Texts.newSongs} entries={songEntries(stats.discoveries.songs)} />
          <TopList title={Texts.newArtists} entries={artistEntries(stats.discoveries.artists)} />
        </div>
      </section>
    </>
  );
}

/** Links to the listener's whole history, as files. */
function ExportLinks() {
  return (
    <section className="section">
      <h2 className="section-title">{Texts.exportTitle}</h2>
      <p className="muted">{Texts.exportIntro}</p>
      <div className="stats-actions">
        <a className="button button--ghost" href={urlOf(endpoints.listens.exportCsv, {})} download>
          <DownloadIcon size={18} />
          {Texts.exportCsv}
        </a>
        <a className="button button--ghost" href={urlOf(endpoints.listens.exportJson, {})} download>
          <DownloadIcon size={18} />
          {Texts.exportJson}
        </a>
      </div>
    </section>
  );
}

/**
 * Your listening in numbers (issue 28): the listener's minutes, top songs, artists, albums and genres over a week, a
 * month, a year or all time; when they listen (in the browser's time zone); what they discovered; their year as a
 * card to share; and their listens to download.
 */
export function StatsPage() {
  useDocumentTitle(Texts.pageTitle);
  const [period, setPeriod] = useState<StatsPeriod>('month');
  const [timeZone] = useState(browserTimeZone);
  const stats = useQuery(statsQueries.mine(period, timeZone));
  return (
    <div className="page stats-page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Statistics</p>
          <h1 className="page-title">{Texts.pageTitle}</h1>
          <p className="page-header__meta">{Texts.pageIntro}</p>
        </div>
        <div className="page-header__actions">
          <PeriodChoice period={period} onChange={setPeriod} />
        </div>
      </header>
      <div aria-busy={stats.isFetching} aria-live="polite">
        {stats.data !== undefined && <ListeningReport stats={stats.data} />}
      </div>
      <YearCardSection timeZone={timeZone} />
      <ExportLinks />
    </div>
  );
}
