import { useEffect } from 'react';

/** The app's name, after a page's own title in the browser's tab ("Search · Tonearm"). */
export const APP_TITLE = 'Tonearm';

/** While the calling page is shown, the tab reads "`title` · Tonearm"; the title before it comes back on unmount. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    const before = document.title;
    document.title = `${title} · ${APP_TITLE}`;
    return () => {
      document.title = before;
    };
  }, [title]);
}
