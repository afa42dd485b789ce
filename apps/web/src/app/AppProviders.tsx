import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { PlayerProvider } from '../player/PlayerProvider.js';
import { createAlertStore } from '../shell/alerts/alert-store.js';
import { AlertProvider } from '../shell/alerts/AlertProvider.js';
import { AuthProvider } from '../shell/auth/AuthProvider.js';
import { ConfirmProvider } from '../shell/confirm/ConfirmProvider.js';
import { createQueryClient } from './query-client.js';

/** Everything above the router: alerts, server state, the user, the player (so music survives navigation). */
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
        <AuthProvider>
          <PlayerProvider>
            <ConfirmProvider>{children}</ConfirmProvider>
          </PlayerProvider>
        </AuthProvider>
      </QueryClientProvider>
    </AlertProvider>
  );
}
