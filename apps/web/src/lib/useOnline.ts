import { useSyncExternalStore } from 'react';
import { SERVER_REACHED_EVENT, servedOfflineShell } from './offline-start.js';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  window.addEventListener(SERVER_REACHED_EVENT, listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
    window.removeEventListener(SERVER_REACHED_EVENT, listener);
  };
}

const isOnline = (): boolean => navigator.onLine && !servedOfflineShell();

/**
 * Whether the browser believes it has a network connection: not in a page the service worker answered offline until
 * that page reaches the server (lib/offline-start.ts).
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
