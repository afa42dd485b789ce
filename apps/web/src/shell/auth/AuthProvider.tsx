import { useQueryClient } from '@tanstack/react-query';
import { AUTH_CHECK_INTERVAL_MS, ServerMessages, type User } from '@tonearm/contract';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { isApiError, UNAUTHORIZED_EVENT } from '../../lib/api-client.js';
import { api } from '../../lib/api.js';
import { downloadsSignedIn, downloadsSignedOut } from '../../lib/download-session.js';
import { useAlerts } from '../alerts/useAlerts.js';
import { clearSessionStorage, readStoredUser, storeUser } from './stored-user.js';
import { AuthContext, type AuthState } from './useAuth.js';

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && !navigator.onLine;
}

/** Unknown while the stored user is re-checked; offline the stored user is trusted until the connection returns. */
function initialUser(): User | null | undefined {
  const stored = readStoredUser();
  if (!stored) return null;
  return isOffline() ? stored : undefined;
}

/**
 * SPEC §4/§7 current user: undefined → null or the user. A stored user is re-read from the server on start
 * (401/403, a deleted account or no network → logged out), and the session is re-checked every 5 minutes.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const [user, setUser] = useState<User | null | undefined>(initialUser);

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

  const logoutEverywhere = useCallback(async () => {
    try {
      // Ends every session of the signed-in user, this one included.
      await api.auth.logoutAll();
    } catch (error) {
      // 401: the session had already ended, which is what was asked for. Anything else: still signed in; say so.
      if (!isApiError(error, 401)) throw error;
    }
    await logout();
  }, [logout]);

  const replaceUser = useCallback((next: User) => {
    storeUser(next);
    setUser(next);
  }, []);

  useEffect(() => {
    const stored = readStoredUser();
    if (!stored) {
      downloadsSignedOut();
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
    if (!isOffline()) {
      check();
      return () => {
        cancelled = true;
      };
    }
    // Started without a connection: the stored user stays (downloads play offline) and is checked once it is back.
    window.addEventListener('online', check, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('online', check);
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
    if (userId === undefined) return;
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
  }, [userId, logout, replaceUser]);

  const login = useCallback(
    async (credentials: Parameters<AuthState['login']>[0]) => {
      const loggedIn = await api.auth.login({ body: credentials });
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
