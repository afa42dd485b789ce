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
   * What someone signed out sees at a path, instead of the way to the login: the not-found page where no guarded page
   * has that address (SPEC §2: any other path is the not-found page), else null.
   */
  signedOutAt?: (pathname: string) => ReactNode;
}

/** The /dashboard guard: unknown user → loader, no user → home page, otherwise the dashboard. */
export function RequireUser({ children, preload, signedOutAt }: RequireUserProps) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  // Once, as the guard mounts (later navigations load their chunks as they render).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => preload?.(pathname, queryClient), []);
  if (user === undefined) return <RouteLoader label="Checking your session" />;
  if (user === null) return signedOutAt?.(pathname) ?? <Navigate to={Paths.home} replace />;
  return children;
}
