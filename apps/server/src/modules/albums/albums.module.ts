import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createSongsService } from '../songs/songs.module.js';
import { createAlbumsRepository } from './albums.repository.js';
import { albumCoverRoutes, albumsReadRoutes, albumsWriteRoutes } from './albums.routes.js';
import { AlbumsService } from './albums.service.js';

/**
 * Albums (issue 12): pages of albums and one album's songs as the viewer sees them; admins edit them. Covers upload
 * through the media pipeline, so without a blob store that route is not registered; it gets a scope of its own, which
 * parses multipart.
 */
export async function registerAlbums(app: App, deps: ModuleDeps): Promise<void> {
  const albums = new AlbumsService(
    createAlbumsRepository(deps.db),
    createSongsService(deps),
    createArtistsRepository(deps.db),
    deps.releaseBlobs,
  );
  albumsReadRoutes(app, albums);
  albumsWriteRoutes(app, albums);
  const store = deps.blobs;
  if (store === null) return;
  await registerUploadScope(app, (scope) => {
    albumCoverRoutes(scope, albums, store, deps.images);
  });
}
