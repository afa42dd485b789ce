import { createContext, useContext, useMemo } from 'react';
import type { AlertStore } from './alert-store.js';

export interface Alerts {
  /** Red alert, optionally with a second line (e.g. the server's reason). */
  error: (message: string, detail?: string) => void;
  /** Success alert; the spec shows the server's text here. */
  success: (message: string) => void;
}

export const AlertStoreContext = createContext<AlertStore | null>(null);

export function useAlerts(): Alerts {
  const store = useContext(AlertStoreContext);
  if (!store) throw new Error('useAlerts must be used inside <AlertProvider>');
  return useMemo(
    () => ({
      error: (message, detail) => {
        store.show('error', message, detail);
      },
      success: (message) => {
        store.show('success', message);
      },
    }),
    [store],
  );
}
