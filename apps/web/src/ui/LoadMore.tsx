import { useEffect, useEffectEvent, useState } from 'react';
import './buttons.css';
import './load-more.css';

export interface LoadMoreProps {
  /** What the button says, e.g. "Show more artists". */
  label: string;
  /** A page is on its way: the button waits. */
  loading: boolean;
  /** The last attempt failed: the button offers to try again and does not load by itself. */
  failed?: boolean;
  onLoad: () => void;
  /**
   * Also load when the button comes near the viewport (the end of a long list that pages on as you scroll). Each
   * page that arrives while the button is still in view loads the next one.
   */
  auto?: boolean;
}

/** How far below the viewport an `auto` button starts loading, so the next page is there before it is needed. */
const AUTO_LOAD_MARGIN = '0px 0px 400px 0px';

/** The end of a list paged by the server: a button that loads the next page, and with `auto` loads it on scroll. */
export function LoadMore({ label, loading, failed = false, onLoad, auto = false }: LoadMoreProps) {
  const [button, setButton] = useState<HTMLButtonElement | null>(null);
  const loadNow = useEffectEvent(onLoad);
  const watching = auto && !loading && !failed;
  useEffect(() => {
    if (!watching || !button || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadNow();
      },
      { rootMargin: AUTO_LOAD_MARGIN },
    );
    observer.observe(button);
    return () => {
      observer.disconnect();
    };
  }, [watching, button]);
  return (
    <div className="load-more">
      {failed && (
        <p className="load-more__note" role="status">
          The next page could not be loaded.
        </p>
      )}
      <button
        ref={setButton}
        type="button"
        className="button button--ghost button--small"
        disabled={loading}
        onClick={onLoad}
      >
        {loading ? 'Loading…' : failed ? 'Try again' : label}
      </button>
    </div>
  );
}
