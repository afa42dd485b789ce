import { ServerMessages } from '../messages.js';
import { endpoint } from './define.js';

/** Accounts and sessions (DESIGN §4 Auth). */
export const auth = {
  register: endpoint({
    method: 'POST',
    path: '/api/auth/register',
    access: 'public',
    body: 'RegisterRequest',
    responses: { 201: { text: ServerMessages.userRegistered } },
  }),
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    body: 'LoginRequest',
    responses: { 200: 'User' },
  }),
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', access: 'public', responses: { 204: 'empty' } }),
  logoutAll: endpoint({ method: 'POST', path: '/api/auth/logout-all', access: 'session', responses: { 204: 'empty' } }),
  /** logoutAll, and Subsonic apps signed out too (they sign in with the app password or an API key, not a session). */
  logoutAllWithAppKeys: endpoint({
    method: 'POST',
    path: '/api/auth/logout-all/with-app-keys',
    access: 'session',
    description:
      'Ends every session of the caller, like POST /api/auth/logout-all, and revokes their Subsonic app password and every API key.',
    responses: { 204: 'empty' },
  }),
  options: endpoint({ method: 'GET', path: '/api/auth/options', access: 'public', responses: { 200: 'AuthOptions' } }),
  me: endpoint({ method: 'GET', path: '/api/auth/me', access: 'session', responses: { 200: 'User' } }),
  ping: endpoint({
    method: 'GET',
    path: '/api/auth/ping',
    access: 'public',
    responses: { 200: { text: ServerMessages.pong } },
  }),
} as const;
