import type { App, AppDeps } from '../http/app-types.js';
import { createBlobReferencesRepository } from '../maintenance/blob-references.repository.js';
import { createBlobReleaser } from '../maintenance/blob-release.js';
import { uploadRateLimit } from '../plugins/rate-limit.js';
import { AuthService } from './auth/auth.service.js';
import { LOGIN_FAILURE_WINDOW_MS, LoginAttempts } from './auth/login-attempts.js';
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
  const releaseBlobs =
    deps.blobs === null ? undefined : createBlobReleaser(deps.blobs, createBlobReferencesRepository(deps.db));
  const usersService = new UsersService(
    usersRepository,
    app.sessionStore,
    { registration: deps.config.registration, setupCode: deps.setupCode },
    releaseBlobs,
  );
  const attempts = new LoginAttempts(deps.config.loginFailuresPerAccount, LOGIN_FAILURE_WINDOW_MS);
  authRoutes(app, deps, new AuthService(usersRepository, usersService, app.sessionStore, attempts));
  usersRoutes(app, deps, usersService);
  const uploads = uploadRateLimit(app, deps.config.limits.uploadsPerMinute);
  await registerPlaylists(app, deps, uploads);
  registerPlays(app, deps);
  await registerPayments(app, deps);
  registerDownloads(app, deps);
  await registerCatalogue(app, deps, uploads);
  // Loads whatever plugins the modules registered, so their errors surface here rather than at listen().
  await app.after();
}
