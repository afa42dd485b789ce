import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ModuleDeps, RatingOf } from '../shared-deps.js';
import { albumCoverRoutes, albumsReadRoutes, albumsWriteRoutes } from './albums.routes.js';
import type { AlbumsService } from './albums.service.js';

/**
 * Albums (issue 12): pages of albums and one album's songs as the viewer sees them; admins edit them. Covers upload
 * through the media pipeline, so without a blob store that route is not registered; it gets a scope of its own, which
 * parses multipart.
 */
export async function registerAlbums(
  app: App,
  {
    albums,
    blobs,
    images,
    ratingOf,
  }: Pick<ModuleDeps, 'blobs' | 'images'> & { albums: AlbumsService; ratingOf: RatingOf },
): Promise<void> {
  albumsReadRoutes(app, albums, ratingOf);
  albumsWriteRoutes(app, albums);
  const store = blobs;
  if (store === null) return;
  await registerUploadScope(app, (scope) => {
    albumCoverRoutes(scope, albums, store, images);
  });
}
