import { useQuery } from '@tanstack/react-query';
import type { ServerStats } from '@tonearm/contract';
import { useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { formatBytes } from '../../lib/format-bytes.js';
import { Paths } from '../../lib/paths.js';
import { useDocumentTitle } from '../../lib/useDocumentTitle.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { BarChart } from './BarChart.js';
import { browserTimeZone, statsQueries } from './queries.js';
import { minutesOf, StatsTexts as Texts } from './stats-texts.js';
import '../../ui/card.css';
import '../../ui/page.css';
import '../../ui/table.css';
import './StatsPage.css';

type Days = (typeof Texts.dayChoices)[number];

function MostPlayed({ songs }: { songs: ServerStats['mostPlayed'] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{Texts.mostPlayed}</caption>
        <thead>
          <tr>
            <th scope="col">Song</th>
            <th scope="col">Artist</th>
            <th scope="col">{Texts.listens}</th>
            <th scope="col">{Texts.listeners}</th>
            <th scope="col">{Texts.minutes}</th>
          </tr>
        </thead>
        <tbody>
          {songs.map((song) => (
            <tr key={song.songId}>
              <th scope="row">{song.name}</th>
              <td>{song.artistName}</td>
              <td>{song.plays.toLocaleString()}</td>
              <td>{song.listeners.toLocaleString()}</td>
              <td>{minutesOf(song.listenedMs).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Storage({ storage }: { storage: ServerStats['storage'] }) {
  const rows = Object.entries(Texts.storageRows) as [keyof typeof Texts.storageRows, string][];
  return (
    <dl className="stats-figures">
      {rows.map(([key, label]) => (
        <div key={key} className="card stats-figure">
          <dt>{label}</dt>
          <dd>{key.endsWith('Bytes') ? formatBytes(storage[key]) : storage[key].toLocaleString()}</dd>
        </div>
      ))}
    </dl>
  );
}

const count = (value: number): string => value.toLocaleString();

function ServerReport({ stats }: { stats: ServerStats }) {
  const active = useMemo(
    () => ({
      labels: stats.activeListeners.map((day) => day.day),
      values: stats.activeListeners.map((day) => day.listeners),
    }),
    [stats.activeListeners],
  );
  const growth = useMemo(
    () => ({ labels: stats.growth.map((month) => month.month), values: stats.growth.map((month) => month.songs) }),
    [stats.growth],
  );
  return (
    <>
      <section className="section">
        <h2 className="section-title">{Texts.mostPlayed}</h2>
        <MostPlayed songs={stats.mostPlayed} />
      </section>
      <section className="section stats-charts">
        <div className="card">
          <BarChart title={Texts.activeListeners} valueLabel={Texts.listeners} format={count} {...active} />
        </div>
        <div className="card">
          <BarChart title={Texts.growth} valueLabel={Texts.songsInLibrary} format={count} {...growth} />
        </div>
      </section>
      <section className="section">
        <h2 className="section-title">{Texts.storage}</h2>
        <Storage storage={stats.storage} />
      </section>
    </>
  );
}

/** The server's statistics (issue 28), for administrators: most played, active listeners, storage and growth. */
export function ServerStatsPage() {
  useDocumentTitle(Texts.serverTitle);
  const user = useCurrentUser();
  const [days, setDays] = useState<Days>(30);
  const [timeZone] = useState(browserTimeZone);
  const stats = useQuery({ ...statsQueries.server(days, timeZone), enabled: isAdmin(user) });
  // Others are sent home: the navigation never offers this page to them.
  if (!isAdmin(user)) return <Navigate to={Paths.dashboard} replace />;
  return (
    <div className="page stats-page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Administration</p>
          <h1 className="page-title">{Texts.serverTitle}</h1>
          <p className="page-header__meta">{Texts.serverIntro}</p>
        </div>
        <div className="page-header__actions">
          <div className="stats-periods" role="group" aria-label={Texts.daysLabel}>
            {Texts.dayChoices.map((choice) => (
              <button
                key={choice}
                type="button"
                className="stats-period"
                aria-pressed={choice === days}
                onClick={() => {
                  setDays(choice);
                }}
              >
                {Texts.lastDays(choice)}
              </button>
            ))}
          </div>
        </div>
      </header>
      <div aria-busy={stats.isFetching}>{stats.data !== undefined && <ServerReport stats={stats.data} />}</div>
    </div>
  );
}
