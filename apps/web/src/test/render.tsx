import { QueryClientProvider } from '@tanstack/react-query';
import type { User } from '@tonearm/contract';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '../app/query-client.js';
import { SongActionsProvider } from '../app/SongActionsProvider.js';
import { createAudioDeck } from '../player/audio-deck.js';
import { createPlayerRuntime, type PlayerRuntime } from '../player/player-runtime.js';
import { PlayerProvider } from '../player/PlayerProvider.js';
import { createAlertStore, type AlertStore } from '../shell/alerts/alert-store.js';
import { AlertProvider } from '../shell/alerts/AlertProvider.js';
import { AuthContext, type AuthState } from '../shell/auth/useAuth.js';
import { ConfirmProvider } from '../shell/confirm/ConfirmProvider.js';
import { makeUser } from './fixtures.js';

export interface AppRenderOptions {
  user?: User | null;
  route?: string | { pathname: string; state?: unknown };
  /** The route pattern `ui` is rendered at (default: the route's pathname), e.g. '/dashboard/artist/:id'. */
  path?: string;
  /** Extra routes (path → element) next to the one under test, e.g. to observe a navigation. */
  routes?: Record<string, ReactNode>;
}

export interface AppRender extends RenderResult {
  alerts: AlertStore;
  player: PlayerRuntime;
  auth: AuthState;
  /** The alert texts currently shown. */
  alertMessages: () => string[];
}

function LocationProbe() {
  const location = useLocation();
  return (
    <div hidden data-testid="location">
      {location.pathname}
    </div>
  );
}

/** Renders `ui` at `route` inside the dashboard's providers with a fixed user (no auth calls). */
export function renderInApp(ui: ReactNode, options: AppRenderOptions = {}): AppRender {
  const alerts = createAlertStore();
  const queryClient = createQueryClient((message) => {
    alerts.show('error', message);
  });
  const player = createPlayerRuntime(createAudioDeck());
  const auth: AuthState = {
    user: options.user === undefined ? makeUser() : options.user,
    login: vi.fn(),
    register: vi.fn(),
    logout: vi.fn(() => Promise.resolve()),
    logoutEverywhere: vi.fn(() => Promise.resolve()),
    replaceUser: vi.fn(),
  };
  const route = options.route ?? '/dashboard/songs';
  const path = options.path ?? (typeof route === 'string' ? route.split('?')[0] : route.pathname);
  const result = render(
    <AlertProvider store={alerts}>
      <QueryClientProvider client={queryClient}>
        <AuthContext value={auth}>
          <PlayerProvider runtime={player}>
            <ConfirmProvider>
              <MemoryRouter initialEntries={[route]}>
                <SongActionsProvider>
                  <Routes>
                    <Route path={path} element={ui} />
                    {Object.entries(options.routes ?? {}).map(([routePath, element]) => (
                      <Route key={routePath} path={routePath} element={element} />
                    ))}
                  </Routes>
                  <LocationProbe />
                </SongActionsProvider>
              </MemoryRouter>
            </ConfirmProvider>
          </PlayerProvider>
        </AuthContext>
      </QueryClientProvider>
    </AlertProvider>,
  );
  return {
    ...result,
    alerts,
    player,
    auth,
    alertMessages: () => alerts.getSnapshot().map((alert) => alert.message),
  };
}
