import { createContext, useContext } from 'react';

/**
 * What the landing page needs from whoever shows it: the `?setup=` code of its address, and the way into the
 * dashboard. The router's pages give it from react-router (RouterLandingHost); a signed-out start at `/` gives it
 * without loading the router at all (app/App.tsx), so the first page stays light.
 */
export interface LandingHost {
  /** The `?setup=` code of the link the server prints while it has no administrator. */
  setupCode: string | undefined;
  /** Goes to /dashboard (replacing this history entry when asked). */
  goToDashboard: (options?: { replace?: boolean }) => void | Promise<void>;
}

export const LandingHostContext = createContext<LandingHost | null>(null);

export function useLandingHost(): LandingHost {
  const host = useContext(LandingHostContext);
  if (!host) throw new Error('The landing page must be shown inside a LandingHostContext');
  return host;
}

/** The setup code of a query string: trimmed, and none when empty. */
export function setupCodeOf(search: URLSearchParams): string | undefined {
  const code = search.get('setup')?.trim();
  return code === undefined || code === '' ? undefined : code;
}
