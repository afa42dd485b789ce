import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createAlertStore } from '../shell/alerts/alert-store.js';
import { AlertProvider } from '../shell/alerts/AlertProvider.js';
import { AuthProvider } from '../shell/auth/AuthProvider.js';
import { createQueryClient } from './query-client.js';

/**
 * Everything above the router: alerts, server state, the user. The confirm dialog is the routed app's
 * (app/RoutedApp.tsx) and the player the dashboard layout's, so the signed-out page loads neither.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const [alertStore] = useState(() => createAlertStore());
  const [queryClient] = useState(() =>
    createQueryClient((message) => {
      alertStore.show('error', message);
    }),
  );
  return (
    <AlertProvider store={alertStore}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </AlertProvider>
  );
}
