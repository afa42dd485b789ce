import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { LandingHostContext, setupCodeOf, type LandingHost } from '../features/landing/landing-host.js';
import { Paths } from '../lib/paths.js';
import { readStoredUser } from '../shell/auth/stored-user.js';
import { RouteLoader } from '../ui/RouteLoader.js';
import { AppProviders } from './AppProviders.js';
import { preloadPages } from './pages.js';

const RoutedApp = lazy(() => import('./RoutedApp.js').then(({ RoutedApp: App }) => ({ default: App })));
const HomePage = lazy(() =>
  import('../features/landing/HomePage.js').then(({ HomePage: Page }) => ({ default: Page })),
);

/**
 * A signed-out start at `/`: the landing page needs neither the router nor the other pages, so it is shown on its own
 * (the first load stays small, issue 26). The sign-in moves to /dashboard in the address bar and hands over to the
 * routed app; the providers above stay, with the signed-in user.
 */
export function startsSignedOut(pathname: string): boolean {
  return pathname === Paths.home && readStoredUser() === undefined;
}

function SignedOutHome({ onSignedIn }: { onSignedIn: () => void }) {
  const host = useMemo<LandingHost>(
    () => ({
      setupCode: setupCodeOf(new URLSearchParams(window.location.search)),
      goToDashboard: (options) => {
        // Asked twice after a sign-in (the form, and the page seeing the user): one history entry.
        if (window.location.pathname === Paths.dashboard) {
          onSignedIn();
          return;
        }
        if (options?.replace === true) window.history.replaceState(null, '', Paths.dashboard);
        else window.history.pushState(null, '', Paths.dashboard);
        onSignedIn();
      },
    }),
    [onSignedIn],
  );
  return (
    <LandingHostContext value={host}>
      <HomePage />
    </LandingHostContext>
  );
}

/** A signed-in start: the page's chunks and first data load beside the router's chunk and the session check. */
function PreloadDashboard() {
  const queryClient = useQueryClient();
  // As it first renders, not after: the router's chunk is asked for in the same render.
  useState(() => {
    preloadPages(window.location.pathname, queryClient);
  });
  return null;
}

export function App() {
  const [routed, setRouted] = useState(() => !startsSignedOut(window.location.pathname));
  const [signedInStart] = useState(() => routed && readStoredUser() !== undefined);
  const [onSignedIn] = useState(() => () => {
    setRouted(true);
  });
  return (
    <AppProviders>
      {signedInStart && <PreloadDashboard />}
      <Suspense fallback={<RouteLoader />}>
        {routed ? <RoutedApp /> : <SignedOutHome onSignedIn={onSignedIn} />}
      </Suspense>
    </AppProviders>
  );
}
