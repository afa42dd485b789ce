import type { App, AppDeps } from '../../http/app-types.js';
import { registerMultipart } from '../../http/multipart.js';
import { createPlaylistsRepository } from './playlists.repository.js';
import { playlistsRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';

/** Playlists in their own scope, which has the multipart parser for the cover upload. */
export async function registerPlaylists(app: App, deps: AppDeps): Promise<void> {
  await app.register(async (scope) => {
    await registerMultipart(scope);
    playlistsRoutes(scope, deps, new PlaylistsService(createPlaylistsRepository(deps.db, deps.dialect)));
  });
}
