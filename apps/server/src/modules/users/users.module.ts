import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createUsersPhotoRepository } from './users-photo.repository.js';
import { usersPhotoRoutes } from './users-photo.routes.js';
import { UsersPhotoService } from './users-photo.service.js';
import { createUsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { UsersService } from './users.service.js';

/** The account rules over the app's database: users' own routes, and sign-up and sign-in (modules/auth). */
export function createUsersService(
  deps: Pick<ModuleDeps, 'db' | 'dialect' | 'sessions' | 'config' | 'setupCode' | 'releaseBlobs'>,
): UsersService {
  return new UsersService(
    createUsersRepository(deps.db, deps.dialect),
    deps.sessions,
    { registration: deps.config.registration, setupCode: deps.setupCode },
    deps.releaseBlobs,
  );
}

/**
 * Accounts (`/api/users`) and profile photos. Photo uploads need the blob store, so without one only the account
 * routes are registered; they get their own scope, which parses multipart.
 */
export async function registerUsers(app: App, deps: ModuleDeps): Promise<void> {
  usersRoutes(app, deps, createUsersService(deps));
  const store = deps.blobs;
  if (store === null) return;
  const photos = new UsersPhotoService(createUsersPhotoRepository(deps.db), deps.releaseBlobs, deps.uploadQuota);
  await registerUploadScope(app, (scope) => {
    usersPhotoRoutes(scope, photos, store, deps.images, deps.uploads);
  });
}
