import { LibraryClientMessages as Texts, type Library, type LibraryScan, type ScanProblem } from '@tonearm/contract';
import { useId, useState } from 'react';
import { formatCount, formatRate, formatWhen } from './library-format.js';
import '../../ui/badge.css';
import '../../ui/buttons.css';
import './Libraries.css';

/** How many problems a report lists before the rest fold away behind "Show all". */
export const PROBLEMS_SHOWN = 5;

function ScanCounts({ scan }: { scan: LibraryScan }) {
  // The playlist files are read once the scan has gone through the whole folder: only a finished scan has read them.
  const playlists: [string, string][] =
    scan.state === 'done'
      ? [
          [Texts.playlists, formatCount(scan.playlists)],
          [Texts.unmatchedEntries, formatCount(scan.unmatchedEntries)],
        ]
      : [];
  const counts: [string, string][] = [
    [Texts.filesSeen, formatCount(scan.seen)],
    [Texts.added, formatCount(scan.added)],
    [Texts.updated, formatCount(scan.updated)],
    [Texts.moved, formatCount(scan.moved)],
    [Texts.missing, formatCount(scan.missing)],
    [Texts.errors, formatCount(scan.errors)],
    [Texts.filesPerSecond, formatRate(scan.filesPerSecond)],
    ...playlists,
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

function ScanProgress({ library, scan }: { library: Library; scan: LibraryScan }) {
  // Before the walk has found a file the bar has no length yet: it is indeterminate (no value).
  const known = scan.seen > 0;
  const percent = known ? Math.min(100, (scan.done / scan.seen) * 100) : 0;
  return (
    <div className="scan__progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={Texts.progressLabel(library.name)}
        aria-valuemin={0}
        aria-valuemax={scan.seen}
        aria-valuenow={known ? scan.done : undefined}
        aria-valuetext={known ? Texts.progressText(scan.done, scan.seen) : undefined}
      >
        <span className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="scan__progress-text">{Texts.progressText(scan.done, scan.seen)}</p>
    </div>
  );
}

function Problems({ problems }: { problems: readonly ScanProblem[] }) {
  const [all, setAll] = useState(false);
  const listId = useId();
  const long = problems.length > PROBLEMS_SHOWN;
  const shown = all || !long ? problems : problems.slice(0, PROBLEMS_SHOWN);
  return (
    <div className="scan__problems">
      <h4 className="scan__problems-title">{Texts.problems(problems.length)}</h4>
      <ul id={listId} className="scan__problem-list">
        {shown.map((problem, index) => (
          <li key={`${String(index)}:${problem.path}`} className="scan__problem">
            <span className="scan__problem-path">{problem.path === '' ? Texts.wholeFolder : problem.path}</span>
            <span className="scan__problem-reason">{problem.reason}</span>
          </li>
        ))}
      </ul>
      {long && (
        <button
          type="button"
          className="link-button"
          aria-expanded={all}
          aria-controls={listId}
          onClick={() => {
            setAll(!all);
          }}
        >
          {all ? Texts.showFewerProblems : Texts.showAllProblems(problems.length)}
        </button>
      )}
    </div>
  );
}

/** A library's scan: while it runs, its progress and counts; afterwards, its report with the problems it met. */
export function ScanStatus({ library, scan }: { library: Library; scan: LibraryScan }) {
  const running = scan.state === 'running';
  const failed = scan.state === 'failed';
  return (
    <section className="scan" aria-label={running ? Texts.scanning : failed ? Texts.scanFailed : Texts.scanDone}>
      <h3 className="scan__title">
        <span className={failed ? 'badge badge--danger' : running ? 'badge badge--accent' : 'badge badge--success'}>
          {running ? Texts.scanning : failed ? Texts.scanFailed : Texts.scanDone}
        </span>
        <span className="scan__when">{formatWhen(running ? scan.startedAt : (scan.finishedAt ?? scan.startedAt))}</span>
      </h3>
      {running && <ScanProgress library={library} scan={scan} />}
      <ScanCounts scan={scan} />
      {!running && scan.problems.length > 0 && <Problems problems={scan.problems} />}
    </section>
  );
}
