import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './Shelf.css';

/** A titled row of tiles on the home page with an optional "Show all" link. */
export function Shelf({
  title,
  showAllTo,
  showAllState,
  children,
}: {
  title: string;
  showAllTo?: string;
  showAllState?: unknown;
  children: ReactNode;
}) {
  return (
    <section className="shelf" aria-label={title}>
      <header className="shelf__header">
        <h2 className="shelf__title">{title}</h2>
        {showAllTo && (
          <Link
            to={showAllTo}
            state={showAllState}
            className="shelf__more"
            aria-label={`Show all ${title.toLowerCase()}`}
          >
            Show all
          </Link>
        )}
      </header>
      {children}
    </section>
  );
}
