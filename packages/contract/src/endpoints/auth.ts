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
  options: endpoint({ method: 'GET', path: '/api/auth/options', access: 'public', responses: { 200: 'AuthOptions' } }),
  me: endpoint({ method: 'GET', path: '/api/auth/me', access: 'session', responses: { 200: 'User' } }),
  ping: endpoint({
    method: 'GET',
    path: '/api/auth/ping',
    access: 'public',
    responses: { 200: { text: ServerMessages.pong } },
  }),
} as const;
