import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Paths } from '../lib/paths.js';
import { useAuth } from '../shell/auth/useAuth.js';
import { RouteLoader } from '../ui/RouteLoader.js';

interface RequireUserProps {
  children: ReactNode;
  /** Called once with the path it guards, as it mounts: the page's chunks and data can load during the session check. */
  preload?: (pathname: string, queryClient: QueryClient) => void;
  /**
   * Whether the path names a page it guards. Nobody signed in at a path it does not name sees `notFound` (SPEC §2:
   * any other path is the not-found page) rather than the way to the login.
   */
  knows?: (pathname: string) => boolean;
  notFound?: ReactNode;
}

/** The /dashboard guard: unknown user → loader, no user → home page, otherwise the dashboard. */
export function RequireUser({ children, preload, knows, notFound }: RequireUserProps) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  // Once, as the guard mounts (later navigations load their chunks as they render).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => preload?.(pathname, queryClient), []);
  if (user === undefined) return <RouteLoader label="Checking your session" />;
  if (user === null) {
    if (notFound !== undefined && knows?.(pathname) === false) return notFound;
    return <Navigate to={Paths.home} replace />;
  }
  return children;
}
