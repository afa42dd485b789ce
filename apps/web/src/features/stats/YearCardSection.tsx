import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@tonearm/contract';
import { useId, useState } from 'react';
import { urlOf } from '../../lib/api.js';
import { withQuery } from '../../lib/api-client.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { DownloadIcon } from '../../ui/icons.js';
import { statsQueries } from './queries.js';
import { StatsTexts as Texts } from './stats-texts.js';

/** Years to choose from: this one and the four before. */
const YEARS_SHOWN = 5;

/** The card's address for the year, in the listener's time zone. */
export function yearCardUrl(year: number, timeZone: string): string {
  return withQuery(urlOf(endpoints.stats.yearCard, { year }), { tz: timeZone });
}

/** Shares the card as a file where the browser can (phones, mostly); the button is there only then. */
async function shareCard(url: string, year: number): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${String(response.status)}`);
  const file = new File([await response.arrayBuffer()], `tonearm-${String(year)}.png`, { type: 'image/png' });
  const data = { files: [file], title: Texts.shareTitle(year) };
  if (!navigator.canShare(data)) throw new Error('cannot share files');
  await navigator.share(data);
}

const canShareFiles = (): boolean => typeof navigator.share === 'function' && typeof navigator.canShare === 'function';

/** "Your year": the card the server draws for a calendar year, to look at, download or share. */
export function YearCardSection({ timeZone }: { timeZone: string }) {
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const summary = useQuery(statsQueries.year(year, timeZone));
  const alerts = useAlerts();
  const selectId = useId();
  const url = yearCardUrl(year, timeZone);
  const minutes = summary.data?.year === year ? summary.data.minutes : 0;
  return (
    <section className="section stats-year">
      <h2 className="section-title">{Texts.yourYear}</h2>
      <div className="stats-year__body">
        <div className="stats-year__controls">
          <label htmlFor={selectId}>{Texts.yearLabel}</label>
          <select
            id={selectId}
            className="stats-year__select"
            value={year}
            onChange={(event) => {
              setYear(Number(event.target.value));
            }}
          >
            {Array.from({ length: YEARS_SHOWN }, (_, index) => thisYear - index).map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
          <a className="button button--primary" href={url} download={`tonearm-${String(year)}.png`}>
            <DownloadIcon size={18} />
            {Texts.downloadCard}
          </a>
          {canShareFiles() && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                shareCard(url, year).catch((error: unknown) => {
                  // Closing the share sheet is no failure.
                  if (error instanceof DOMException && error.name === 'AbortError') return;
                  alerts.error(Texts.shareFailed);
                });
              }}
            >
              {Texts.shareCard}
            </button>
          )}
        </div>
        <img
          className="stats-year__card"
          src={url}
          alt={Texts.yearCardAlt(year, minutes)}
          width={540}
          height={675}
          loading="lazy"
        />
      </div>
    </section>
  );
}
