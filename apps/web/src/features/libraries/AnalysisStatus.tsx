import { useQuery } from '@tanstack/react-query';
import { AnalysisClientMessages as Texts, type AnalysisProgress } from '@tonearm/contract';
import { useId } from 'react';
import { analysisQueries } from './analysis-queries.js';
import { formatCount, formatRate } from './library-format.js';
import '../../ui/badge.css';
import '../../ui/card.css';
import './Libraries.css';

function StateBadge({ state }: { state: AnalysisProgress['state'] }) {
  const [text, tone] =
    state === 'off'
      ? [Texts.off, 'badge']
      : state === 'working'
        ? [Texts.working, 'badge badge--accent']
        : [Texts.idle, 'badge badge--success'];
  return <span className={tone}>{text}</span>;
}

function AnalysisBar({ progress }: { progress: AnalysisProgress }) {
  const done = progress.analysed + progress.failed;
  const percent = progress.songs > 0 ? Math.min(100, (done / progress.songs) * 100) : 100;
  return (
    <div className="scan__progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={Texts.progressLabel}
        aria-valuemin={0}
        aria-valuemax={progress.songs}
        aria-valuenow={done}
        aria-valuetext={Texts.progressText(done, progress.songs)}
      >
        <span className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="scan__progress-text">{Texts.progressText(done, progress.songs)}</p>
    </div>
  );
}

function AnalysisCounts({ progress }: { progress: AnalysisProgress }) {
  const counts: [string, string][] = [
    [Texts.analysed, formatCount(progress.analysed)],
    [Texts.failed, formatCount(progress.failed)],
    [Texts.pending, formatCount(progress.pending)],
    [Texts.songsPerSecond, formatRate(progress.songsPerSecond)],
  ];
  return (
    <dl className="scan__counts">
      {counts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Failures({ failures }: { failures: AnalysisProgress['recentFailures'] }) {
  return (
    <div className="scan__problems">
      <h3 className="scan__problems-title">{Texts.failures(failures.length)}</h3>
      <ul className="scan__problem-list">
        {failures.map((failure) => (
          <li key={failure.songId} className="scan__problem">
            <span className="scan__problem-path">{failure.name}</span>
            <span className="scan__problem-reason">{failure.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The Libraries page's panel of the background audio analysis (issue 28): its state, how far it has gone over the
 * catalogue, its rate and its latest failures; polled while it works. A failure to load stays in the panel (the page's
 * own alert is the libraries list's).
 */
export function AnalysisStatus() {
  const titleId = useId();
  const query = useQuery(analysisQueries.progress());
  const progress = query.data;
  return (
    <section className="card analysis" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {Texts.title}
      </h2>
      <p className="muted">{Texts.intro}</p>
      {query.isError && <p className="empty-state empty-state--compact">{Texts.failedToLoad}</p>}
      {progress !== undefined && (
        <>
          <p>
            <StateBadge state={progress.state} />
          </p>
          <AnalysisBar progress={progress} />
          <AnalysisCounts progress={progress} />
          {progress.recentFailures.length > 0 && <Failures failures={progress.recentFailures} />}
        </>
      )}
    </section>
  );
}
