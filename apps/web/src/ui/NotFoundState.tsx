import { useId } from 'react';
import { Link } from 'react-router';
import { Paths } from '../lib/paths.js';
import { MusicIcon } from './icons.js';
import './buttons.css';
import './empty-state.css';

export interface NotFoundStateProps {
  /** The page's heading: what is not there ("Playlist not found"). */
  title: string;
  /** Why it may be missing, in a sentence. */
  text: string;
  /** The list it belongs to, as a way back; the home page is always offered too. */
  back?: { to: string; label: string };
}

/**
 * What a dashboard page shows for something that is not there (an unknown address, a deleted playlist, an album id
 * nobody has): inside the app shell, with the sidebar and the player, a heading and a way back (issue 26).
 */
export function NotFoundState({ title, text, back }: NotFoundStateProps) {
  const titleId = useId();
  return (
    <section className="empty-state not-found-state" aria-labelledby={titleId}>
      <span className="empty-state__icon" aria-hidden="true">
        <MusicIcon size={28} />
      </span>
      <h1 id={titleId} className="empty-state__title">
        {title}
      </h1>
      <p>{text}</p>
      <div className="not-found-state__actions">
        {back !== undefined && (
          <Link to={back.to} className="button button--primary">
            {back.label}
          </Link>
        )}
        <Link to={Paths.dashboard} className={`button ${back === undefined ? 'button--primary' : 'button--ghost'}`}>
          Go to Home
        </Link>
      </div>
    </section>
  );
}
