import { NotFoundState } from '../ui/NotFoundState.js';
import '../ui/page.css';

/** An address under /dashboard that no page has: the not-found state inside the shell, sidebar and player kept. */
export function DashboardNotFoundPage() {
  return (
    <div className="page">
      <NotFoundState title="Page not found" text="This groove is empty: the page you asked for does not exist." />
    </div>
  );
}
