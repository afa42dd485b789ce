import type { LoginRequest, RegisterRequest, User } from '@tonearm/contract';
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

export function fetchMe(): Promise<User> {
  return getJson<User>('/api/auth/me');
}

export function fetchUser(id: number): Promise<User> {
  return getJson<User>(`/api/users/id/${id}`);
}
