import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ArtistRatingsOf, ModuleDeps, RatingOf } from '../shared-deps.js';
import { artistsReadRoutes, artistsWriteRoutes } from './artists.routes.js';
import type { ArtistsService } from './artists.service.js';

/**
 * Artists: reads need a session, writes an admin. Writes upload a picture, so without a blob store only the reads are
 * registered; the writes get their own scope, which parses multipart. Catalogue images go through the image gate and
 * pixel ceiling, but not the users' daily allowance.
 */
export async function registerArtists(
  app: App,
  {
    artists,
    blobs,
    images,
    ratingOf,
    artistRatingsOf,
  }: Pick<ModuleDeps, 'blobs' | 'images'> & {
    artists: ArtistsService;
    ratingOf: RatingOf;
    artistRatingsOf: ArtistRatingsOf;
  },
): Promise<void> {
  artistsReadRoutes(app, artists, { ratingOf, artistRatingsOf });
  const store = blobs;
  if (store === null) return;
  await registerUploadScope(app, (scope) => {
    artistsWriteRoutes(scope, artists, store, images);
  });
}
