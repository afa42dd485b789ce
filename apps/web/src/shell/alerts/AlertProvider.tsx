import type { ReactNode } from 'react';
import type { AlertStore } from './alert-store.js';
import { AlertRegion } from './AlertRegion.js';
import { AlertStoreContext } from './useAlerts.js';

/** The store is created outside React so the QueryClient's error handler can raise alerts too. */
export function AlertProvider({ store, children }: { store: AlertStore; children: ReactNode }) {
  return (
    <AlertStoreContext value={store}>
      {children}
      <AlertRegion store={store} />
    </AlertStoreContext>
  );
}
