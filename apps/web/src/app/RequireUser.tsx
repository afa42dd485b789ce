import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Paths } from '../lib/paths.js';
import { useAuth } from '../shell/auth/useAuth.js';
import { RouteLoader } from '../ui/RouteLoader.js';

/** The /dashboard guard: unknown user → loader, no user → home page, otherwise the dashboard. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (user === undefined) return <RouteLoader label="Checking your session" />;
  if (user === null) return <Navigate to={Paths.home} replace />;
  return children;
}
