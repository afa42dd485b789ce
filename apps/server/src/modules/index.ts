import type { App, AppDeps } from '../http/app-types.js';
import { AuthService } from './auth/auth.service.js';
import { authRoutes } from './auth/auth.routes.js';
import { createUsersRepository } from './users/users.repository.js';
import { usersRoutes } from './users/users.routes.js';
import { UsersService } from './users/users.service.js';
import { registerDownloads } from './downloads/downloads.module.js';
import { registerPayments } from './payments/payments.module.js';
import { registerPlaylists } from './playlists/playlists.module.js';
import { registerPlays } from './plays/plays.module.js';
import { registerCatalogue } from './songs/catalogue.module.js';

/**
 * Registers every feature's routes on the root instance (after the core plugins, so rate limits, OpenAPI and the
 * session helpers apply). Append new modules at the end.
 */
export async function registerModules(app: App, deps: AppDeps): Promise<void> {
  const usersRepository = createUsersRepository(deps.db, deps.dialect);
  const usersService = new UsersService(usersRepository, app.sessionStore, {
    registration: deps.config.registration,
    setupCode: deps.setupCode,
  });
  authRoutes(app, deps, new AuthService(usersRepository, usersService, app.sessionStore, deps.config.registration));
  usersRoutes(app, deps, usersService);
  await registerPlaylists(app, deps);
  registerPlays(app, deps);
  await registerPayments(app, deps);
  registerDownloads(app, deps);
  await registerCatalogue(app, deps);
  // Loads whatever plugins the modules registered, so their errors surface here rather than at listen().
  await app.after();
}
