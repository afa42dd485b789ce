import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createPlaylistsRepository } from './playlists.repository.js';
import { playlistsRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';

/** Playlists in their own scope, which has the multipart parser for the cover upload. */
export async function registerPlaylists(app: App, deps: ModuleDeps): Promise<void> {
  const service = new PlaylistsService(createPlaylistsRepository(deps.db, deps.dialect), deps.releaseBlobs, {
    playlistsPerUser: deps.config.limits.playlistsPerUser,
    quota: deps.uploadQuota,
  });
  await registerUploadScope(app, (scope) => {
    playlistsRoutes(scope, deps, service, deps.uploads);
  });
}
