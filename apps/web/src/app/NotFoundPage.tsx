import { Link } from 'react-router';
import { Paths } from '../lib/paths.js';
import { LogoMark } from '../ui/icons.js';
import '../ui/buttons.css';
import '../ui/page.css';
import './NotFoundPage.css';

/** Any path SPEC §2 does not list. */
export function NotFoundPage() {
  return (
    <main className="page page--centered not-found">
      <LogoMark size={64} />
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 className="not-found__title">Page not found</h1>
      <p className="not-found__text">This groove is empty: the page you asked for does not exist.</p>
      <Link to={Paths.home} className="button button--primary">
        Go home
      </Link>
    </main>
  );
}
