import { isRouteErrorResponse, useRouteError } from 'react-router';
import '../ui/buttons.css';
import '../ui/empty-state.css';
import '../ui/page.css';

/** Shown when a page fails to render or its code cannot be fetched (e.g. after a deploy, offline). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <div className="page page--centered">
      <div className="empty-state">
        <h1 className="empty-state__title">Something went wrong</h1>
        <p>This page could not be shown{detail ? ` (${detail})` : ''}. Reloading usually helps.</p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}
