import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireUser } from '../../http/session.js';
import type { LibrariesService } from './libraries.service.js';
import { libraryFoldersRoutes } from './library-folders.routes.js';
import type { LibraryFoldersService } from './library-folders.service.js';

/**
 * Libraries: music folders on the server read in place. Administrators only (the route guard checks the role): list,
 * add (checked, then scanned), rename, rescan, purge the missing songs of, and remove (songs only, never a file). And
 * the Folders view, for every signed-in user: the libraries they see, browsed by their real folders.
 */
export function registerLibraries(
  app: App,
  { libraries, folders }: { libraries: LibrariesService; folders: LibraryFoldersService },
): void {
  route(app, endpoints.libraries.list, async () => ({ libraries: await libraries.list() }));
  route(app, endpoints.libraries.create, async (request) =>
    libraries.create(request.body, (await requireUser(request)).id),
  );
  route(app, endpoints.libraries.get, (request) => libraries.get(request.params.libraryId));
  route(app, endpoints.libraries.rename, (request) => libraries.rename(request.params.libraryId, request.body.name));
  route(app, endpoints.libraries.remove, async (request) => {
    await libraries.remove(request.params.libraryId);
  });
  route(app, endpoints.libraries.setAccess, (request) => libraries.setAccess(request.params.libraryId, request.body));
  route(app, endpoints.libraries.scan, (request) => libraries.scan(request.params.libraryId));
  route(app, endpoints.libraries.purgeMissing, (request) => libraries.purgeMissing(request.params.libraryId));
  libraryFoldersRoutes(app, folders);
}
