import type { App, AppDeps } from '../../http/app-types.js';
import { registerMultipart } from '../../http/multipart.js';
import { createBlobReferencesRepository } from '../../maintenance/blob-references.repository.js';
import { createBlobReleaser } from '../../maintenance/blob-release.js';
import type { SharedRateLimit } from '../../plugins/rate-limit.js';
import { createUploadQuota } from '../limits/upload-quota.module.js';
import { createPlaylistsRepository } from './playlists.repository.js';
import { playlistsRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';

/** Playlists in their own scope, which has the multipart parser for the cover upload. */
/** `uploads` is the upload rate limit shared with the other upload routes. */
export async function registerPlaylists(app: App, deps: AppDeps, uploads: SharedRateLimit): Promise<void> {
  // Without a store (tests of other modules) there are no covers to release.
  const releaseBlobs =
    deps.blobs === null
      ? () => Promise.resolve()
      : createBlobReleaser(deps.blobs, createBlobReferencesRepository(deps.db));
  const service = new PlaylistsService(createPlaylistsRepository(deps.db, deps.dialect), releaseBlobs, {
    playlistsPerUser: deps.config.limits.playlistsPerUser,
    quota: createUploadQuota(deps),
  });
  await app.register(async (scope) => {
    await registerMultipart(scope);
    playlistsRoutes(scope, deps, service, uploads);
  });
}
