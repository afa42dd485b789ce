import {
  isAdmin as policyIsAdmin,
  mayDownload,
  type LoginRequest,
  type RegisterRequest,
  type User,
} from '@tonearm/contract';
import { createContext, useContext } from 'react';

export interface LogoutEverywhereOptions {
  /** Also revoke what Subsonic apps sign in with: the app password and every API key. */
  revokeAppKeys?: boolean;
}

export interface AuthState {
  /** undefined while unknown (checking the stored user), null when logged out. */
  user: User | null | undefined;
  login: (credentials: LoginRequest) => Promise<User>;
  /** Registers, then logs in with the same credentials; answers the server's registration text. */
  register: (account: RegisterRequest) => Promise<string>;
  logout: () => Promise<void>;
  /**
   * Ends every session of the user on the server (every device, this one too), then logs out here. Subsonic apps stay
   * signed in unless `revokeAppKeys`: then the app password and every API key are revoked too.
   */
  logoutEverywhere: (options?: LogoutEverywhereOptions) => Promise<void>;
  /** Replaces the current user after the server returned a newer copy (e.g. premium granted). */
  replaceUser: (user: User) => void;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

/** For screens behind the /dashboard guard, where a user is always present. */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser needs a logged-in user (render it behind the dashboard guard)');
  return user;
}

/** The contract's access policy, for a user that may not be known yet. */
export function isAdmin(user: User | null | undefined): boolean {
  return user !== null && user !== undefined && policyIsAdmin(user);
}

/** SPEC §6: premium users and administrators get the song data loaded automatically. */
export function hasSongDataAccess(user: User | null | undefined): boolean {
  return user !== null && user !== undefined && mayDownload(user);
}

/** Downloads for offline listening: premium users and administrators (the server answers 403 to others). */
export function canDownload(user: User | null | undefined): boolean {
  return hasSongDataAccess(user);
}
