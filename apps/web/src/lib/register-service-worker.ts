/**
 * Registers the service worker of production builds (app shell offline, downloaded songs, installable app). The dev
 * server has none: it would cache modules Vite is still rewriting.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = (): void => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      // Without a worker the app still works online; only offline features are missing.
      console.warn('Service worker registration failed', error);
    });
  };
  // After the load event, so the worker's own precache downloads never compete with the first page's requests.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
