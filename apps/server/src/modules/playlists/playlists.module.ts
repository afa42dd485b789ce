import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ModuleDeps } from '../shared-deps.js';
import { playlistsRoutes } from './playlists.routes.js';
import type { PlaylistsService } from './playlists.service.js';
import { smartPlaylistsRoutes } from './smart-playlists.routes.js';
import type { SmartPlaylistsService } from './smart-playlists.service.js';

/** Playlists in their own scope, which has the multipart parser for the cover upload. */
export async function registerPlaylists(
  app: App,
  deps: Parameters<typeof playlistsRoutes>[1] &
    Pick<ModuleDeps, 'uploads'> & { playlists: PlaylistsService; smartPlaylists: SmartPlaylistsService },
): Promise<void> {
  await registerUploadScope(app, (scope) => {
    playlistsRoutes(scope, deps, deps.playlists, deps.uploads);
  });
  smartPlaylistsRoutes(app, deps.playlists, deps.smartPlaylists);
}
