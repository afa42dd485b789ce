/**
 * A page the service worker answered with the cached shell because the network failed carries this meta element
 * (sw/sw-routes.ts adds it). `navigator.onLine` cannot be trusted in such a document (Chromium reports true in a page
 * the worker answered while offline), so the page reads the mark to know it started without a connection, until the
 * server answers once.
 */
export const OFFLINE_SHELL_META = 'tonearm-offline-shell';

/** Fired on window when a page that started offline reaches the server. */
export const SERVER_REACHED_EVENT = 'tonearm:server-reached';

const mark = (): Element | null =>
  typeof document === 'undefined' ? null : document.querySelector(`meta[name="${OFFLINE_SHELL_META}"]`);

/** Whether this page is the offline shell and has not reached the server since. */
export function servedOfflineShell(): boolean {
  return mark() !== null;
}

/** The server answered: the page is no longer the offline shell (the mark goes, and listeners are told). */
export function serverReached(): void {
  const element = mark();
  if (element === null) return;
  element.remove();
  window.dispatchEvent(new Event(SERVER_REACHED_EVENT));
}
