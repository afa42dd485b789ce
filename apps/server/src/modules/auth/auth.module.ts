import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { authRoutes } from './auth.routes.js';
import type { AuthService } from './auth.service.js';

/** Sign-up, sign-in and sign-out (`/api/auth`). Accounts themselves are the users module's. */
export function registerAuth(app: App, deps: Pick<ModuleDeps, 'config'> & { auth: AuthService }): void {
  authRoutes(app, deps, deps.auth);
}
