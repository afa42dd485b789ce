import type { AuthOptions, LoginRequest, RegisterRequest, User } from '@tonearm/contract';
import { getJson, send, sendForJson, sendForText } from '../../lib/api-client.js';

export function login(credentials: LoginRequest): Promise<User> {
  return sendForJson<User>('/api/auth/login', 'POST', credentials);
}

/** Answers the server's text, "User registered successfully". */
export function register(account: RegisterRequest): Promise<string> {
  return sendForText('/api/auth/register', 'POST', account);
}

export async function logout(): Promise<void> {
  await send('/api/auth/logout', 'POST');
}

/** Ends every session of the signed-in user, this one included. */
export async function logoutAll(): Promise<void> {
  await send('/api/auth/logout-all', 'POST');
}

/** Whether sign-up is open here, and whether an account made from this browser would administer the server. */
export function fetchAuthOptions(signal?: AbortSignal): Promise<AuthOptions> {
  return getJson<AuthOptions>('/api/auth/options', signal);
}

export function fetchMe(): Promise<User> {
  return getJson<User>('/api/auth/me');
}

export function fetchUser(id: number): Promise<User> {
  return getJson<User>(`/api/users/id/${id}`);
}
