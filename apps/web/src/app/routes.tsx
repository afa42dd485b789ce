import { Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { RouterLandingHost } from '../features/landing/RouterLandingHost.js';
import { RouteLoader } from '../ui/RouteLoader.js';
import {
  DashboardLayout,
  DashboardNotFoundPage,
  dashboardPages,
  dashboardPath,
  HomePage,
  NotFoundPage,
  preloadPages,
} from './pages.js';
import { RequireUser } from './RequireUser.js';
import { RouteError } from './RouteError.js';

/** The not-found page at an address no dashboard page has, for someone signed out; null at a dashboard page's. */
function unknownWhenSignedOut(pathname: string): ReactNode {
  const path = dashboardPath(pathname);
  if (path !== null && Object.hasOwn(dashboardPages, path)) return null;
  return (
    <Loading>
      <NotFoundPage />
    </Loading>
  );
}

/** Pages load on demand with the loading animation meanwhile (SPEC §2). */
function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<RouteLoader />}>{children}</Suspense>;
}

/** SPEC §2 routes, exactly. Dashboard pages render inside the shell's own Suspense boundary. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        path: '/',
        element: (
          <RouterLandingHost>
            <Loading>
              <HomePage />
            </Loading>
          </RouterLandingHost>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireUser preload={preloadPages} signedOutAt={unknownWhenSignedOut}>
            <Loading>
              <DashboardLayout />
            </Loading>
          </RequireUser>
        ),
        children: [
          ...Object.entries(dashboardPages).map(([path, Page]) =>
            path === '' ? { index: true, element: <Page /> } : { path, element: <Page /> },
          ),
          // Any other address below /dashboard: not found, inside the shell (issue 26).
          { path: '*', element: <DashboardNotFoundPage /> },
        ],
      },
      {
        path: '*',
        element: (
          <Loading>
            <NotFoundPage />
          </Loading>
        ),
      },
    ],
  },
];
