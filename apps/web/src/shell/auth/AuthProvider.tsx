import { useQueryClient } from '@tanstack/react-query';
import { AUTH_CHECK_INTERVAL_MS, ServerMessages, type User } from '@tonearm/contract';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { isApiError, UNAUTHORIZED_EVENT } from '../../lib/api-client.js';
import { api } from '../../lib/api.js';
import { downloadsSignedIn, downloadsSignedOut } from '../../lib/download-session.js';
import { servedOfflineShell, serverReached } from '../../lib/offline-start.js';
import { useAlerts } from '../alerts/useAlerts.js';
import { clearSavedPlayer, clearSessionStorage, readStoredUser, storeUser } from './stored-user.js';
import { AuthContext, type AuthState, type LogoutEverywhereOptions } from './useAuth.js';

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && !navigator.onLine;
}

/**
 * Whether this page started without a connection: the browser says so, or the service worker answered it with the
 * cached shell because the network failed (lib/offline-start.ts; `navigator.onLine` may still say true there).
 */
function startedOffline(): boolean {
  return isOffline() || servedOfflineShell();
}

/** What the server answers when the session or the account is gone: the only answers that log out a waiting page. */
const SESSION_GONE: ReadonlySet<number> = new Set([401, 403, 404]);

/** While a page that started offline waits for the server, it asks again this often (and on the `online` event). */
export const RECONNECT_CHECK_MS = 15_000;

/** Unknown while the stored user is re-checked; offline the stored user is trusted until the connection returns. */
function initialUser(): User | null | undefined {
  const stored = readStoredUser();
  if (!stored) return null;
  return startedOffline() ? stored : undefined;
}

/**
 * SPEC §4/§7 current user: undefined → null or the user. A stored user is re-read from the server on start
 * (401/403, a deleted account or no network → logged out; a page that started offline waits for the server instead),
 * and the session is re-checked every 5 minutes.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const [user, setUser] = useState<User | null | undefined>(initialUser);
  // True from an offline start until the server answers: the 5-minute check waits for that too.
  const [waitingForServer, setWaitingForServer] = useState(startedOffline);

  const logout = useCallback(async () => {
    clearSessionStorage();
    // The downloads are the user's: put aside on this browser until they log in again, hidden from whoever is next.
    downloadsSignedOut();
    setUser(null);
    queryClient.clear();
    try {
      await api.auth.logout();
    } catch {
      // The session may already be gone on the server; locally the user is logged out either way.
    }
  }, [queryClient]);

  const logoutEverywhere = useCallback(
    async (options: LogoutEverywhereOptions = {}) => {
      try {
        // Ends every session of the signed-in user, this one included (and, when asked, their Subsonic app keys).
        await (options.revokeAppKeys === true ? api.auth.logoutAllWithAppKeys() : api.auth.logoutAll());
      } catch (error) {
        // 401: the session had already ended, which is what was asked for. Anything else: still signed in; say so.
        if (!isApiError(error, 401)) throw error;
      }
      await logout();
    },
    [logout],
  );

  const replaceUser = useCallback((next: User) => {
    storeUser(next);
    setUser(next);
  }, []);

  useEffect(() => {
    const stored = readStoredUser();
    if (!stored) {
      downloadsSignedOut();
      clearSavedPlayer();
      return;
    }
    // Downloads made before they were kept per user belong to whoever was signed in then: this stored user.
    downloadsSignedIn(stored.id, { adoptUnowned: true });
    let cancelled = false;
    const check = (): void => {
      api.users.byId({ id: stored.id }).then(
        (fresh) => {
          if (!cancelled) replaceUser(fresh);
        },
        (error: unknown) => {
          if (cancelled) return;
          // A server hiccup (5xx) is not the user's fault: keep them in with what we had.
          if (isApiError(error) && error.status >= 500) setUser(stored);
          else void logout();
        },
      );
    };
    if (!startedOffline()) {
      check();
      return () => {
        cancelled = true;
      };
    }
    // Started without a connection: the stored user stays (downloads play offline) and is checked once the server
    // answers. Until then no answer is no reason to log out; the server saying no (401, 403, 404) is.
    let retry: ReturnType<typeof setTimeout> | undefined;
    let asking = false;
    const stop = (): void => {
      clearTimeout(retry);
      window.removeEventListener('online', reconnect);
    };
    // Whoever is stored now: a logout (or another login) meanwhile ends this wait; its answer is no longer wanted.
    const stillWaiting = (): boolean => !cancelled && readStoredUser()?.id === stored.id;
    const reconnect = (): void => {
      clearTimeout(retry);
      if (asking) return;
      if (!stillWaiting()) {
        stop();
        return;
      }
      // `navigator.onLine` false is to be believed (true is not): no request until it changes.
      if (isOffline()) {
        retry = setTimeout(reconnect, RECONNECT_CHECK_MS);
        return;
      }
      asking = true;
      api.users.byId({ id: stored.id }).then(
        (fresh) => {
          asking = false;
          if (!stillWaiting()) return;
          stop();
          serverReached();
          setWaitingForServer(false);
          replaceUser(fresh);
        },
        (error: unknown) => {
          asking = false;
          if (!stillWaiting()) return;
          if (isApiError(error) && SESSION_GONE.has(error.status)) {
            stop();
            serverReached();
            setWaitingForServer(false);
            void logout();
            return;
          }
          retry = setTimeout(reconnect, RECONNECT_CHECK_MS);
        },
      );
    };
    window.addEventListener('online', reconnect);
    retry = setTimeout(reconnect, RECONNECT_CHECK_MS);
    return () => {
      cancelled = true;
      stop();
    };
  }, [logout, replaceUser]);

  const userId = user?.id;
  // A 401 from any request means the session ended (expired, logged out elsewhere): say so, and log out here too.
  useEffect(() => {
    if (userId === undefined) return;
    const onUnauthorized = (): void => {
      alerts.error(ServerMessages.notAuthenticated);
      void logout();
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => {
      window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    };
  }, [userId, logout, alerts]);

  useEffect(() => {
    if (userId === undefined || waitingForServer) return;
    const timer = setInterval(() => {
      // Offline the check cannot succeed; it is no reason to log out of downloaded music.
      if (isOffline()) return;
      api.auth.me().then(
        (me) => {
          if (me.id === userId) replaceUser(me);
          else void logout();
        },
        () => void logout(),
      );
    }, AUTH_CHECK_INTERVAL_MS);
    return () => {
      clearInterval(timer);
    };
  }, [userId, waitingForServer, logout, replaceUser]);

  const login = useCallback(
    async (credentials: Parameters<AuthState['login']>[0]) => {
      const loggedIn = await api.auth.login({ body: credentials });
      serverReached();
      setWaitingForServer(false);
      queryClient.clear();
      downloadsSignedIn(loggedIn.id);
      replaceUser(loggedIn);
      return loggedIn;
    },
    [queryClient, replaceUser],
  );

  const register = useCallback<AuthState['register']>(
    async (account) => {
      // The server's text, "User registered successfully".
      const message = await api.auth.register({ body: account });
      await login({ username: account.username, password: account.password });
      return message;
    },
    [login],
  );

  const value = useMemo<AuthState>(
    () => ({ user, login, register, logout, logoutEverywhere, replaceUser }),
    [user, login, register, logout, logoutEverywhere, replaceUser],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
