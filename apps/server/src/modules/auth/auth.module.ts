import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createUsersRepository } from '../users/users.repository.js';
import { createUsersService } from '../users/users.module.js';
import { createAppKeysRepository } from './app-keys.repository.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { LOGIN_FAILURE_WINDOW_MS, LoginAttempts } from './login-attempts.js';

/** Sign-up, sign-in and sign-out (`/api/auth`). Accounts themselves are the users module's. */
export function registerAuth(app: App, deps: ModuleDeps): void {
  const attempts = new LoginAttempts(
    deps.counters,
    'login',
    deps.config.loginFailuresPerAccount,
    LOGIN_FAILURE_WINDOW_MS,
  );
  const users = createUsersRepository(deps.db, deps.dialect);
  const service = new AuthService(
    users,
    createUsersService(deps),
    deps.sessions,
    attempts,
    createAppKeysRepository(deps.db),
  );
  authRoutes(app, deps, service);
}
