import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ModuleDeps } from '../shared-deps.js';
import { usersPhotoRoutes } from './users-photo.routes.js';
import type { UsersPhotoService } from './users-photo.service.js';
import { usersRoutes } from './users.routes.js';
import type { UsersService } from './users.service.js';

/**
 * Accounts (`/api/users`) and profile photos. Photo uploads need the blob store, so without one only the account
 * routes are registered; they get their own scope, which parses multipart.
 */
export async function registerUsers(
  app: App,
  deps: Pick<ModuleDeps, 'config' | 'blobs' | 'images' | 'uploads'> & {
    users: UsersService;
    userPhotos: UsersPhotoService;
  },
): Promise<void> {
  usersRoutes(app, deps, deps.users);
  const store = deps.blobs;
  if (store === null) return;
  await registerUploadScope(app, (scope) => {
    usersPhotoRoutes(scope, deps.userPhotos, store, deps.images, deps.uploads);
  });
}
