import { useMemo, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { LandingHostContext, setupCodeOf, type LandingHost } from './landing-host.js';

/** The landing page's host inside the router: the address's search and react-router's navigation. */
export function RouterLandingHost({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const setupCode = setupCodeOf(params);
  const host = useMemo<LandingHost>(
    () => ({
      setupCode,
      goToDashboard: (options) => navigate(Paths.dashboard, { replace: options?.replace === true }),
    }),
    [setupCode, navigate],
  );
  return <LandingHostContext value={host}>{children}</LandingHostContext>;
}
